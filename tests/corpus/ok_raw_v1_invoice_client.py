"""Invoice-extraction client for an A2A 1.0 agent over raw JSON-RPC (httpx, sync).

The card is cached with its ETag and re-read only with If-None-Match, and only
before a submission: a changed contract aborts before sending. The digest of
the contract goes out with the message; afterwards only GetTask decides, and
a task past its deadline is cancelled.
"""

from __future__ import annotations

import hashlib
import json
import time
import uuid

import httpx

CONTRACT_KEYS = ("supportedInterfaces", "securitySchemes", "securityRequirements")
TERMINAL = {"TASK_STATE_COMPLETED", "TASK_STATE_FAILED", "TASK_STATE_CANCELED", "TASK_STATE_REJECTED"}


class ContractChanged(RuntimeError):
    """The peer's contract differs from the one this job was configured for."""


def contract_hash(card: dict) -> str:
    contract = {key: card.get(key) for key in CONTRACT_KEYS}
    return hashlib.sha256(json.dumps(contract, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


class CardCache:
    def __init__(self, http: httpx.Client, base_url: str):
        self.http = http
        self.url = base_url.rstrip("/") + "/.well-known/agent-card.json"
        self.card: dict | None = None
        self.etag: str | None = None

    def current(self) -> dict:
        headers = {"If-None-Match": self.etag} if self.etag else {}
        response = self.http.get(self.url, headers=headers, timeout=10)
        if response.status_code == 304 and self.card is not None:
            return self.card
        response.raise_for_status()
        self.card, self.etag = response.json(), response.headers.get("ETag")
        return self.card


class InvoiceClient:
    def __init__(self, http: httpx.Client, rpc_url: str, cards: CardCache):
        self.http = http
        self.rpc_url = rpc_url
        self.cards = cards

    def _post(self, body: dict) -> dict:
        reply = self.http.post(self.rpc_url, json=body, headers={"A2A-Version": "1.0"}, timeout=30).json()
        if "error" in reply:
            raise RuntimeError(f"{body['method']}: {reply['error']}")
        return reply["result"]

    def submit(self, pdf_url: str, expected_contract: str) -> str:
        digest = contract_hash(self.cards.current())
        if digest != expected_contract:
            raise ContractChanged(f"peer contract is {digest[:12]}, expected {expected_contract[:12]}; not sending")
        body = {
            "jsonrpc": "2.0",
            "id": str(uuid.uuid4()),
            "method": "SendMessage",
            "params": {
                "message": {"role": "ROLE_USER", "messageId": uuid.uuid4().hex, "parts": [{"url": pdf_url}]},
                "metadata": {"contract_digest": digest},
            },
        }
        return self._post(body)["task"]["id"]

    def wait(self, task_id: str, timeout_s: float = 120.0) -> dict:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            task = self._post({"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": {"id": task_id}})
            if task["status"]["state"] in TERMINAL:
                return task
            time.sleep(1.5)
        return self._post({"jsonrpc": "2.0", "id": 2, "method": "CancelTask", "params": {"id": task_id}})


def extract(pdf_url: str, base_url: str, expected_contract: str) -> dict:
    with httpx.Client() as http:
        client = InvoiceClient(http, base_url.rstrip("/") + "/a2a", CardCache(http, base_url))
        return client.wait(client.submit(pdf_url, expected_contract))
