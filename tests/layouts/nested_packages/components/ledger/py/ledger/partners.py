"""Where each ledger's settlement partner lives, and how to reach it."""

import httpx
from a2a.client import Client, ClientConfig, ClientFactory

from agentlink import published_card

PARTNERS = {"eu": "https://settle.eu.example.com", "us": "https://settle.us.example.com"}


async def partner_client(http: httpx.AsyncClient, ledger_id: str) -> Client:
    card = await published_card(http, PARTNERS[ledger_id])
    return ClientFactory(ClientConfig(httpx_client=http, streaming=True)).create(card)
