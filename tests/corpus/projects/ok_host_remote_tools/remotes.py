"""The remote agents the host agent can hand work to."""

from __future__ import annotations

import hashlib
import json

import httpx
from a2a.client import A2ACardResolver, Client, ClientConfig, ClientFactory


class RemoteAgent:
    """One remote agent: where it lives; a client is made for it on demand."""

    def __init__(self, name: str, url: str, http: httpx.AsyncClient) -> None:
        self.name = name
        self.url = url
        self._http = http

    async def async_connect(self) -> Client:
        card = await A2ACardResolver(httpx_client=self._http, base_url=self.url).get_agent_card()
        return ClientFactory(ClientConfig(httpx_client=self._http, streaming=False)).create(card)


def contract_hash(card) -> str:
    """What the remote agent promised when the task was sent: its protocol and security terms."""
    terms = {
        "protocolVersion": card.protocol_version,
        "securitySchemes": card.security_schemes,
        "security": card.security,
    }
    return hashlib.sha256(json.dumps(terms, sort_keys=True, default=str).encode()).hexdigest()
