"""The tool the host's planner calls to have a remote agent do something."""

from __future__ import annotations

import asyncio
from uuid import uuid4

from a2a.types import Message, Part, Role, TaskIdParams, TaskQueryParams, TextPart

FINISHED = {"completed", "failed", "canceled", "rejected"}


async def hand_off(agent, request: str, skill: str) -> str:
    client = await agent.async_connect()
    message = Message(role=Role.user, message_id=uuid4().hex, parts=[Part(root=TextPart(text=request))])
    task = None
    async for event in client.send_message(message):  # expect: AC103
        if isinstance(event, tuple):
            task = event[0]
    for _ in range(40):
        if task is None or task.status.state.value in FINISHED:
            break
        await asyncio.sleep(3)
        client = await agent.async_connect()
        card = await client.get_card()
        if skill not in {s.id for s in card.skills}:
            await client.cancel_task(TaskIdParams(id=task.id))  # expect: AC102
            return "canceled"
        task = await client.get_task(TaskQueryParams(id=task.id))
    return task.status.state.value if task is not None else "answered"
