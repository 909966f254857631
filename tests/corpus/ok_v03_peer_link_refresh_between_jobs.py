"""A long-lived link to a summarising peer (a2a-sdk 0.3, streaming), shared by a worker.

Every job() is a new task: it takes no task id and streams its task to the end.
Only then is the card revalidated (If-None-Match), and a newer card replaces the
client the NEXT job() will use; no task is continued through that client.
"""

import hashlib
import json
import logging
import uuid

import httpx
from a2a.client import ClientConfig, ClientFactory
from a2a.types import AgentCard, Message, Part, Role, TextPart

log = logging.getLogger("summaries")


def frozen_contract(card: AgentCard) -> str:
    kept = card.model_dump(mode="json", include={"protocol_version", "security_schemes", "security"})
    return hashlib.sha256(json.dumps(kept, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


class SummaryLink:
    def __init__(self, http: httpx.AsyncClient, card_url: str, card: AgentCard, etag: str):
        self.http, self.card_url, self.etag = http, card_url, etag
        self.contract = frozen_contract(card)
        self.client = ClientFactory(ClientConfig(httpx_client=http)).create(card)

    async def revalidate(self) -> None:
        resp = await self.http.get(self.card_url, headers={"If-None-Match": self.etag})
        if resp.status_code == 200:
            card = AgentCard.model_validate(resp.json())
            self.client = ClientFactory(ClientConfig(httpx_client=self.http)).create(card)
            self.contract, self.etag = frozen_contract(card), resp.headers["ETag"]
            log.info("peer republished its card: version %s", card.version)

    async def job(self, text: str) -> str:
        message = Message(
            role=Role.user,
            message_id=uuid.uuid4().hex,
            parts=[Part(root=TextPart(text=f"summarise: {text}"))],
            metadata={"contract_hash": self.contract},
        )
        summary = ""
        async for event in self.client.send_message(message):
            if isinstance(event, Message):
                summary = " ".join(p.root.text for p in event.parts if isinstance(p.root, TextPart))
        await self.revalidate()
        return summary
