"""Thin JSON-RPC link to one peer agent (httpx, A2A 0.3 method names)."""

from __future__ import annotations

import itertools

import httpx

WELL_KNOWN = "/.well-known/agent-card.json"


class RpcFault(RuntimeError):
    def __init__(self, method: str, error: dict):
        super().__init__(f"{method}: {error.get('code')} {error.get('message')}")
        self.code = error.get("code")


class Link:
    def __init__(self, base_url: str, endpoint: str, token: str | None = None):
        self.base_url = base_url.rstrip("/")
        self.endpoint = endpoint
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.http = httpx.Client(timeout=20.0, headers=headers)
        self._ids = itertools.count(1)

    def describe(self) -> dict:
        resp = self.http.get(self.base_url + WELL_KNOWN)  # expect: AC101, AC104
        resp.raise_for_status()
        return resp.json()

    def call(self, method: str, params: dict) -> dict:
        body = {"jsonrpc": "2.0", "id": next(self._ids), "method": method, "params": params}
        reply = self.http.post(self.endpoint, json=body).json()
        if "error" in reply:
            raise RpcFault(method, reply["error"])
        return reply["result"]

    def status(self, remote_id: str) -> dict:
        return self.call("tasks/get", {"id": remote_id, "historyLength": 1})

    def cancel(self, remote_id: str) -> dict:
        return self.call("tasks/cancel", {"id": remote_id})

    def close(self) -> None:
        self.http.close()
