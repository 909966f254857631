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


def open_job(partner: str, brief: str) -> tuple[str, str, str, dict]:
    card = card_of(partner)
    terms = terms_of(card)
    msg = {"kind": "message", "role": "user", "messageId": uuid.uuid4().hex,
           "parts": [{"kind": "text", "text": brief}], "metadata": {"contractHash": terms}}
    body = {"jsonrpc": "2.0", "id": uuid.uuid4().hex, "method": "message/send", "params": {"message": msg}}
    headers = _auth(card)
    reply = requests.post(card["url"], json=body, headers=headers, timeout=30).json()
    return reply["result"]["id"], terms, card["url"], headers


def answer(endpoint: str, headers: dict, job_id: str, text: str, terms: str) -> dict:
    """Answers on the endpoint and with the credentials the job was opened with."""
    msg = {"kind": "message", "role": "user", "messageId": uuid.uuid4().hex, "taskId": job_id,
           "parts": [{"kind": "text", "text": text}], "metadata": {"contractHash": terms}}
    body = {"jsonrpc": "2.0", "id": uuid.uuid4().hex, "method": "message/send", "params": {"message": msg}}
    return requests.post(endpoint, json=body, headers=headers, timeout=30).json()
