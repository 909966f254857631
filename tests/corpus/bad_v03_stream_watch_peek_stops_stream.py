"""Stream a data-cleaning task from a peer and print its progress (a2a-sdk 0.3).

Every tenth event the watcher peeks at the peer's card (If-None-Match) and keeps
the newest one in `self._peeked`; the stream is abandoned when that card drops
streaming: a card re-fetched while the task runs decides how it is followed.
"""

import hashlib
import json
import uuid

import httpx
from a2a.client import ClientConfig, ClientFactory
from a2a.types import AgentCard, Message, Part, Role, TextPart

CARD_PATH = "/.well-known/agent-card.json"


def contract_key(card: AgentCard) -> str:
    fields = card.model_dump(mode="json", include={"protocol_version", "security_schemes", "security"})
    return hashlib.sha256(json.dumps(fields, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


class CleaningWatch:
    def __init__(self, http: httpx.AsyncClient, base: str, card: AgentCard, etag: str):
        self.http, self.base, self.etag = http, base, etag
        self.key = contract_key(card)
        self.client = ClientFactory(ClientConfig(httpx_client=http, streaming=True)).create(card)
        self._peeked: AgentCard | None = None

    async def _peek(self) -> None:
        resp = await self.http.get(self.base + CARD_PATH, headers={"If-None-Match": self.etag})  # expect: AC101
        if resp.status_code == 200:
            self._peeked = AgentCard.model_validate(resp.json())
            self.etag = resp.headers.get("ETag", self.etag)

    async def clean(self, dataset: str) -> int:
        message = Message(
            role=Role.user,
            message_id=uuid.uuid4().hex,
            parts=[Part(root=TextPart(text=f"clean {dataset}"))],
            metadata={"contract_hash": self.key},
        )
        events = 0
        async for event in self.client.send_message(message):
            events += 1
            if events % 10 == 0:
                await self._peek()
                if self._peeked is not None and not self._peeked.capabilities.streaming:
                    break
            print(f"{dataset}: event {events}: {type(event).__name__}")
        return events
