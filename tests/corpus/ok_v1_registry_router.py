"""Routes support questions to partner agents kept in a registry (a2a-sdk 1.x).

The registry loads each partner's card once and keeps the canonical digest of its
contract next to it; the router stamps that digest into each request's metadata
after building the request, as the 1.x protobuf ``Struct`` wants it (``update``
or item assignment on ``request.metadata``). Pins handed over by the operator's
rollout file are stamped the same way.
"""

import hashlib
import json
from uuid import uuid4

import httpx
from a2a.client import A2ACardResolver, Client
from a2a.types import AgentCard, Message, Part, Role, SendMessageRequest
from google.protobuf.json_format import MessageToDict


def contract_of(card: AgentCard) -> str:
    published = MessageToDict(card)
    terms = {k: published.get(k) for k in ("supportedInterfaces", "securitySchemes", "securityRequirements")}
    return hashlib.sha256(json.dumps(terms, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


class Registry:
    def __init__(self, http: httpx.AsyncClient):
        self.http = http
        self.cards: dict[str, AgentCard] = {}
        self.contracts: dict[str, str] = {}

    async def admit(self, url: str) -> AgentCard:
        card = await A2ACardResolver(self.http, url).get_agent_card()
        self.cards[url], self.contracts[url] = card, contract_of(card)
        return card


class Router:
    def __init__(self, registry: Registry, client: Client, rollout_pins: dict[str, str]):
        self.registry = registry
        self.client = client
        self.rollout_pins = rollout_pins

    async def route(self, url: str, question: str) -> list[str]:
        if url not in self.registry.cards:
            await self.registry.admit(url)
        return await self.ask(url, question, self.registry.contracts[url])

    async def ask(self, url: str, question: str, terms: str) -> list[str]:
        card = self.registry.cards[url]
        request = SendMessageRequest(message=Message(role=Role.ROLE_USER, message_id=uuid4().hex, parts=[Part(text=question)]))
        metadata = request.metadata
        metadata.update({"partner": card.name, "terms": terms})
        return [str(event) async for event in self.client.send_message(request)]

    async def ask_pinned(self, url: str, question: str) -> list[str]:
        request = SendMessageRequest(message=Message(role=Role.ROLE_USER, message_id=uuid4().hex, parts=[Part(text=question)]))
        request.metadata.update({"contract_digest": self.rollout_pins[url]})
        return [str(event) async for event in self.client.send_message(request)]
