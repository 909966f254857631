"""RunbookSession: one conversation between a runbook run and the remediation agent."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from a2a.types import Message, Part, Role, TaskState, TextPart

from acme_ops.platform.clients.a2a.client import PeerClient

OPEN = {TaskState.input_required, TaskState.auth_required}


def _flatten(parts) -> str:
    return "\n".join(p.root.text for p in parts or [] if isinstance(p.root, TextPart))


@dataclass
class Turn:
    state: str
    answer: str
    waiting: bool = False


class RunbookSession:
    def __init__(self, peer: PeerClient, incident: str) -> None:
        self._peer = peer
        self.incident = incident
        self._thread: str | None = None
        self._open_ref: str | None = None

    async def open(self) -> None:
        await self._peer.connect()

    async def ask(self, text: str) -> Turn:
        message = Message(
            role=Role.user,
            parts=[Part(root=TextPart(text=text))],
            message_id=uuid.uuid4().hex,
            context_id=self._thread,
            task_id=self._open_ref,
            metadata={"incident": self.incident},
        )
        outcome = await self._peer.send_message(message)  # expect: AC103
        if outcome is None:
            return Turn(state="unknown", answer="")
        if isinstance(outcome, Message):
            self._thread, self._open_ref = outcome.context_id, None
            return Turn(state="completed", answer=_flatten(outcome.parts))
        current, _ = outcome
        self._thread = current.context_id
        status = current.status
        if status.state in OPEN:
            self._open_ref = current.id
            return Turn(state=status.state.value, answer=_flatten(status.message.parts if status.message else []), waiting=True)
        self._open_ref = None
        produced = "\n".join(_flatten(a.parts) for a in current.artifacts or [])
        return Turn(state=status.state.value, answer=produced or _flatten(status.message.parts if status.message else []))
