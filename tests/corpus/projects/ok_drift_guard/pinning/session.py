"""One translation job on the pinned partner.

When the partner pushes a new version of its card, only a change of its
contract terms stops further jobs; skills, output modes and capabilities that
moved are noted for the next review.
"""

from __future__ import annotations

import logging
from uuid import uuid4

from a2a.client import Client
from a2a.types import AgentCard, Message, Part, Role, SendMessageRequest

from pinning.drift import outputs_moved, skill_names, terms_digest

log = logging.getLogger("pinning")


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
        if terms_digest(pushed) != terms_digest(self.approved):
            raise Drifted("contract terms changed; new jobs wait for review")
        lost = skill_names(self.approved) - skill_names(pushed)
        if lost:
            log.info("skills withdrawn: %s", sorted(lost))
        if outputs_moved(self.approved, pushed) and self.task_id:
            log.info("output modes moved while %s runs", self.task_id)
        steady = pushed.capabilities == self.approved.capabilities
        if not steady:
            log.info("capabilities changed")
        return True
