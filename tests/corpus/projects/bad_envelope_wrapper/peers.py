"""Start-up discovery: each configured peer's agent card is read once."""

from __future__ import annotations

import asyncio
import logging
import os

import httpx
from a2a.client import A2ACardResolver, A2AClientError
from a2a.types import AgentCard

logger = logging.getLogger("concierge.peers")


def configured_urls() -> list[str]:
    raw = os.getenv("CONCIERGE_PEERS", "http://localhost:10101,http://localhost:10102,http://localhost:10103")
    return [u.strip().rstrip("/") for u in raw.split(",") if u.strip()]


async def _one(http: httpx.AsyncClient, url: str) -> AgentCard | None:
    try:
        return await A2ACardResolver(http, url).get_agent_card()
    except A2AClientError as err:
        logger.warning("peer %s unavailable: %s", url, err)
        return None


async def discover(http: httpx.AsyncClient, urls: list[str]) -> list[AgentCard]:
    found = await asyncio.gather(*(_one(http, url) for url in urls))
    entries = [entry for entry in found if entry is not None]
    logger.info("concierge can reach: %s", ", ".join(e.name for e in entries) or "nobody")
    return entries
