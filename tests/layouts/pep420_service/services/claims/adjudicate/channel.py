"""The assessor agent's client (a2a-sdk 0.3), made once per process."""

import httpx
from a2a.client import A2ACardResolver, ClientConfig, ClientFactory

_clients = {}


async def assessor(url: str):
    if url not in _clients:
        http = httpx.AsyncClient(timeout=60)
        card = await A2ACardResolver(http, url).get_agent_card()
        _clients[url] = ClientFactory(ClientConfig(httpx_client=http)).create(card)
    return _clients[url]
