"""Posts kanban board changes to a triage agent over raw JSON-RPC (httpx).

A board card changes often; the relay sends one only when its content hash moved
since the last post. ``card`` here is a kanban card, typed as the dict the board's
API returns; the agent's contract is pinned once, from its Agent Card, at start.
"""

from __future__ import annotations

import hashlib
import json

import httpx

from a2a.types import AgentCard


def content_hash(card: dict) -> str:
    """Hash of what a reviewer sees on the board card."""
    seen = {"title": card["title"], "column": card["column"], "labels": card.get("labels", [])}
    return hashlib.sha1(json.dumps(seen).encode()).hexdigest()


def contract_of(agent: AgentCard) -> str:
    terms = {"protocolVersion": agent.protocol_version, "securitySchemes": agent.security_schemes, "security": agent.security}
    return hashlib.sha256(json.dumps(terms, sort_keys=True, separators=(",", ":"), default=str).encode()).hexdigest()


class TriageRelay:
    def __init__(self, http: httpx.Client, agent: AgentCard):
        self.http = http
        self.url = agent.url
        self.contract = contract_of(agent)
        self.posted: dict[str, str] = {}

    def on_board_change(self, card: dict) -> dict | None:
        fresh = content_hash(card)
        if self.posted.get(card["id"]) == fresh:
            return None
        self.posted[card["id"]] = fresh
        message = {"role": "user", "messageId": f"{card['id']}-{fresh[:8]}", "parts": [{"kind": "text", "text": card["title"]}]}
        body = {"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": {"message": message, "metadata": {"contract": self.contract}}}
        return self.http.post(self.url, json=body).json()
