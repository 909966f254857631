"""Workflow nodes that hand one step to a remote A2A agent (a2a-sdk 0.3)."""

from __future__ import annotations

import logging
from uuid import uuid4

import httpx
from a2a.client import ClientCallContext, ClientConfig, ClientFactory
from a2a.types import AgentCard, APIKeySecurityScheme, HTTPAuthSecurityScheme, In, Message, Part, Role, TaskState, TextPart

from .registry import PeerRegistry

log = logging.getLogger(__name__)
DONE, PAUSED, FAILED = "done", "paused", "failed"
ENDED = {TaskState.completed, TaskState.failed, TaskState.canceled, TaskState.rejected}


def _text(parts) -> str:
    return "\n".join(p.root.text for p in parts if isinstance(p.root, TextPart))


class DelegateNode:
    def __init__(
        self, step: str, peer: str, prompt: str, registry: PeerRegistry, http: httpx.AsyncClient, secrets: dict[str, str]
    ):
        self.step = step
        self.peer = peer
        self.prompt = prompt
        self.registry = registry
        self.secrets = secrets
        self.factory = ClientFactory(ClientConfig(httpx_client=http, streaming=False))

    def _auth_headers(self, profile: AgentCard) -> dict[str, str]:
        secret = self.secrets.get(self.peer, "")
        for scheme in (profile.security_schemes or {}).values():
            root = scheme.root
            if isinstance(root, APIKeySecurityScheme) and root.in_ == In.header:
                return {root.name: secret}
            if isinstance(root, HTTPAuthSecurityScheme) and root.scheme.lower() == "bearer":
                return {"Authorization": f"Bearer {secret}"}
        return {}

    async def run(self, state: dict, reply: str | None = None) -> str:
        """Run the step, or continue it when the remote agent asked for input."""
        slot = state["slots"].setdefault(self.step, {})
        profile = await self.registry.lookup(self.peer)
        client = self.factory.create(profile)
        text = reply if slot.get("remote_ref") else self.prompt.format(**state["inputs"])
        message = Message(
            role=Role.user,
            parts=[Part(root=TextPart(text=text or ""))],
            message_id=uuid4().hex,
            task_id=slot.get("remote_ref"),
            context_id=slot.get("context"),
        )
        call = ClientCallContext(state={"http_kwargs": {"headers": self._auth_headers(profile)}})
        async for event in client.send_message(message, context=call):  # expect: AC103
            if isinstance(event, Message):
                slot["answer"] = _text(event.parts)
                return DONE
            current, _update = event
            slot["remote_ref"], slot["context"] = current.id, current.context_id
            if current.status.state == TaskState.input_required:
                slot["question"] = _text(current.status.message.parts) if current.status.message else ""
                return PAUSED
            if current.status.state in ENDED:
                slot["answer"] = "\n".join(_text(a.parts) for a in current.artifacts or [])
                return DONE if current.status.state == TaskState.completed else FAILED
        log.info("step %s: %s still open at %s", self.step, self.peer, slot.get("remote_ref"))
        return PAUSED
