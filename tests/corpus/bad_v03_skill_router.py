"""Routing agent: picks a specialist by skill and delegates to it (a2a-sdk 0.3).

Bugs (the incident behind AC102): no contract is frozen at send, and while the
task streams the router re-reads the specialist's card on every update and
cancels the task when the skill it routed on is no longer listed, although
the specialist had only moved that skill into a sub-agent.
"""

from __future__ import annotations

import logging
from uuid import uuid4

import httpx
from a2a.client import A2ACardResolver, ClientConfig, ClientFactory
from a2a.types import AgentCard, Message, Part, Role, Task, TaskIdParams, TaskState, TextPart

log = logging.getLogger(__name__)

SPECIALISTS = {
    "translate": "https://translator.agents.internal",
    "summarize": "https://summarizer.agents.internal",
    "classify": "https://classifier.agents.internal",
}


def pick_specialist(cards: dict[str, AgentCard], skill_id: str) -> str | None:
    """Routing before sending: reading skills here is what they are for."""
    for url, card in cards.items():
        if any(skill.id == skill_id for skill in card.skills):
            return url
    return None


def _text(parts) -> str:
    return "".join(p.root.text for p in parts if isinstance(p.root, TextPart))


class Router:
    def __init__(self, http: httpx.AsyncClient):
        self.http = http
        self.config = ClientConfig(httpx_client=http, streaming=True)

    async def route(self, skill_id: str, text: str) -> str | None:
        url = SPECIALISTS[skill_id]
        client = await ClientFactory.connect(url, client_config=self.config)
        resolver = A2ACardResolver(self.http, url)
        message = Message(role=Role.user, parts=[Part(root=TextPart(text=text))], message_id=uuid4().hex)
        async for event in client.send_message(message):  # expect: AC103
            if isinstance(event, Message):
                return _text(event.parts)
            task, update = event
            if update is None:
                continue
            card = await resolver.get_agent_card()  # expect: AC101, AC104
            if skill_id not in {skill.id for skill in card.skills}:
                log.warning("%s no longer lists %s; cancelling %s", url, skill_id, task.id)
                await client.cancel_task(TaskIdParams(id=task.id))  # expect: AC102
                return None
            if task.status.state == TaskState.completed:
                return self._answer(task)
        return None

    def _answer(self, task: Task) -> str:
        return "\n".join(_text(artifact.parts) for artifact in task.artifacts or [])
