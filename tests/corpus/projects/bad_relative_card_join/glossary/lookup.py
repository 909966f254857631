"""Asks the terminology agent to check a document against the glossary (JSON-RPC over aiohttp)."""

from __future__ import annotations

import hashlib
import json
import uuid

import aiohttp

from glossary.discovery import load_profile, offers
from glossary.settings import AGENT_BASE

DONE = ("completed", "failed", "canceled", "rejected")


def terms_digest(profile: dict) -> str:
    terms = {"protocolVersion": profile["protocolVersion"], "securitySchemes": profile.get("securitySchemes"), "security": profile.get("security")}
    return hashlib.sha256(json.dumps(terms, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


async def _rpc(session: aiohttp.ClientSession, url: str, method: str, params: dict) -> dict:
    envelope = {"jsonrpc": "2.0", "id": uuid.uuid4().hex, "method": method, "params": params}
    async with session.post(url, json=envelope) as resp:
        return (await resp.json())["result"]


async def check_document(text: str) -> dict:
    async with aiohttp.ClientSession() as session:
        profile = await load_profile(session, AGENT_BASE)
        message = {
            "role": "user",
            "messageId": uuid.uuid4().hex,
            "parts": [{"kind": "text", "text": text}],
            "metadata": {"contract_digest": terms_digest(profile)},
        }
        task = await _rpc(session, profile["url"], "message/send", {"message": message})
        for _ in range(60):
            if task["status"]["state"] in DONE:
                break
            if "glossary-check" not in offers(await load_profile(session, AGENT_BASE)):
                return await _rpc(session, profile["url"], "tasks/cancel", {"id": task["id"]})  # expect: AC102
            task = await _rpc(session, profile["url"], "tasks/get", {"id": task["id"]})
        return task
