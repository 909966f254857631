"""A link to one peer agent. The peer's card is read on first use and kept."""

from __future__ import annotations

import httpx
from a2a.client import A2ACardResolver, Client, ClientConfig, ClientFactory
from a2a.types import AgentCard


class PeerLink:
    def __init__(self, base: str, http: httpx.AsyncClient):
        self.base = base
        self._http = http
        self.__card: AgentCard | None = None
        self.__client: Client | None = None

    async def profile(self) -> AgentCard:
        if self.__card is None:
            self.__card = await A2ACardResolver(self._http, self.base).get_agent_card()  # expect: AC101
        return self.__card

    async def client(self) -> Client:
        if self.__client is None:
            self.__client = ClientFactory(ClientConfig(httpx_client=self._http)).create(await self.profile())
        return self.__client


async def dial(base: str, http: httpx.AsyncClient) -> PeerLink:
    """A ready link: the card is read before the link is handed out."""
    link = PeerLink(base, http)
    await link.profile()
    return link
