"""Reads the terminology agent's card."""

from __future__ import annotations

import aiohttp
from yarl import URL

from glossary.settings import CARD_LOCATION


async def load_profile(session: aiohttp.ClientSession, base: str) -> dict:
    async with session.get(URL(base).join(URL(CARD_LOCATION))) as resp:  # expect: AC101, AC104
        resp.raise_for_status()
        return await resp.json()


def offers(profile: dict) -> set[str]:
    return {skill["id"] for skill in profile.get("skills", [])}
