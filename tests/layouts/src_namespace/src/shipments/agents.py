"""The customs broker agent: its card, and JSON-RPC calls to it (A2A 0.3, plain requests)."""

import uuid

import requests

CARD_PATH = "/.well-known/agent-card.json"


def broker_card(base: str) -> dict:
    return requests.get(base.rstrip("/") + CARD_PATH, timeout=10).json()  # expect: AC101


def rpc(url: str, method: str, params: dict) -> dict:
    body = {"jsonrpc": "2.0", "id": uuid.uuid4().hex, "method": method, "params": params}
    reply = requests.post(url, json=body, timeout=30).json()
    return reply.get("result", {})
