"""A generic JSON-RPC 2.0 transport over a requests session."""

from __future__ import annotations

import itertools

import requests

from methods import audit, check


class RpcError(RuntimeError):
    def __init__(self, method: str, error: dict):
        super().__init__(f"{method}: {error.get('code')} {error.get('message')}")
        self.error = error


class JsonRpcTransport:
    def __init__(self, endpoint: str, headers: dict | None = None, session: requests.Session | None = None):
        self.endpoint = endpoint
        self.http = session or requests.Session()
        self.http.headers.update(headers or {})
        self._ids = itertools.count(1)

    def call(self, method: str, params: dict) -> dict:
        check(method, params)
        body = {"jsonrpc": "2.0", "id": next(self._ids), "method": method, "params": params}
        audit(body)
        resp = self.http.post(self.endpoint, json=body, timeout=60)
        resp.raise_for_status()
        reply = resp.json()
        if "error" in reply:
            raise RpcError(method, reply["error"])
        return reply["result"]

    def close(self) -> None:
        self.http.close()
