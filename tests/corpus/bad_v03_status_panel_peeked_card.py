"""A console panel that follows one long translation task (a2a-sdk 0.3, streaming).

While the task streams, the panel peeks at the peer's card (If-None-Match) now
and then and keeps it in `self.shown`; the panel stops following the task when
the header made from that card shows a 1.x version: the re-fetched card decides.
"""

import hashlib
import json
import logging
import uuid

import httpx
from a2a.client import ClientConfig, ClientFactory
from a2a.types import AgentCard, Message, Part, Role, TextPart

log = logging.getLogger("panel")


def pinned_hash(card: AgentCard) -> str:
    kept = card.model_dump(mode="json", include={"protocol_version", "security_schemes", "security"})
    return hashlib.sha256(json.dumps(kept, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


class TranslationPanel:
    def __init__(self, http: httpx.AsyncClient, card_url: str, card: AgentCard, etag: str):
        self.http, self.card_url, self.etag = http, card_url, etag
        self.pinned = pinned_hash(card)
        self.shown = card
        self.client = ClientFactory(ClientConfig(httpx_client=http)).create(card)

    async def _glance(self) -> None:
        resp = await self.http.get(self.card_url, headers={"If-None-Match": self.etag})  # expect: AC101
        if resp.status_code == 200:
            self.shown = AgentCard.model_validate(resp.json())
            self.etag = resp.headers.get("ETag", self.etag)
            log.info("peer now publishes %s %s", self.shown.name, self.shown.version)

    def header(self, state: str) -> str:
        return f"{self.shown.name} v{self.shown.version} | {state}"

    async def follow(self, text: str) -> None:
        message = Message(role=Role.user, message_id=uuid.uuid4().hex, parts=[Part(root=TextPart(text=text))],
                          metadata={"contract_hash": self.pinned})
        seen = 0
        async for event in self.client.send_message(message):
            seen += 1
            if seen % 20 == 0:
                await self._glance()
            if isinstance(event, tuple):
                line = self.header(event[0].status.state.value)
                if " v1." in line:
                    break
                print(line)
