"""Clients for partner agents (a2a-sdk 0.2)."""

import hashlib
import json

import httpx
from a2a.client import A2AClient


def terms_digest(card) -> str:
    terms = {"protocolVersion": card.protocolVersion, "security": card.security, "securitySchemes": card.securitySchemes}
    return hashlib.sha256(json.dumps(terms, sort_keys=True, default=str).encode()).hexdigest()


class Partner:
    """One partner agent: its card, read once, and a client made from it."""

    def __init__(self, http: httpx.AsyncClient, card) -> None:
        self.card = card
        self.client = A2AClient(httpx_client=http, agent_card=card)

    @classmethod
    async def connect(cls, http: httpx.AsyncClient, url: str) -> "Partner":
        client = await A2AClient.get_client_from_agent_card_url(http, url)
        return cls(http, client.agent_card)
