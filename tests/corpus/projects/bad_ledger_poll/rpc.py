"""JSON-RPC calls to the ledger agent (requests, A2A 0.3 method names)."""

from __future__ import annotations

import hashlib
import json
import uuid

import requests

from auth import headers_for

WELL_KNOWN = "/.well-known/agent-card.json"
TIMEOUT = 15


class RpcError(RuntimeError):
    pass


def contract_digest(meta: dict) -> str:
    terms = {k: meta.get(k) for k in ("protocolVersion", "securitySchemes", "security")}
    blob = json.dumps(terms, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def _call(url: str, headers: dict, method: str, params: dict) -> dict:
    body = {"jsonrpc": "2.0", "id": uuid.uuid4().hex, "method": method, "params": params}
    resp = requests.post(url, json=body, headers=headers, timeout=TIMEOUT)
    resp.raise_for_status()
    reply = resp.json()
    if reply.get("error"):
        raise RpcError(f"{method}: {reply['error'].get('message')}")
    return reply["result"]


def submit(base_url: str, text: str) -> dict:
    meta = requests.get(base_url.rstrip("/") + WELL_KNOWN, timeout=TIMEOUT).json()
    message = {
        "kind": "message",
        "role": "user",
        "messageId": uuid.uuid4().hex,
        "parts": [{"kind": "text", "text": text}],
    }
    params = {"message": message, "metadata": {"contract_digest": contract_digest(meta)}}
    return _call(meta["url"], headers_for(meta), "message/send", params)


def poll(base_url: str, tid: str) -> dict:
    meta = requests.get(base_url.rstrip("/") + WELL_KNOWN, timeout=TIMEOUT).json()  # expect: AC101, AC104
    return _call(meta["url"], headers_for(meta), "tasks/get", {"id": tid, "historyLength": 0})
