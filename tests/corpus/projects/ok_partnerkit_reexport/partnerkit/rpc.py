import uuid

import httpx


def call(endpoint: str, method: str, params: dict) -> dict:
    body = {"jsonrpc": "2.0", "id": uuid.uuid4().hex, "method": method, "params": params}
    reply = httpx.post(endpoint, json=body, timeout=30)
    reply.raise_for_status()
    return reply.json()["result"]
