"""ReviewSession: one connection to the code-review agent (a2a-sdk 1.x)."""

from __future__ import annotations

from uuid import uuid4

import httpx
from a2a.client import A2ACardResolver, Client, ClientConfig, create_client
from a2a.helpers import get_artifact_text, get_message_text
from a2a.types import Message, Part, Role, SendMessageRequest, TaskState

from .contracts import contract_hash


class ReviewSession:
    def __init__(self, client: Client, contract: str):
        self._client = client
        self._contract = contract

    @classmethod
    async def connect(cls, url: str) -> ReviewSession:
        async with httpx.AsyncClient(timeout=15) as http:
            resolved = await A2ACardResolver(http, url).get_agent_card()
        client = await create_client(resolved, client_config=ClientConfig(streaming=False))
        return cls(client, contract_hash(resolved))

    async def ask(self, text: str, context_id: str = "") -> tuple[str, str]:
        """Send one prompt; return the answer text and how the exchange ended."""
        message = Message(role=Role.ROLE_USER, message_id=uuid4().hex, parts=[Part(text=text)])
        if context_id:
            message.context_id = context_id
        request = SendMessageRequest(message=message)
        request.metadata.update({"caller": "review-bot", "contract_digest": self._contract})
        answer, outcome = "", "TASK_STATE_UNSPECIFIED"
        async for response in self._client.send_message(request):
            if response.HasField("message"):
                return get_message_text(response.message), "message"
            if response.HasField("task"):
                outcome = TaskState.Name(response.task.status.state)
                answer = "\n".join(get_artifact_text(a) for a in response.task.artifacts)
        return answer, outcome

    async def close(self) -> None:
        await self._client.close()
