"""Starts one reconciliation job and follows it to the end.

The card read when the agent is opened decides, before sending, whether the
agent offers ``reconcile``. While the job runs only its own status is read; the
job is cancelled only when the polling window runs out.
"""

from __future__ import annotations

import asyncio
from typing import Optional, Tuple
from uuid import uuid4

import httpx
from a2a.client import A2ACardResolver, A2AClient
from a2a import types as wire

from ledgerbot.peer import open_peer, terms_digest

FINISHED = {"completed", "failed", "canceled", "rejected"}


async def follow(opened: Optional[Tuple[A2ACardResolver, A2AClient, wire.AgentCard]], job_ref: str) -> str:
    if opened is None:
        raise LookupError("books agent not opened")
    _, rpc, _ = opened
    for _round in range(120):
        polled = await rpc.get_task(wire.GetTaskRequest(id=uuid4().hex, params=wire.TaskQueryParams(id=job_ref)))
        where = polled.root.result.status.state.value
        if where in FINISHED:
            return where
        await asyncio.sleep(3)
    await rpc.cancel_task(wire.CancelTaskRequest(id=uuid4().hex, params=wire.TaskIdParams(id=job_ref)))
    return "timed out"


async def reconcile(base: str, period: str) -> str:
    async with httpx.AsyncClient(timeout=30) as http:
        opened = await open_peer(http, base)
        _, rpc, profile = opened
        if not any(entry.id == "reconcile" for entry in profile.skills):
            raise LookupError(f"{base} does not offer reconcile")
        note = wire.Message(
            role=wire.Role.user,
            messageId=uuid4().hex,
            parts=[wire.Part(root=wire.TextPart(text=f"reconcile ledger for {period}"))],
            metadata={"terms": terms_digest(profile)},
        )
        sent = await rpc.send_message(wire.SendMessageRequest(id=uuid4().hex, params=wire.MessageSendParams(message=note)))
        return await follow(opened, sent.root.result.id)
