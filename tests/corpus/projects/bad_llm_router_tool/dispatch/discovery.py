"""Finds the remote agents the host can delegate to (a2a-sdk 0.2)."""

from __future__ import annotations

import logging
import os

import httpx
from a2a.client import A2ACardResolver, A2AClientHTTPError, A2AClientJSONError
from a2a.types import AgentCard

log = logging.getLogger(__name__)


def peer_addresses() -> list[str]:
    raw = os.environ.get("REMOTE_AGENTS", "http://localhost:10002,http://localhost:10003")
    return [address.strip() for address in raw.split(",") if address.strip()]


async def discover_peers(addresses: list[str]) -> dict[str, AgentCard]:
    """Read each peer's well-known document once and index it by agent name."""
    found: dict[str, AgentCard] = {}
    async with httpx.AsyncClient(timeout=10) as http:
        for address in addresses:
            try:
                profile = await A2ACardResolver(http, address).get_agent_card()
            except (A2AClientHTTPError, A2AClientJSONError) as exc:
                log.warning("skipping %s: %s", address, exc)
                continue
            found[profile.name] = profile
            log.info("discovered %s at %s", profile.name, profile.url)
    return found
