"""Relays a document for signature to a partner agent and waits for the signed copy.

The partner's card is read once, before sending: when one of its contract
entries differs from the card approved at onboarding, nothing is sent. While
the task runs only its own status is read.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import uuid

import aiohttp

from partner import call, read_card
from terms import CONTRACT_KEYS, SHAPE_KEYS

log = logging.getLogger("relay")

DONE = {"completed", "failed", "canceled", "rejected"}


class ContractMoved(RuntimeError):
    pass


def pin(card: dict) -> str:
    picked = {key: card.get(key) for key in CONTRACT_KEYS}
    return hashlib.sha256(json.dumps(picked, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


async def await_signature(session: aiohttp.ClientSession, endpoint: str, ref: str) -> str:
    for _turn in range(90):
        status = (await call(session, endpoint, "tasks/get", {"id": ref}))["status"]["state"]
        if status in DONE:
            return status
        await asyncio.sleep(2)
    return "waiting"


async def relay(base: str, document: str, approved: dict) -> str:
    async with aiohttp.ClientSession() as session:
        card = await read_card(session, base)
        moved = [key for key in CONTRACT_KEYS if card.get(key) != approved.get(key)]
        if moved:
            raise ContractMoved(f"{base} changed {', '.join(moved)} since onboarding")
        if any(card.get(key) != approved.get(key) for key in SHAPE_KEYS):
            log.info("%s reshaped its skills or modes since onboarding", base)
        message = {"kind": "message", "role": "user", "messageId": uuid.uuid4().hex,
                   "parts": [{"kind": "text", "text": document}], "metadata": {"pinned": pin(card)}}
        task = await call(session, card["url"], "message/send", {"message": message})
        return await await_signature(session, card["url"], task["id"])
