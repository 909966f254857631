"""Resumes a paused job on a partner agent (sync requests, JSON-RPC).

The partner's card is modelled by our own dataclass, built straight from the JSON;
it is read when the job is opened, and the job keeps its endpoint and credentials.
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


@dataclasses.dataclass
class Job:
    id: str
    endpoint: str
    headers: dict
    pinned: str


def card_at(base: str) -> AgentCard:
    payload = requests.get(f"{base}/.well-known/agent-card.json", timeout=5).json()
    known = {f.name for f in dataclasses.fields(AgentCard)}
    return AgentCard(**{k: v for k, v in payload.items() if k in known})


def open_job(base: str, text: str) -> Job:
    card = card_at(base)
    pinned = hashlib.sha256(json.dumps(card.securitySchemes, sort_keys=True).encode()).hexdigest()
    headers = {"Authorization": "Bearer " + os.environ["PARTNER_TOKEN"]} if card.securitySchemes else {}
    message = {"kind": "message", "role": "user", "messageId": uuid.uuid4().hex,
               "parts": [{"kind": "text", "text": text}], "metadata": {"contract_hash": pinned}}
    body = {"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": {"message": message}}
    task = requests.post(card.url, json=body, headers=headers, timeout=30).json()["result"]
    return Job(task["id"], card.url, headers, pinned)


def resume(job: Job, reply: str) -> dict:
    message = {"kind": "message", "role": "user", "messageId": uuid.uuid4().hex, "taskId": job.id,
               "parts": [{"kind": "text", "text": reply}], "metadata": {"contract_hash": job.pinned}}
    body = {"jsonrpc": "2.0", "id": 2, "method": "message/send", "params": {"message": message}}
    return requests.post(job.endpoint, json=body, headers=job.headers, timeout=30).json()
