"""Starts a long job on a peer and watches it to the end."""

from __future__ import annotations

import asyncio
import hashlib
import json
import uuid

import aiohttp

from fetching import peer_card

DONE = {"completed", "failed", "canceled", "rejected"}


async def _rpc(session: aiohttp.ClientSession, url: str, method: str, params: dict) -> dict:
    body = {"jsonrpc": "2.0", "id": uuid.uuid4().hex, "method": method, "params": params}
    async with session.post(url, json=body) as resp:
        return (await resp.json())["result"]


async def start(session: aiohttp.ClientSession, base: str, text: str) -> str:
    card = await peer_card(session, base)
    digest = hashlib.sha256(json.dumps({"name": card.name, "version": card.version}, sort_keys=True).encode()).hexdigest()
    msg = {"kind": "message", "role": "user", "messageId": uuid.uuid4().hex,
           "parts": [{"kind": "text", "text": text}], "metadata": {"contract_hash": digest}}
    task = await _rpc(session, card.url, "message/send", {"message": msg})
    return task["id"]


async def watch(session: aiohttp.ClientSession, base: str, task_id: str, wanted: str, rounds: int = 60) -> str:
    for _ in range(rounds):
        card = await peer_card(session, base)
        if wanted not in card.skills:
            await _rpc(session, card.url, "tasks/cancel", {"id": task_id})  # expect: AC102
            return "canceled"
        task = await _rpc(session, card.url, "tasks/get", {"id": task_id})
        if task["status"]["state"] in DONE:
            return task["status"]["state"]
        await asyncio.sleep(10)
    return "timeout"
