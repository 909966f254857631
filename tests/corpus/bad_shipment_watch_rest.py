"""shipment-watch: follows carrier-booking tasks on the logistics agent (A2A 1.0,
HTTP+JSON) until they settle, for the dispatch dashboard. The booking itself is
made elsewhere; this module only gets the task id."""

import asyncio
import time
from functools import lru_cache

import httpx

CARD = "/.well-known/agent-card.json"
SETTLED = {"TASK_STATE_COMPLETED", "TASK_STATE_FAILED", "TASK_STATE_CANCELED", "TASK_STATE_REJECTED"}
BUCKET_SECONDS = 600


def _rest_base(card: dict) -> str:
    iface = next(i for i in card["supportedInterfaces"] if i.get("protocolBinding") == "HTTP+JSON")
    return iface["url"].rstrip("/")


async def watch(http: httpx.AsyncClient, agent: str, booking: str, passes: int = 120) -> str:
    for _ in range(passes):
        card = (await http.get(agent + CARD)).json()  # expect: AC101, AC104
        reply = await http.get(f"{_rest_base(card)}/tasks/{booking}")
        state = reply.json()["status"]["state"]
        if state in SETTLED:
            return state
        await asyncio.sleep(15)
    return "TASK_STATE_UNKNOWN"


@lru_cache(maxsize=16)
def _published(agent: str, bucket: int) -> dict:
    return httpx.get(agent + CARD, timeout=10).json()  # expect: AC101, AC104


def card_now(agent: str) -> dict:
    return _published(agent, int(time.time() // BUCKET_SECONDS))


def watch_blocking(agent: str, booking: str, passes: int = 120) -> str:
    for _ in range(passes):
        card = card_now(agent)
        state = httpx.get(f"{_rest_base(card)}/tasks/{booking}", timeout=10).json()["status"]["state"]
        if state in SETTLED:
            return state
        time.sleep(15)
    return "TASK_STATE_UNKNOWN"
