"""Resumes a paused job on a partner agent (sync requests, JSON-RPC).

The partner's card is modelled by our own dataclass, built straight from the JSON.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import uuid

import requests


@dataclasses.dataclass
class AgentCard:
    name: str
    url: str
    version: str
    securitySchemes: dict = dataclasses.field(default_factory=dict)
    skills: list = dataclasses.field(default_factory=list)


def card_at(base: str) -> AgentCard:
    payload = requests.get(f"{base}/.well-known/agent-card.json", timeout=5).json()  # expect: AC101
    known = {f.name for f in dataclasses.fields(AgentCard)}
    return AgentCard(**{k: v for k, v in payload.items() if k in known})


def open_job(base: str, text: str) -> tuple[str, str]:
    card = card_at(base)
    pinned = hashlib.sha256(json.dumps(card.securitySchemes, sort_keys=True).encode()).hexdigest()
    headers = {"Authorization": "Bearer " + os.environ["PARTNER_TOKEN"]} if card.securitySchemes else {}
    message = {"kind": "message", "role": "user", "messageId": uuid.uuid4().hex,
               "parts": [{"kind": "text", "text": text}], "metadata": {"contract_hash": pinned}}
    body = {"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": {"message": message}}
    return requests.post(card.url, json=body, headers=headers, timeout=30).json()["result"]["id"], pinned


def resume(base: str, job: str, reply: str, pinned: str) -> dict:
    card = card_at(base)
    headers = {"Authorization": "Bearer " + os.environ["PARTNER_TOKEN"]} if card.securitySchemes else {}
    message = {"kind": "message", "role": "user", "messageId": uuid.uuid4().hex, "taskId": job,
               "parts": [{"kind": "text", "text": reply}], "metadata": {"contract_hash": pinned}}
    body = {"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": {"message": message}}
    return requests.post(card.url, json=body, headers=headers, timeout=30).json()
