"""Relays a document for signature to a partner agent and waits for the signed copy.

Defects (in ``await_signature``): every few polls the partner's card is read
again, and the task is cancelled as soon as one of its contract entries
differs from the card the task was sent under; the wait is given up when its
skills or modes differ.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import uuid

import aiohttp

from partner import call, read_card
from terms import CONTRACT_KEYS, SHAPE_KEYS

DONE = {"completed", "failed", "canceled", "rejected"}


def pin(card: dict) -> str:
    picked = {key: card.get(key) for key in CONTRACT_KEYS}
    return hashlib.sha256(json.dumps(picked, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


async def await_signature(session: aiohttp.ClientSession, base: str, sent_under: dict, ref: str) -> str:
    for turn in range(90):
        status = (await call(session, sent_under["url"], "tasks/get", {"id": ref}))["status"]["state"]
        if status in DONE:
            return status
        if turn % 10 == 9:
            latest = await read_card(session, base)
            moved = [key for key in CONTRACT_KEYS if latest.get(key) != sent_under.get(key)]
            if moved:
                await call(session, sent_under["url"], "tasks/cancel", {"id": ref})  # expect: AC105
                return "canceled"
            if [key for key in SHAPE_KEYS if latest.get(key) != sent_under.get(key)]:
                return "reshaped"  # expect: AC106
        await asyncio.sleep(2)
    return "waiting"


async def relay(base: str, document: str) -> str:
    async with aiohttp.ClientSession() as session:
        card = await read_card(session, base)
        message = {"kind": "message", "role": "user", "messageId": uuid.uuid4().hex,
                   "parts": [{"kind": "text", "text": document}], "metadata": {"pinned": pin(card)}}
        task = await call(session, card["url"], "message/send", {"message": message})
        return await await_signature(session, base, card, task["id"])
