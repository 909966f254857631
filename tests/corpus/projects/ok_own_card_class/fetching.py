"""Reads a peer's published card over plain HTTP."""

from __future__ import annotations

import aiohttp

from cardtypes import PeerCard

CARD_PATH = "/.well-known/agent-card.json"


async def peer_card(session: aiohttp.ClientSession, base: str) -> PeerCard:
    async with session.get(base.rstrip("/") + CARD_PATH) as resp:
        raw = await resp.json()
    return PeerCard(
        name=raw["name"],
        url=raw["url"],
        version=raw.get("version", ""),
        skills=[s["id"] for s in raw.get("skills", [])],
    )
