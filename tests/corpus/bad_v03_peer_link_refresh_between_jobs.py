"""A long-lived link to a summarising peer (a2a-sdk 0.3, streaming), shared by a worker.

job() streams a task to its end and then revalidates the card; a newer card
replaces the client. But follow_up() answers a task that asked for input through
that same client: the card re-fetched after submission decides how it goes on.
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
        resp = await self.http.get(self.card_url, headers={"If-None-Match": self.etag})  # expect: AC101
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

    async def follow_up(self, task_id: str, answer: str) -> None:
        reply = Message(role=Role.user, message_id=uuid.uuid4().hex, task_id=task_id,
                        parts=[Part(root=TextPart(text=answer))], metadata={"contract_hash": self.contract})
        async for event in self.client.send_message(reply):
            log.debug("follow-up event %s", event)
