"""The booking agent, reached over A2A (a2a-sdk 0.3)."""

import httpx
from a2a.client import A2ACardResolver, ClientConfig, ClientFactory


async def booking_agent(url: str):
    http = httpx.AsyncClient()
    card = await A2ACardResolver(httpx_client=http, base_url=url).get_agent_card()
    return ClientFactory(ClientConfig(httpx_client=http)).create(card)
