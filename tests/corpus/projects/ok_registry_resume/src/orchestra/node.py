"""AgentNode: one workflow step, carried out by whichever agent the registry names for it."""

from __future__ import annotations

import enum
import hashlib
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

log = logging.getLogger(__name__)
ENDED_BADLY = {TaskState.failed, TaskState.rejected, TaskState.canceled}


class Phase(str, enum.Enum):
    READY = "ready"
    RUNNING = "running"
    PAUSED = "paused"
    DONE = "done"
    BROKEN = "broken"


def freeze_contract(listing: AgentCard) -> str:
    fields = listing.model_dump(mode="json", by_alias=True, exclude_none=True)
    terms = {name: fields.get(name) for name in ("protocolVersion", "securitySchemes", "security")}
    return hashlib.sha256(json.dumps(terms, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


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
        self.listing: AgentCard | None = None
        self.contract = ""
        self._client: A2AClient | None = None

    def bind(self, listing: AgentCard) -> None:
        """Called once, before the first run: the agent this step will use for its whole life."""
        self.listing = listing
        self.contract = freeze_contract(listing)
        self._client = A2AClient(self._http, agent_card=listing)

    async def run_node(self, text: str) -> AsyncIterator[str]:
        """Start the step, or (after a pause) answer the agent on the same remote work item."""
        if self._client is None or self.listing is None:
            raise RuntimeError(f"node {self.key} was never bound to an agent")
        outgoing = Message(
            role=Role.user,
            parts=[Part(root=TextPart(text=text))],
            message_id=uuid4().hex,
            task_id=self.remote_ref,
            context_id=self.thread_ref,
            metadata={"contract_sha256": self.contract},
        )
        request = SendStreamingMessageRequest(id=str(uuid4()), params=MessageSendParams(message=outgoing))
        self.phase = Phase.RUNNING
        async for chunk in self._client.send_message_streaming(request):
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
                yield f"{self.key} via {self.listing.name}: {status.state.value}"
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
