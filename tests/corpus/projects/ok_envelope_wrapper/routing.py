"""The concierge's one tool: delegate a request to a named remote agent."""

from __future__ import annotations

from typing import Annotated
from uuid import uuid4

from a2a.types import JSONRPCErrorResponse, Message, MessageSendParams, Part, Role, TaskState, TextPart
from semantic_kernel.functions import kernel_function

from channel import PeerChannel

PENDING = (TaskState.input_required, TaskState.auth_required)


def _words(parts) -> str:
    return " ".join(p.root.text for p in parts or [] if isinstance(p.root, TextPart))


class ConciergeRouter:
    def __init__(self, channels: dict[str, PeerChannel]) -> None:
        self._channels = channels
        self._threads: dict[str, tuple[str | None, str | None]] = {}

    def roster(self) -> str:
        return "\n".join(ch.summary() for ch in self._channels.values())

    @kernel_function(name="send_message", description="Delegate a request to one of the remote agents.")
    async def send_message(
        self,
        agent_name: Annotated[str, "exact name of the remote agent"],
        task: Annotated[str, "what the agent should do, in plain words"],
    ) -> str:
        channel = self._channels.get(agent_name)
        if channel is None:
            return f"No agent called {agent_name}. Known agents: {', '.join(self._channels)}"
        context_id, pending_id = self._threads.get(agent_name, (None, None))
        params = MessageSendParams(
            message=Message(
                role=Role.user,
                parts=[Part(root=TextPart(text=task))],
                message_id=uuid4().hex,
                context_id=context_id,
                task_id=pending_id,
                metadata={"contract_hash": channel.contract_hash},
            )
        )
        response = await channel.send_message(params)
        if isinstance(response.root, JSONRPCErrorResponse):
            return f"{agent_name} refused: {response.root.error.message}"
        result = response.root.result
        if isinstance(result, Message):
            self._threads[agent_name] = (result.context_id, None)
            return _words(result.parts)
        paused = result.status.state in PENDING
        self._threads[agent_name] = (result.context_id, result.id if paused else None)
        if paused:
            return f"{agent_name} needs more information: {_words(result.status.message.parts if result.status.message else [])}"
        return " ".join(_words(a.parts) for a in result.artifacts or []) or f"{agent_name}: {result.status.state.value}"
