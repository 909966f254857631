"""Dispatches translation jobs to the language desk's agent (raw v0.3 JSON-RPC over requests).

The agent's base URL comes from the deployment config; its card is joined onto it
the way the desk's other tools do it, as a path relative to the base.
"""

from __future__ import annotations

import hashlib
import json
import time
import uuid
from urllib.parse import urljoin

import requests

CARD_PATH = ".well-known/agent-card.json"
FINISHED = {"completed", "failed", "canceled", "rejected"}


def fetch_card(http: requests.Session, base_url: str) -> dict:
    r = http.get(urljoin(base_url, CARD_PATH), timeout=10)  # expect: AC101, AC104
    r.raise_for_status()
    return r.json()


def skill_ids(card: dict) -> set[str]:
    return {skill["id"] for skill in card.get("skills", [])}


def contract_digest(card: dict) -> str:
    terms = {"protocolVersion": card["protocolVersion"], "securitySchemes": card.get("securitySchemes"), "security": card.get("security")}
    return hashlib.sha256(json.dumps(terms, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def call(http: requests.Session, endpoint: str, method: str, params: dict) -> dict:
    body = {"jsonrpc": "2.0", "id": uuid.uuid4().hex, "method": method, "params": params}
    reply = http.post(endpoint, json=body, timeout=30).json()
    if "error" in reply:
        raise RuntimeError(f"{method}: {reply['error']['message']}")
    return reply["result"]


def translate(base_url: str, text: str, target: str) -> dict:
    with requests.Session() as http:
        card = fetch_card(http, base_url)
        message = {
            "role": "user",
            "messageId": uuid.uuid4().hex,
            "parts": [{"kind": "text", "text": text}],
            "metadata": {"target": target, "contract_digest": contract_digest(card)},
        }
        job = call(http, card["url"], "message/send", {"message": message})
        for _ in range(90):
            if job["status"]["state"] in FINISHED:
                break
            time.sleep(2)
            offered = skill_ids(fetch_card(http, base_url))
            if "translate" not in offered:
                return call(http, card["url"], "tasks/cancel", {"id": job["id"]})  # expect: AC102
            job = call(http, card["url"], "tasks/get", {"id": job["id"]})
        return job
