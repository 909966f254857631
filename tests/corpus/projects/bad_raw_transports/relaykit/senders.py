"""Fire-and-forget submissions (alerts, reports) and the internal skill bus."""

from __future__ import annotations

import json
import os
import urllib.request
import uuid

import requests

from .discovery import endpoint_of, fetch_descriptor

JSON_HEADERS = {"Content-Type": "application/json", "Accept": "application/json"}
# Our own skill runner speaks JSON-RPC too and reuses the method name; it is not an A2A agent.
SKILL_BUS = os.environ.get("RELAY_SKILL_BUS", "http://127.0.0.1:8089/internal/skills/rpc")


def _message(parts: list[dict]) -> dict:
    return {"kind": "message", "role": "user", "messageId": uuid.uuid4().hex, "parts": parts}


def post_alert(base: str, text: str) -> dict:
    doc = fetch_descriptor(base)
    payload = {
        "jsonrpc": "2.0",
        "id": uuid.uuid4().hex,
        "method": "message/send",
        "params": {"message": _message([{"kind": "text", "text": text}])},
    }
    headers = dict(JSON_HEADERS)
    if os.environ.get("RELAY_TOKEN"):
        headers["Authorization"] = f"Bearer {os.environ['RELAY_TOKEN']}"
    resp = requests.post(endpoint_of(doc), data=json.dumps(payload), headers=headers, timeout=30)  # expect: AC103
    resp.raise_for_status()
    return resp.json().get("result", {})


def submit_report(base: str, rows: list[dict]) -> dict:
    doc = fetch_descriptor(base)
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "message/send",
        "params": {
            "message": _message([{"kind": "text", "text": "nightly ledger rows"}, {"kind": "data", "data": {"rows": rows}}]),
            "configuration": {"blocking": False},
        },
    }
    url = endpoint_of(doc)
    with urllib.request.urlopen(urllib.request.Request(url, data=json.dumps(body).encode(), method="POST", headers=JSON_HEADERS), timeout=60) as resp:  # expect: AC103
        return json.load(resp).get("result", {})


def run_skill(skill_id: str, payload: dict) -> dict:
    body = {"jsonrpc": "2.0", "id": uuid.uuid4().hex, "method": "message/send", "params": {"skill_id": skill_id, "payload": payload}}
    resp = requests.post(SKILL_BUS, json=body, timeout=15)
    resp.raise_for_status()
    return resp.json()["result"]
