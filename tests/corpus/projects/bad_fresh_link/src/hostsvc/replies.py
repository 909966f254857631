"""Follow-ups on jobs that stopped to ask something."""

from __future__ import annotations

from uuid import uuid4

import httpx
from a2a.types import Message, Part, Role, TextPart

from hostsvc.link import dial


async def follow_up(http: httpx.AsyncClient, base: str, job_id: str, text: str, contract: str) -> str:
    link = await dial(base, http)
    profile = await link.profile()
    client = await link.client()
    streaming = bool(profile.capabilities.streaming)
    msg = Message(role=Role.user, message_id=uuid4().hex, task_id=job_id, parts=[Part(root=TextPart(text=text))],
                  metadata={"contract_hash": contract})
    if not streaming:
        return "queued"
    async for event in client.send_message(msg):
        if isinstance(event, Message):
            return "answered"
    return "sent"
