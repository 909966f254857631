"""message/send over aiohttp: the two ways the orchestrator hands text to a peer."""

from __future__ import annotations

import uuid

import aiohttp

from contracts import contract_hash


class DispatchError(RuntimeError):
    pass


def _message(text: str, context_id: str | None = None) -> dict:
    message = {"kind": "message", "role": "user", "messageId": uuid.uuid4().hex, "parts": [{"kind": "text", "text": text}]}
    if context_id:
        message["contextId"] = context_id
    return message


async def _post_send(session: aiohttp.ClientSession, endpoint: str, params: dict) -> dict:
    body = {"jsonrpc": "2.0", "id": uuid.uuid4().hex, "method": "message/send", "params": params}
    async with session.post(endpoint, json=body) as resp:
        resp.raise_for_status()
        reply = await resp.json()
    if "error" in reply:
        raise DispatchError(reply["error"].get("message", "peer refused the message"))
    return reply["result"]


async def delegate(session: aiohttp.ClientSession, profile: dict, text: str, context_id: str | None = None) -> dict:
    """Hand a piece of work to a peer and keep the digest of the terms it was sent under."""
    digest = contract_hash(profile)
    params = {"message": _message(text, context_id), "metadata": {"contract_digest": digest}}
    result = await _post_send(session, profile["url"], params)
    result.setdefault("metadata", {})["contract_digest"] = digest
    return result


async def notify(session: aiohttp.ClientSession, profile: dict, text: str) -> dict:
    """Fire-and-forget heads-up to an observer peer: non-blocking, nothing to follow up."""
    params = {"message": _message(text), "configuration": {"blocking": False, "acceptedOutputModes": ["text/plain"]}}
    return await _post_send(session, profile["url"], params)  # expect: AC103
