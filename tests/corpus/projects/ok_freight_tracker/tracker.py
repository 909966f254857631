"""Follows a freight booking (a task the booking desk already created on the partner's
agent, HTTP+JSON binding) until it settles, at the address the partner's card gave
when the booking was made."""

import time

import requests

from settings import CARD_ROUTE, DONE, LOOK_EVERY, PARTNER_BASE


def rest_root(meta: dict) -> str:
    for iface in meta.get("supportedInterfaces", []):
        if iface.get("protocolBinding") == "HTTP+JSON":
            return iface["url"].rstrip("/")
    raise LookupError("the partner offers no HTTP+JSON interface")


def partner_root() -> str:
    """Asked once by the booking desk, when a booking is made: the root its task lives under."""
    return rest_root(requests.get(PARTNER_BASE + CARD_ROUTE, timeout=10).json())


def follow(root: str, booking_id: str, rounds: int = 90) -> str:
    for _ in range(rounds):
        state = requests.get(f"{root}/tasks/{booking_id}", timeout=10).json()["status"]["state"]
        if state in DONE:
            return state
        time.sleep(LOOK_EVERY)
    return "TASK_STATE_UNKNOWN"
