"""Routes support questions to partner agents kept in a registry (a2a-sdk 1.x).

The registry loads each partner's card once; the router stamps the request's
metadata after building the request, as the 1.x protobuf ``Struct`` wants it
(``update`` or item assignment on ``request.metadata``).

Defect: what the router stamps is the partner's name and the rollout's version,
never a digest of the card's contract, so nothing frozen at send time can tell
later which authorization the task was accepted under.
"""

import hashlib
from uuid import uuid4

import httpx
from a2a.client import A2ACardResolver, Client
from a2a.types import AgentCard, Message, Part, Role, SendMessageRequest


class Registry:
    def __init__(self, http: httpx.AsyncClient):
        self.http = http
        self.cards: dict[str, AgentCard] = {}

    async def admit(self, url: str) -> AgentCard:
        self.cards[url] = await A2ACardResolver(self.http, url).get_agent_card()
        return self.cards[url]


class Router:
    def __init__(self, registry: Registry, client: Client, rollout: str):
        self.registry = registry
        self.client = client
        self.rollout = rollout

    async def ask(self, url: str, question: str) -> list[str]:
        card = self.registry.cards[url]
        request = SendMessageRequest(message=Message(role=Role.ROLE_USER, message_id=uuid4().hex, parts=[Part(text=question)]))
        metadata = request.metadata
        metadata.update({"partner": card.name, "terms": card.version})
        return [str(event) async for event in self.client.send_message(request)]  # expect: AC103

    async def ask_traced(self, url: str, question: str) -> list[str]:
        request = SendMessageRequest(message=Message(role=Role.ROLE_USER, message_id=uuid4().hex, parts=[Part(text=question)]))
        request.metadata["rollout_sha"] = hashlib.sha256(self.rollout.encode()).hexdigest()
        return [str(event) async for event in self.client.send_message(request)]  # expect: AC103
