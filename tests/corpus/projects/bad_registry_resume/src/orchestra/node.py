"""AgentNode: one workflow step, carried out by whichever agent the registry names for it."""

from __future__ import annotations

import enum
import json
import logging
from collections.abc import AsyncIterator
from uuid import uuid4

import httpx
from a2a.client import A2AClient
from a2a.types import (
    AgentCard,
    JSONRPCErrorResponse,
    Message,
    MessageSendParams,
    Part,
    Role,
    SendStreamingMessageRequest,
    Task,
    TaskArtifactUpdateEvent,
    TaskState,
    TaskStatusUpdateEvent,
    TextPart,
)

from orchestra import registry_client

log = logging.getLogger(__name__)
ENDED_BADLY = {TaskState.failed, TaskState.rejected, TaskState.canceled}


class Phase(str, enum.Enum):
    READY = "ready"
    RUNNING = "running"
    PAUSED = "paused"
    DONE = "done"
    BROKEN = "broken"


def _text(parts) -> str:
    return "\n".join(p.root.text for p in parts or [] if isinstance(p.root, TextPart))


class AgentNode:
    def __init__(self, key: str, query: str, http: httpx.AsyncClient) -> None:
        self.key = key
        self.query = query
        self._http = http
        self.phase = Phase.READY
        self.remote_ref: str | None = None
        self.thread_ref: str | None = None
        self.question = ""
        self.results: list[str] = []

    async def run_node(self, text: str) -> AsyncIterator[str]:
        """Start the step, or (after a pause) answer the agent on the same remote work item."""
        async with registry_client.connect() as session:
            result = await registry_client.find_agent(session, self.query)  # expect: AC101, AC104
        listing = AgentCard(**json.loads(result.content[0].text))
        client = A2AClient(self._http, agent_card=listing)
        outgoing = Message(
            role=Role.user,
            parts=[Part(root=TextPart(text=text))],
            message_id=uuid4().hex,
            task_id=self.remote_ref,
            context_id=self.thread_ref,
        )
        request = SendStreamingMessageRequest(id=str(uuid4()), params=MessageSendParams(message=outgoing))
        self.phase = Phase.RUNNING
        async for chunk in client.send_message_streaming(request):  # expect: AC103
            if isinstance(chunk.root, JSONRPCErrorResponse):
                self.phase = Phase.BROKEN
                yield f"{self.key}: {chunk.root.error.message}"
                return
            event = chunk.root.result
            if isinstance(event, Message):
                self.results.append(_text(event.parts))
                self.phase = Phase.DONE
                return
            if isinstance(event, TaskArtifactUpdateEvent):
                self.results.append(_text(event.artifact.parts))
                continue
            if isinstance(event, (Task, TaskStatusUpdateEvent)):
                self.remote_ref = event.id if isinstance(event, Task) else event.task_id
                self.thread_ref = event.context_id
                status = event.status
                yield f"{self.key} via {listing.name}: {status.state.value}"
                if status.state == TaskState.input_required:
                    self.phase = Phase.PAUSED
                    self.question = _text(status.message.parts) if status.message else ""
                    return
                if status.state in ENDED_BADLY:
                    self.phase = Phase.BROKEN
                    return
                if status.state == TaskState.completed:
                    self.phase = Phase.DONE
        log.debug("stream for %s closed in phase %s", self.key, self.phase.value)
