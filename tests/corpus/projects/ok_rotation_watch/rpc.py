"""Minimal JSON-RPC 2.0 over an httpx client."""

from __future__ import annotations

import itertools

import httpx

_ids = itertools.count(1)


class RpcError(RuntimeError):
    def __init__(self, method: str, error: dict):
        super().__init__(f"{method} -> {error.get('code')}: {error.get('message')}")
        self.error = error


def call(http: httpx.Client, endpoint: str, method: str, params: dict, headers: dict | None = None) -> dict:
    body = {"jsonrpc": "2.0", "id": next(_ids), "method": method, "params": params}
    resp = http.post(endpoint, json=body, headers=headers or {})
    resp.raise_for_status()
    reply = resp.json()
    if reply.get("error"):
        raise RpcError(method, reply["error"])
    return reply["result"]
