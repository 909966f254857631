"""Opening a conversation with the specialist, and relaying the customer's answers."""

from __future__ import annotations

import hashlib
import json
from uuid import uuid4

from a2a.types import Message, Part, Role, TextPart

from desk.peering import PeerSession


def _text(text: str, **fields) -> Message:
    return Message(role=Role.user, message_id=uuid4().hex, parts=[Part(root=TextPart(text=text))], **fields)


async def open_case(url: str, text: str) -> tuple[str | None, str]:
    async with PeerSession(url) as client:
        card = await client.get_card()
        terms = card.model_dump(mode="json", include={"protocol_version", "security"})
        pinned = hashlib.sha256(json.dumps(terms, sort_keys=True).encode()).hexdigest()
        async for event in client.send_message(_text(text, metadata={"contract_hash": pinned})):
            if isinstance(event, Message):
                return None, pinned
            task, _ = event
            return task.id, pinned
    return None, pinned


async def relay_answer(url: str, case_task: str, text: str, pinned: str) -> str:
    async with PeerSession(url) as client:
        async for event in client.send_message(_text(text, task_id=case_task, metadata={"contract_hash": pinned})):
            if isinstance(event, Message):
                return "answered"
            task, _ = event
            return task.status.state.value
    return "unknown"
