"""RemoteQuoter: turns a shipment into a message/send for the pricing agent."""

from __future__ import annotations

import hashlib
import json
import time
from uuid import uuid4

from .client import PricingClient

CONTRACT_KEYS = ("protocolVersion", "securitySchemes", "security")


class QuoteRefused(RuntimeError):
    """The pricing agent answered with an error or without a quote."""


def contract_digest(doc: dict) -> str:
    contract = {key: doc.get(key) for key in CONTRACT_KEYS}
    return hashlib.sha256(json.dumps(contract, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


class RemoteQuoter:
    def __init__(self, a2a_client: PricingClient, ttl: float = 300.0):
        self.a2a_client = a2a_client
        self.ttl = ttl
        self._cached: tuple[dict, float] | None = None
        self._etag: str | None = None

    def _agent_doc(self) -> dict:
        now = time.monotonic()
        if self._cached and (self._etag is None or now - self._cached[1] < self.ttl):
            return self._cached[0]
        doc, self._etag = self.a2a_client.get_agent_card(etag=self._etag)
        if doc is None and self._cached:
            doc = self._cached[0]
        self._cached = (doc, now)
        return doc

    def quote(self, shipment: dict) -> dict:
        doc = self._agent_doc()
        message = {
            "kind": "message",
            "role": "user",
            "messageId": uuid4().hex,
            "parts": [{"kind": "data", "data": {"shipment": shipment}}],
            "metadata": {"contract_digest": contract_digest(doc)},
        }
        reply = self.a2a_client.send_message(doc["url"], message)
        if "error" in reply:
            raise QuoteRefused(reply["error"].get("message", "unknown error"))
        result = reply["result"]
        if result.get("kind") == "task":
            state = result["status"]["state"]
            if state != "completed":
                raise QuoteRefused(f"task {result['id']} ended {state}")
            parts = [p for a in result.get("artifacts", []) for p in a["parts"]]
        else:
            parts = result.get("parts", [])
        for part in parts:
            if part.get("kind") == "data" and "amount" in part["data"]:
                return part["data"]
        raise QuoteRefused("no quote in the answer")
