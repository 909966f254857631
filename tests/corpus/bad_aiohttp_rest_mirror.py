"""Task mirror for an A2A 1.0 peer over its HTTP+JSON (REST) binding, with aiohttp.

Delegates documents with POST /message:send and keeps a local mirror of each
task, refreshed every 30 seconds. Bugs: no contract is frozen at send, the
card is re-read on every refresh without a validator, and a task is marked
failed locally whenever the card's version differs from the one it was sent
under, while the peer may still be working on it.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

import aiohttp

log = logging.getLogger("mirror")


@dataclass
class MirroredTask:
    id: str
    state: str
    card_version: str


class Mirror:
    def __init__(self, session: aiohttp.ClientSession, base_url: str):
        self.session = session
        self.base_url = base_url.rstrip("/")
        self.tasks: dict[str, MirroredTask] = {}

    async def delegate(self, document_url: str) -> MirroredTask:
        async with self.session.get(f"{self.base_url}/.well-known/agent-card.json") as resp:
            card = await resp.json()
        payload = {"message": {"role": "ROLE_USER", "messageId": document_url, "parts": [{"url": document_url}]}}
        async with self.session.post(f"{self.base_url}/message:send", json=payload) as resp:  # expect: AC103
            body = await resp.json()
        task = MirroredTask(body["task"]["id"], body["task"]["status"]["state"], card["version"])
        self.tasks[task.id] = task
        return task

    async def run(self) -> None:
        while True:
            async with self.session.get(f"{self.base_url}/.well-known/agent-card.json") as resp:  # expect: AC101, AC104
                card = await resp.json()
            for task in list(self.tasks.values()):
                if card["version"] != task.card_version:
                    log.warning("peer card moved to %s; failing %s", card["version"], task.id)
                    task.state = "TASK_STATE_FAILED"  # expect: AC105
                    continue
                async with self.session.get(f"{self.base_url}/tasks/{task.id}") as resp:
                    task.state = (await resp.json())["status"]["state"]
            await asyncio.sleep(30)
