"""Soak runner: one rig per partner (our push receiver and a client connected to the
partner's sandbox), kept in a table; a soak task is checked in on from time to time.
Only the task's own status is read while it runs; it is cancelled when its soak
window is over."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import sys
import time
from typing import Dict, Tuple
from uuid import uuid4

import httpx
from a2a.client import A2ACardResolver, Client, ClientConfig, ClientFactory
from a2a.types import AgentCard, Message, Part, Role, TaskIdParams, TaskQueryParams, TextPart
from uvicorn import Config, Server

log = logging.getLogger("soak")


def terms_of(card: AgentCard) -> str:
    picked = card.model_dump(mode="json", include={"protocol_version", "security_schemes", "security"})
    return hashlib.sha256(json.dumps(picked, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def open_rig(http: httpx.AsyncClient, card: AgentCard, app) -> Tuple[Server, Client]:
    receiver = Server(Config(app, port=8799, log_level="warning"))
    asyncio.get_running_loop().create_task(receiver.serve())
    return receiver, ClientFactory(ClientConfig(httpx_client=http, streaming=False)).create(card)


async def start_soak(remote: Client, card: AgentCard, prompt: str) -> str | None:
    note = Message(role=Role.user, message_id=uuid4().hex, parts=[Part(root=TextPart(text=prompt))],
                   metadata={"terms": terms_of(card)})
    async for event in remote.send_message(note):
        if not isinstance(event, Message):
            return event[0].id
    return None


class SoakRunner:
    def __init__(self, http: httpx.AsyncClient, rigs: Dict[str, Tuple[Server, Client]], window: float = 900.0):
        self.http = http
        self.rigs = rigs
        self.window = window

    async def check_in(self, partner: str, ref: str, started: float) -> str:
        _receiver, remote = self.rigs[partner]
        current = await remote.get_task(TaskQueryParams(id=ref))
        state = current.status.state.value
        if state != "working":
            if state == "failed" and current.status.message:
                log.warning("%s soak %s failed: %s", partner, ref, current.status.message.parts)
            return state
        if time.monotonic() - started > self.window:
            await remote.cancel_task(TaskIdParams(id=ref))
            return "canceled"
        return "working"


async def main(base: str, app) -> int:
    async with httpx.AsyncClient(timeout=60) as http:
        card = await A2ACardResolver(http, base).get_agent_card()
        rigs = {"sandbox": open_rig(http, card, app)}
        runner = SoakRunner(http, rigs)
        started = time.monotonic()
        ref = await start_soak(rigs["sandbox"][1], card, "replay the 24h settlement trace")
        while ref is not None and (state := await runner.check_in("sandbox", ref, started)) == "working":
            await asyncio.sleep(60)
        return 0 if ref is not None and state == "completed" else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1], None)))
