"""A ready SDK client for a partner agent, built from its published card."""

import httpx
from a2a.client import A2ACardResolver, ClientConfig, ClientFactory


async def open_peer(http: httpx.AsyncClient, base_url: str):
    card = await A2ACardResolver(http, base_url).get_agent_card()
    return ClientFactory(ClientConfig(httpx_client=http, streaming=False)).create(card)
