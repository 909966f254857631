"""A partner's published agent card."""

import httpx
from a2a.client import A2ACardResolver
from a2a.types import AgentCard


async def published_card(http: httpx.AsyncClient, base_url: str) -> AgentCard:
    return await A2ACardResolver(httpx_client=http, base_url=base_url).get_agent_card()  # expect: AC101, AC104

