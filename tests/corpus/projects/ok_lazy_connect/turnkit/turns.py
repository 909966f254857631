"""One turn of the helpdesk conversation."""

from __future__ import annotations

import os

from turnkit.wrapper import HelpdeskAgent, Reply

WAITING = {"input-required", "auth-required"}


def turn_headers() -> dict[str, str]:
    key = os.environ.get("HELPDESK_API_KEY")
    return {"X-API-Key": key} if key else {}


async def take_turn(agent: HelpdeskAgent, text: str, task_id: str | None, context_id: str | None) -> Reply:
    """Send one user turn: a new request, or the answer to the agent's open question."""
    if task_id is None:
        return await agent.run(text, context_id=context_id)
    return await agent.send_text(text, task_id=task_id, context_id=context_id)


def still_open(reply: Reply) -> bool:
    return reply.state in WAITING
