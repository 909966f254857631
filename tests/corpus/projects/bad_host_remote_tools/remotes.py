"""The remote agents the host agent can hand work to."""

from __future__ import annotations

import httpx
from a2a.client import A2ACardResolver, Client, ClientConfig, ClientFactory


class RemoteAgent:
    """One remote agent: where it lives; a client is made for it on demand."""

    def __init__(self, name: str, url: str, http: httpx.AsyncClient) -> None:
        self.name = name
        self.url = url
        self._http = http

    async def async_connect(self) -> Client:
        card = await A2ACardResolver(httpx_client=self._http, base_url=self.url).get_agent_card()  # expect: AC101, AC104
        return ClientFactory(ClientConfig(httpx_client=self._http, streaming=False)).create(card)
