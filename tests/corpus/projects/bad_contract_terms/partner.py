"""aiohttp access to one partner agent: its card, and JSON-RPC calls (A2A 0.3 method names)."""

from __future__ import annotations

import uuid

import aiohttp


async def read_card(session: aiohttp.ClientSession, base: str) -> dict:
    async with session.get(f"{base}/.well-known/agent-card.json") as resp:  # expect: AC101, AC104
        resp.raise_for_status()
        return await resp.json()


async def call(session: aiohttp.ClientSession, endpoint: str, method: str, params: dict) -> dict:
    body = {"jsonrpc": "2.0", "id": uuid.uuid4().hex, "method": method, "params": params}
    async with session.post(endpoint, json=body) as resp:
        reply = await resp.json()
    if "error" in reply:
        raise RuntimeError(f"{method}: {reply['error'].get('message')}")
    return reply["result"]
