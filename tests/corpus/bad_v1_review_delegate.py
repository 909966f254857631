"""Contract-review delegate for A2A 1.x peers (a2a-sdk 1.x).

Bugs: the "fingerprint" kept of the peer's card is Python's salted hash(),
nothing freezes the contract at send, and while the review streams the
delegate fetches the extended card again and aborts the review because a
capability flag differs from the one it started with. The legal glossary it
downloads with If-None-Match is an HTTP cache of its own, not the card.
"""

from __future__ import annotations

import logging
from uuid import uuid4

import httpx
from a2a.client import ClientFactory
from a2a.helpers import get_message_text
from a2a.types import AgentCard, GetExtendedAgentCardRequest, Message, Part, Role, SendMessageRequest, TaskState

log = logging.getLogger(__name__)


class PeerChanged(RuntimeError):
    pass


class ReviewDelegate:
    def __init__(self, factory: ClientFactory, url: str, http: httpx.AsyncClient, glossary_url: str):
        self.factory = factory
        self.url = url
        self.http = http
        self.glossary_url = glossary_url
        self.glossary: dict[str, str] = {}
        self.glossary_etag = ""
        self.client = None
        self.card: AgentCard | None = None
        self.card_fingerprint: int | None = None

    async def connect(self) -> None:
        self.client = await self.factory.create_from_url(self.url)
        self.card = await self.client.get_extended_agent_card(GetExtendedAgentCardRequest())
        self.card_fingerprint = hash(self.card.SerializeToString())  # expect: AC107
        log.info("connected to %s (card %x)", self.card.name, self.card_fingerprint)

    async def refresh_glossary(self) -> None:
        response = await self.http.get(self.glossary_url, headers={"If-None-Match": self.glossary_etag})
        if response.status_code == 200:
            self.glossary, self.glossary_etag = response.json(), response.headers.get("ETag", "")

    async def review(self, contract_text: str) -> str:
        if self.client is None:
            await self.connect()
        await self.refresh_glossary()
        request = SendMessageRequest(
            message=Message(role=Role.ROLE_USER, message_id=uuid4().hex, parts=[Part(text=contract_text)]),
        )
        findings: list[str] = []
        async for response in self.client.send_message(request):  # expect: AC103
            if response.HasField("message"):
                return get_message_text(response.message)
            if response.HasField("artifact_update"):
                findings.extend(part.text for part in response.artifact_update.artifact.parts)
            elif response.HasField("status_update"):
                latest = await self.client.get_extended_agent_card(GetExtendedAgentCardRequest())  # expect: AC101, AC104
                if latest.capabilities.streaming != self.card.capabilities.streaming:
                    raise PeerChanged(f"{self.url} changed its capabilities mid-review")  # expect: AC106
                if response.status_update.status.state == TaskState.TASK_STATE_FAILED:
                    log.error("review failed: %s", get_message_text(response.status_update.status.message))
        return "\n".join(findings)
