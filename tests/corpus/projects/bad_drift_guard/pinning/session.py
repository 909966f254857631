"""One translation job on the pinned partner.

Defects: when the partner pushes a new version of its card while a job runs,
the job is abandoned because the skills, the output modes or the capabilities
differ from the approved card's.
"""

from __future__ import annotations

from uuid import uuid4

from a2a.client import Client
from a2a.types import AgentCard, CancelTaskRequest, Message, Part, Role, SendMessageRequest

from pinning.drift import outputs_moved, skill_names, terms_digest


class Drifted(RuntimeError):
    pass


class PinnedJob:
    def __init__(self, client: Client, approved: AgentCard):
        self.client = client
        self.approved = approved
        self.task_id: str | None = None

    async def translate(self, text: str) -> list[str]:
        request = SendMessageRequest(message=Message(role=Role.ROLE_USER, message_id=uuid4().hex, parts=[Part(text=text)]))
        request.metadata.update({"terms": terms_digest(self.approved)})
        pieces: list[str] = []
        async for response in self.client.send_message(request):
            if response.HasField("task"):
                self.task_id = response.task.id
            elif response.HasField("artifact_update"):
                pieces.extend(part.text for part in response.artifact_update.artifact.parts)
        return pieces

    async def on_card_pushed(self, pushed: AgentCard) -> bool:
        """Called by the push receiver with the card the partner now publishes."""
        lost = skill_names(self.approved) - skill_names(pushed)
        if lost:
            raise Drifted(f"skills withdrawn: {sorted(lost)}")  # expect: AC106
        if outputs_moved(self.approved, pushed) and self.task_id:
            await self.client.cancel_task(CancelTaskRequest(id=self.task_id))  # expect: AC106
        steady = pushed.capabilities == self.approved.capabilities
        if not steady:
            return False  # expect: AC106
        return True
