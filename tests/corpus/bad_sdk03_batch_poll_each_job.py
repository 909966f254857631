"""Nightly batch of invoice extractions against one peer (a2a-sdk 0.3, non-streaming).

Each invoice is a new task, but the card is revalidated inside the poll loop of
the job in flight, and a changed protocol version stops following that task:
the re-fetched card decides about a task that was already submitted.
"""

import asyncio
import hashlib
import json

import httpx
from a2a.client import ClientConfig, ClientFactory
from a2a.types import AgentCard, Message, Part, Role, TaskQueryParams, TaskState, TextPart

CARD_PATH = "/.well-known/agent-card.json"
FINISHED = (TaskState.completed, TaskState.failed, TaskState.canceled, TaskState.rejected)


def contract_digest(card: AgentCard) -> str:
    fields = card.model_dump(mode="json", include={"protocol_version", "security_schemes", "security"})
    return hashlib.sha256(json.dumps(fields, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


async def extract_all(http: httpx.AsyncClient, base: str, invoices: list[str]) -> dict[str, str]:
    outcome: dict[str, str] = {}
    card, etag = None, None
    for invoice_id in invoices:
        resp = await http.get(base + CARD_PATH, headers={"If-None-Match": etag} if etag else {})
        if resp.status_code != 304:
            resp.raise_for_status()
            card, etag = AgentCard.model_validate(resp.json()), resp.headers.get("ETag")
        if card.protocol_version != "0.3.0":
            raise RuntimeError(f"{base} speaks {card.protocol_version}")
        client = ClientFactory(ClientConfig(httpx_client=http, streaming=False)).create(card)
        message = Message(
            role=Role.user,
            message_id=f"extract-{invoice_id}",
            parts=[Part(root=TextPart(text=f"extract invoice {invoice_id}"))],
            metadata={"contract_hash": contract_digest(card)},
        )
        task = None
        async for event in client.send_message(message):
            task = event[0]
        while task.status.state not in FINISHED:
            await asyncio.sleep(2)
            task = await client.get_task(TaskQueryParams(id=task.id))
            resp = await http.get(base + CARD_PATH, headers={"If-None-Match": etag} if etag else {})  # expect: AC101
            if resp.status_code == 200 and AgentCard.model_validate(resp.json()).protocol_version != "0.3.0":
                raise RuntimeError(f"{base} changed protocol while {task.id} ran")
        outcome[invoice_id] = task.status.state.value
    return outcome
