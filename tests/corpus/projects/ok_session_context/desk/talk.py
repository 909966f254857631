"""A conversation with the specialist: one session, opened before the first message."""

from __future__ import annotations

import hashlib
import json
from collections.abc import AsyncIterator
from uuid import uuid4

from a2a.types import Message, Part, Role, TextPart

from desk.peering import PeerSession


def _text(text: str, **fields) -> Message:
    return Message(role=Role.user, message_id=uuid4().hex, parts=[Part(root=TextPart(text=text))], **fields)


async def converse(url: str, opening: str, answers: AsyncIterator[str]) -> str:
    async with PeerSession(url) as client:
        card = await client.get_card()
        terms = card.model_dump(mode="json", include={"protocol_version", "security"})
        pinned = hashlib.sha256(json.dumps(terms, sort_keys=True).encode()).hexdigest()
        case_task = None
        async for event in client.send_message(_text(opening, metadata={"contract_hash": pinned})):
            if isinstance(event, Message):
                return "answered"
            task, _ = event
            case_task = task.id
        async for answer in answers:
            async for event in client.send_message(_text(answer, task_id=case_task, metadata={"contract_hash": pinned})):
                if isinstance(event, Message):
                    return "answered"
        return "done"
