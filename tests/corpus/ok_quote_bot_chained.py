"""quote-bot: answers ``/quote TICKER`` chat commands by asking the pricing agent
(a2a-sdk 0.2). Every command opens its own desk: the card is read, checked and
hashed, and only then is the question sent, as a new task."""

import hashlib
import json
from uuid import uuid4

import httpx
from a2a.client import A2AClient
from a2a.types import Message, MessageSendParams, Part, Role, SendMessageRequest, TextPart

PRICING = "https://pricing.internal.example"


def terms_of(card) -> str:
    fields = {"protocolVersion": card.protocol_version, "securitySchemes": card.security_schemes, "security": card.security}
    return hashlib.sha256(json.dumps(fields, sort_keys=True, default=str).encode()).hexdigest()


class PricingDesk:
    def __init__(self, client: A2AClient, terms: str):
        self.client = client
        self.terms = terms

    @classmethod
    async def open(cls, http: httpx.AsyncClient) -> "PricingDesk":
        client = await A2AClient.get_client_from_agent_card_url(http, PRICING)
        if "quotes" not in {skill.id for skill in client.agent_card.skills}:
            raise LookupError("the pricing agent no longer quotes")
        return cls(client, terms_of(client.agent_card))

    async def quote(self, ticker: str):
        message = Message(role=Role.user, message_id=uuid4().hex, parts=[Part(root=TextPart(text=ticker))])
        request = SendMessageRequest(id=uuid4().hex, params=MessageSendParams(message=message, metadata={"terms": self.terms}))
        return await self.client.send_message(request)


async def on_command(http: httpx.AsyncClient, text: str) -> str:
    verb, _, ticker = text.partition(" ")
    if verb != "/quote" or not ticker:
        return "usage: /quote TICKER"
    answer = await (await PricingDesk.open(http)).quote(ticker.upper())
    return str(answer.root.result)

