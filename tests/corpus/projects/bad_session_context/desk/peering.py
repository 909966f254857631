"""``async with PeerSession(url) as client``: an A2A client for one conversation."""

from __future__ import annotations

import httpx
from a2a.client import Client, ClientConfig, ClientFactory
from a2a.types import AgentCard


class PeerSession:
    def __init__(self, url: str, timeout: float = 60.0):
        self.url = url.rstrip("/")
        self.timeout = timeout
        self._http: httpx.AsyncClient | None = None

    async def __aenter__(self) -> Client:
        self._http = httpx.AsyncClient(timeout=self.timeout)
        raw = (await self._http.get(self.url + "/.well-known/agent-card.json")).json()  # expect: AC101
        card = AgentCard.model_validate(raw)
        return ClientFactory(ClientConfig(httpx_client=self._http, streaming=False)).create(card)

    async def __aexit__(self, *exc_info) -> None:
        if self._http is not None:
            await self._http.aclose()
