"""Batch translation job against a translation agent (a2a-sdk 0.3, ClientFactory.connect).

connect() resolves the card once; get_card() then returns the card the
transport already holds (no network call), and its contract is frozen into
every message. Each document's task is followed through a bounded number of
resubscribes and cancelled after that retry budget, never because of card data.
A translation-memory cache uses its own ETags: that is not an Agent Card.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from uuid import uuid4

import httpx
from a2a.client import Client, ClientConfig, ClientFactory
from a2a.types import AgentCard, Message, Part, Role, TaskIdParams, TaskState, TextPart

log = logging.getLogger("batch.translate")
MAX_RESUBSCRIBES = 4
DONE = (TaskState.completed, TaskState.failed, TaskState.canceled, TaskState.rejected)


def contract_hash(card: AgentCard) -> str:
    contract = {
        "protocolVersion": card.protocol_version,
        "securitySchemes": {k: v.model_dump(mode="json") for k, v in (card.security_schemes or {}).items()},
        "security": card.security or [],
    }
    return hashlib.sha256(json.dumps(contract, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


class MemoryCache:
    """Translation memory served by the localisation team, fetched conditionally."""

    def __init__(self, http: httpx.AsyncClient, url: str):
        self.http, self.url = http, url
        self.entries: dict[str, str] = {}
        self.etag = ""

    async def refresh(self) -> dict[str, str]:
        response = await self.http.get(self.url, headers={"If-None-Match": self.etag})
        if response.status_code != 304:
            self.entries, self.etag = response.json(), response.headers.get("ETag", "")
        return self.entries


async def translate_one(client: Client, frozen: str, document: str, target: str) -> TaskState | None:
    message = Message(
        role=Role.user,
        parts=[Part(root=TextPart(text=document))],
        message_id=uuid4().hex,
        metadata={"contract_digest": frozen, "target_language": target},
    )
    task_id = None
    async for task, _update in client.send_message(message):
        task_id = task.id
        if task.status.state in DONE:
            return task.status.state
    for attempt in range(MAX_RESUBSCRIBES):
        try:
            async for task, _update in client.resubscribe(TaskIdParams(id=task_id)):
                if task.status.state in DONE:
                    return task.status.state
        except httpx.TransportError:
            await asyncio.sleep(2**attempt)
    log.warning("task %s unreachable after %d resubscribes; cancelling", task_id, MAX_RESUBSCRIBES)
    await client.cancel_task(TaskIdParams(id=task_id))
    return None


async def run_batch(agent_url: str, memory_url: str, documents: list[str], target: str) -> list[TaskState | None]:
    async with httpx.AsyncClient(timeout=60) as http:
        client = await ClientFactory.connect(agent_url, client_config=ClientConfig(httpx_client=http))
        frozen = contract_hash(await client.get_card())
        memory = await MemoryCache(http, memory_url).refresh()
        pending = [doc for doc in documents if doc not in memory]
        results = [await translate_one(client, frozen, doc, target) for doc in pending]
        await client.close()
        return results
