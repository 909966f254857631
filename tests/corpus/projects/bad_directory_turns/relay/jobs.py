"""Opening jobs with partners, and answering what they ask while they work."""

from __future__ import annotations

import hashlib
import json
import os
import uuid

import requests

from relay.cards import card_of

TERMS = ("protocolVersion", "securitySchemes", "security")


def terms_of(card: dict) -> str:
    blob = json.dumps({k: card.get(k) for k in TERMS}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()


def _auth(card: dict) -> dict:
    if "oauth" in (card.get("securitySchemes") or {}):
        return {"Authorization": "Bearer " + os.environ["RELAY_OAUTH_TOKEN"]}
    return {"X-Relay-Key": os.environ["RELAY_KEY"]}


def open_job(partner: str, brief: str) -> tuple[str, str]:
    card = card_of(partner)
    terms = terms_of(card)
    msg = {"kind": "message", "role": "user", "messageId": uuid.uuid4().hex,
           "parts": [{"kind": "text", "text": brief}], "metadata": {"contractHash": terms}}
    body = {"jsonrpc": "2.0", "id": uuid.uuid4().hex, "method": "message/send", "params": {"message": msg}}
    reply = requests.post(card["url"], json=body, headers=_auth(card), timeout=30).json()
    return reply["result"]["id"], terms


def answer(partner: str, job_id: str, text: str, terms: str) -> dict:
    card = card_of(partner)
    msg = {"kind": "message", "role": "user", "messageId": uuid.uuid4().hex, "taskId": job_id,
           "parts": [{"kind": "text", "text": text}], "metadata": {"contractHash": terms}}
    body = {"jsonrpc": "2.0", "id": uuid.uuid4().hex, "method": "message/send", "params": {"message": msg}}
    return requests.post(card["url"], json=body, headers=_auth(card), timeout=30).json()
