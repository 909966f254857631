"""Fire-and-forget notifications relayed to a peer agent (requests, raw JSON-RPC, sync).

Each notify() submits a new task and then revalidates the card, replacing the
endpoint; status() polls a task sent earlier at whatever endpoint the re-fetched
card now names, so that card decides where a submitted task is looked up.
"""

import hashlib
import json
import uuid

import requests


def contract_of(card: dict) -> str:
    part = {k: card.get(k) for k in ("protocolVersion", "securitySchemes", "security")}
    return hashlib.sha256(json.dumps(part, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


class NotificationRelay:
    def __init__(self, session: requests.Session, base: str):
        self.session, self.card_url = session, base.rstrip("/") + "/.well-known/agent-card.json"
        first = session.get(self.card_url, timeout=10)
        first.raise_for_status()
        card = first.json()
        self.endpoint, self.contract, self.etag = card["url"], contract_of(card), first.headers.get("ETag", "")

    def _revalidate(self) -> None:
        resp = self.session.get(self.card_url, headers={"If-None-Match": self.etag}, timeout=10)  # expect: AC101
        if resp.status_code != 200:
            return
        card = resp.json()
        self.endpoint, self.contract, self.etag = card["url"], contract_of(card), resp.headers.get("ETag", "")

    def notify(self, text: str) -> str:
        body = {
            "jsonrpc": "2.0",
            "id": uuid.uuid4().hex,
            "method": "message/send",
            "params": {
                "message": {"role": "user", "messageId": uuid.uuid4().hex, "parts": [{"kind": "text", "text": text}]},
                "metadata": {"contract_hash": self.contract},
            },
        }
        state = self.session.post(self.endpoint, json=body, timeout=30).json()["result"]["status"]["state"]
        self._revalidate()
        return state

    def status(self, task_id: str) -> str:
        body = {"jsonrpc": "2.0", "id": uuid.uuid4().hex, "method": "tasks/get", "params": {"id": task_id}}
        return self.session.post(self.endpoint, json=body, timeout=30).json()["result"]["status"]["state"]
