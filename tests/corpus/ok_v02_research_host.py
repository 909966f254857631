"""Host agent that hands research questions to a remote A2A agent (a2a-sdk 0.2.x).

The peer's card is read once, before the task is sent. Its contract fields are
frozen into the message metadata, and from then on only the task's own status
(tasks/get) decides what happens. A Slack notifier posts the answer.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import time
from uuid import uuid4

import httpx
from a2a.client import A2ACardResolver, A2AClient
from a2a.types import (
    AgentCard,
    CancelTaskRequest,
    GetTaskRequest,
    Message,
    MessageSendParams,
    Part,
    Role,
    SendMessageRequest,
    Task,
    TaskIdParams,
    TaskQueryParams,
    TaskState,
    TextPart,
)

log = logging.getLogger("host.research")
TERMINAL = {TaskState.completed, TaskState.failed, TaskState.canceled, TaskState.rejected}
POLL_DEADLINE_S = 300


def contract_hash(card: AgentCard) -> str:
    """sha256 over the canonical JSON of the contract fields only."""
    dumped = card.model_dump(mode="json", by_alias=True, exclude_none=True)
    contract = {key: dumped.get(key) for key in ("protocolVersion", "securitySchemes", "security")}
    blob = json.dumps(contract, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()


class ResearchDelegate:
    def __init__(self, http: httpx.AsyncClient, base_url: str):
        self.http = http
        self.base_url = base_url

    async def ask(self, question: str) -> str | None:
        resolver = A2ACardResolver(self.http, self.base_url)
        card = await resolver.get_agent_card()
        frozen = contract_hash(card)
        client = A2AClient(self.http, agent_card=card)
        message = Message(
            role=Role.user,
            parts=[Part(root=TextPart(text=question))],
            message_id=uuid4().hex,
            metadata={"contract_digest": frozen},
        )
        request = SendMessageRequest(id=str(uuid4()), params=MessageSendParams(message=message))
        response = await client.send_message(request)
        result = response.root.result
        if not isinstance(result, Task):
            return _text(result.parts)
        log.info("task %s submitted under contract %s", result.id, frozen[:12])
        return await self._wait(client, result.id)

    async def _wait(self, client: A2AClient, task_id: str) -> str | None:
        deadline = time.monotonic() + POLL_DEADLINE_S
        while time.monotonic() < deadline:
            reply = await client.get_task(GetTaskRequest(id=str(uuid4()), params=TaskQueryParams(id=task_id)))
            task = reply.root.result
            if task.status.state in TERMINAL:
                return _text(task.artifacts[0].parts) if task.artifacts else None
            await asyncio.sleep(2)
        log.warning("task %s still running after %ss; cancelling", task_id, POLL_DEADLINE_S)
        await client.cancel_task(CancelTaskRequest(id=str(uuid4()), params=TaskIdParams(id=task_id)))
        return None


def _text(parts) -> str:
    return "\n".join(p.root.text for p in parts if isinstance(p.root, TextPart))


class SlackNotifier:
    """Posts to a Slack channel through the Web API; nothing to do with A2A."""

    def __init__(self, http: httpx.AsyncClient, token: str, channel: str):
        self.http = http
        self.token = token
        self.channel = channel

    async def send_message(self, text: str) -> None:
        await self.http.post(
            "https://slack.com/api/chat.postMessage",
            headers={"Authorization": f"Bearer {self.token}"},
            json={"channel": self.channel, "text": text},
        )


async def main(question: str, slack_token: str) -> None:
    async with httpx.AsyncClient(timeout=30) as http:
        answer = await ResearchDelegate(http, "https://research.agents.example.com").ask(question)
        notifier = SlackNotifier(http, slack_token, "#research")
        await notifier.send_message(answer or "the research agent gave no answer")
