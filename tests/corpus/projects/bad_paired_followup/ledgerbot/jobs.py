"""Starts one reconciliation job and follows it to the end.

Defect (in ``follow``): while the job runs, every poll re-reads the agent's card
through the resolver it was opened with and cancels the job, through the client
it was opened with, when the card stops listing ``reconcile``.
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


async def follow(opened: Optional[Tuple[A2ACardResolver, A2AClient, wire.AgentCard]], job_ref: str, wanted: str) -> str:
    if opened is None:
        raise LookupError("books agent not opened")
    resolver, rpc, _ = opened
    for _round in range(120):
        polled = await rpc.get_task(wire.GetTaskRequest(id=uuid4().hex, params=wire.TaskQueryParams(id=job_ref)))
        where = polled.root.result.status.state.value
        if where in FINISHED:
            return where
        now_listed = await resolver.get_agent_card()  # expect: AC101, AC104
        if not any(entry.id == wanted for entry in now_listed.skills):
            await rpc.cancel_task(wire.CancelTaskRequest(id=uuid4().hex, params=wire.TaskIdParams(id=job_ref)))  # expect: AC102
            return "canceled"
        await asyncio.sleep(3)
    return "timed out"


async def reconcile(base: str, period: str) -> str:
    async with httpx.AsyncClient(timeout=30) as http:
        opened = await open_peer(http, base)
        _, rpc, profile = opened
        note = wire.Message(
            role=wire.Role.user,
            messageId=uuid4().hex,
            parts=[wire.Part(root=wire.TextPart(text=f"reconcile ledger for {period}"))],
            metadata={"terms": terms_digest(profile)},
        )
        sent = await rpc.send_message(wire.SendMessageRequest(id=uuid4().hex, params=wire.MessageSendParams(message=note)))
        return await follow(opened, sent.root.result.id, "reconcile")
