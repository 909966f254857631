"""Watches a long-running job on a partner agent over raw JSON-RPC (httpx, sync).

``open_link`` reads the partner's card and hands back a ``Link``: where to post, the
card itself and the digest of its contract, which every message carries.
"""

from __future__ import annotations

import hashlib
import json
import time
import uuid
from typing import NamedTuple

import httpx

TERMINAL = {"completed", "failed", "canceled", "rejected"}


class Link(NamedTuple):
    endpoint: str
    card: dict
    contract: str


def open_link(http: httpx.Client, base: str) -> Link:
    card = http.get(f"{base}/.well-known/agent-card.json", timeout=5).json()
    frozen = {"protocolVersion": card["protocolVersion"], "securitySchemes": card.get("securitySchemes", {}),
              "security": card.get("security", [])}
    digest = hashlib.sha256(json.dumps(frozen, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
    return Link(card["url"], card, digest)


def call(http: httpx.Client, link: Link, method: str, params: dict) -> dict:
    body = {"jsonrpc": "2.0", "id": uuid.uuid4().hex, "method": method, "params": params}
    return http.post(link.endpoint, json=body, timeout=30).json()["result"]


def submit(http: httpx.Client, base: str, text: str) -> str:
    link = open_link(http, base)
    message = {"kind": "message", "role": "user", "messageId": uuid.uuid4().hex,
               "parts": [{"kind": "text", "text": text}], "metadata": {"contract_sha256": link.contract}}
    return call(http, link, "message/send", {"message": message})["id"]


def delegate(http: httpx.Client, base: str, text: str, skill: str) -> str:
    link = open_link(http, base)
    if skill not in {s["id"] for s in link.card.get("skills", [])}:
        raise LookupError(f"{base} does not offer {skill}")
    message = {"kind": "message", "role": "user", "messageId": uuid.uuid4().hex,
               "parts": [{"kind": "text", "text": text}], "metadata": {"contract_sha256": link.contract}}
    task_id = call(http, link, "message/send", {"message": message})["id"]
    return watch(http, link, task_id)


def watch(http: httpx.Client, link: Link, task_id: str) -> str:
    while True:
        task = call(http, link, "tasks/get", {"id": task_id})
        if task["status"]["state"] in TERMINAL:
            return task["status"]["state"]
        time.sleep(5)
