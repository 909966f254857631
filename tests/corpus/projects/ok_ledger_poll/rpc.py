"""JSON-RPC calls to the ledger agent (requests, A2A 0.3 method names).

The agent document is read once, before the batch is sent; the endpoint,
headers and contract digest derived from it are frozen in a Session and
reused for every call about that batch.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from dataclasses import dataclass, field

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


@dataclass(frozen=True)
class Session:
    endpoint: str
    digest: str
    headers: dict = field(default_factory=dict)


def open_session(base_url: str) -> Session:
    meta = requests.get(base_url.rstrip("/") + WELL_KNOWN, timeout=TIMEOUT).json()
    return Session(endpoint=meta["url"], digest=contract_digest(meta), headers=headers_for(meta))


def _call(session: Session, method: str, params: dict) -> dict:
    body = {"jsonrpc": "2.0", "id": uuid.uuid4().hex, "method": method, "params": params}
    resp = requests.post(session.endpoint, json=body, headers=session.headers, timeout=TIMEOUT)
    resp.raise_for_status()
    reply = resp.json()
    if reply.get("error"):
        raise RpcError(f"{method}: {reply['error'].get('message')}")
    return reply["result"]


def submit(session: Session, text: str) -> dict:
    message = {
        "kind": "message",
        "role": "user",
        "messageId": uuid.uuid4().hex,
        "parts": [{"kind": "text", "text": text}],
    }
    params = {"message": message, "metadata": {"contract_digest": session.digest}}
    return _call(session, "message/send", params)


def poll(session: Session, tid: str) -> dict:
    return _call(session, "tasks/get", {"id": tid, "historyLength": 0})
