"""The tool the host's planner calls to have a remote agent do something."""

from __future__ import annotations

import asyncio
from uuid import uuid4

from a2a.types import Message, Part, Role, TaskQueryParams, TextPart

from remotes import contract_hash

FINISHED = {"completed", "failed", "canceled", "rejected"}


async def hand_off(agent, request: str, skill: str) -> str:
    client = await agent.async_connect()
    card = await client.get_card()
    if skill not in {s.id for s in card.skills}:
        return f"{agent.name} does not offer {skill}"
    message = Message(
        role=Role.user,
        message_id=uuid4().hex,
        parts=[Part(root=TextPart(text=request))],
        metadata={"contract_hash": contract_hash(card)},
    )
    task = None
    async for event in client.send_message(message):
        if isinstance(event, tuple):
            task = event[0]
    for _ in range(40):
        if task is None or task.status.state.value in FINISHED:
            break
        await asyncio.sleep(3)
        task = await client.get_task(TaskQueryParams(id=task.id))
    return task.status.state.value if task is not None else "answered"
