"""PeerClient: the ops platform's handle on one remote A2A agent (a2a-sdk 0.3)."""

from __future__ import annotations

import logging

import httpx
from a2a.client import A2ACardResolver, ClientConfig, ClientFactory
from a2a.types import AgentCard, Message, TransportProtocol

from acme_ops.platform.clients.a2a.strategies import SyncStrategy

log = logging.getLogger("acme_ops.a2a")


class PeerNotConnected(RuntimeError):
    """send_message() was called before connect()."""


class PeerClient:
    def __init__(self, base_url: str, *, token: str | None = None, timeout: float = 45.0) -> None:
        self.base_url = base_url.rstrip("/")
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self._http = httpx.AsyncClient(timeout=timeout, headers=headers)
        self._strategy: SyncStrategy | None = None
        self.descriptor: AgentCard | None = None

    async def connect(self) -> None:
        resolver = A2ACardResolver(self._http, self.base_url)
        self.descriptor = await resolver.get_agent_card()
        config = ClientConfig(
            httpx_client=self._http,
            streaming=False,
            supported_transports=[TransportProtocol.jsonrpc, TransportProtocol.http_json],
        )
        self._strategy = SyncStrategy(ClientFactory(config).create(self.descriptor))
        log.info("connected to %s (%s)", self.descriptor.name, self.descriptor.version)

    async def send_message(self, message: Message):
        if self._strategy is None:
            raise PeerNotConnected(self.base_url)
        return await self._strategy.execute(message)

    async def close(self) -> None:
        if self._strategy is not None:
            await self._strategy.close()
        await self._http.aclose()
