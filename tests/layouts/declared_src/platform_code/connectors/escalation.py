"""The escalation agent (a2a-sdk 0.3)."""

import httpx
from a2a.client import A2ACardResolver, ClientConfig, ClientFactory


async def escalation_desk(url: str):
    http = httpx.AsyncClient()
    card = await A2ACardResolver(http, url).get_agent_card()
    return ClientFactory(ClientConfig(httpx_client=http)).create(card)
