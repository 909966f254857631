"""Opens a job with a peer."""

from __future__ import annotations

import hashlib
import json
from uuid import uuid4

import httpx
from a2a.types import AgentCard, Message, Part, Role, TextPart

from hostsvc.link import dial


def fingerprint(card: AgentCard) -> str:
    terms = card.model_dump(mode="json", include={"protocol_version", "security_schemes", "security"})
    return hashlib.sha256(json.dumps(terms, sort_keys=True).encode()).hexdigest()


async def open_job(http: httpx.AsyncClient, base: str, brief: str) -> tuple[str | None, str]:
    link = await dial(base, http)
    card = await link.profile()
    client = await link.client()
    print_ = fingerprint(card)
    msg = Message(role=Role.user, message_id=uuid4().hex, parts=[Part(root=TextPart(text=brief))],
                  metadata={"contract_hash": print_})
    async for event in client.send_message(msg):
        if isinstance(event, Message):
            return None, print_
        task, _ = event
        return task.id, print_
    return None, print_
