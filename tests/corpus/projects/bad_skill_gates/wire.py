"""Blocking JSON-RPC plumbing (requests) for the back-office agents."""

from __future__ import annotations

import itertools

import requests

_ids = itertools.count(1)


def agent_doc(base: str) -> dict:
    return requests.get(f"{base}/.well-known/agent-card.json", timeout=10).json()  # expect: AC101


def rpc(endpoint: str, method: str, params: dict) -> dict:
    reply = requests.post(endpoint, json={"jsonrpc": "2.0", "id": next(_ids), "method": method, "params": params}, timeout=30).json()
    if "error" in reply:
        raise RuntimeError(reply["error"].get("message", method))
    return reply["result"]
