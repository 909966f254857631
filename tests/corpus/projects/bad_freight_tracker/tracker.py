"""Follows a freight booking (a task on the partner's agent, HTTP+JSON binding) until it
settles, looking the partner's address up again on every round."""

import time

import requests

from settings import CARD_ROUTE, DONE, LOOK_EVERY, PARTNER_BASE


def rest_root(meta: dict) -> str:
    for iface in meta.get("supportedInterfaces", []):
        if iface.get("protocolBinding") == "HTTP+JSON":
            return iface["url"].rstrip("/")
    raise LookupError("the partner offers no HTTP+JSON interface")


def partner_root() -> str:
    return rest_root(requests.get(PARTNER_BASE + CARD_ROUTE, timeout=10).json())


def follow(booking_id: str, rounds: int = 90) -> str:
    for _ in range(rounds):
        meta = requests.get(PARTNER_BASE + CARD_ROUTE, timeout=10).json()  # expect: AC101, AC104
        state = requests.get(f"{rest_root(meta)}/tasks/{booking_id}", timeout=10).json()["status"]["state"]
        if state in DONE:
            return state
        time.sleep(LOOK_EVERY)
    return "TASK_STATE_UNKNOWN"
