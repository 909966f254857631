"""Delegate a long report to a peer and wait for it (httpx, sync, raw JSON-RPC).

While waiting, the delegation peeks at the peer's card with If-None-Match and
keeps what it saw in `self.latest`; the poll then asks the endpoint that card
names: the card re-fetched after submission decides where the task is polled.
"""

import hashlib
import json
import time
import uuid

import httpx

CARD_URL = "https://reports.example/.well-known/agent-card.json"


def fingerprint(card: dict) -> str:
    kept = {k: card.get(k) for k in ("protocolVersion", "securitySchemes", "security")}
    return hashlib.sha256(json.dumps(kept, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


class ReportDelegation:
    def __init__(self, http: httpx.Client):
        self.http = http
        first = http.get(CARD_URL)
        first.raise_for_status()
        self.card, self.etag = first.json(), first.headers.get("ETag", "")
        self.latest = None

    def _peek(self) -> None:
        seen = self.http.get(CARD_URL, headers={"If-None-Match": self.etag})  # expect: AC101
        if seen.status_code == 200:
            self.latest = seen.json()
            self.etag = seen.headers.get("ETag", self.etag)

    def run(self, text: str) -> str:
        send = {"jsonrpc": "2.0", "id": uuid.uuid4().hex, "method": "message/send",
                "params": {"message": {"role": "user", "messageId": uuid.uuid4().hex,
                                       "parts": [{"kind": "text", "text": text}]},
                           "metadata": {"contract_hash": fingerprint(self.card)}}}
        task = self.http.post(self.card["url"], json=send).json()["result"]
        for _ in range(120):
            self._peek()
            query = {"jsonrpc": "2.0", "id": uuid.uuid4().hex, "method": "tasks/get", "params": {"id": task["id"]}}
            task = self.http.post((self.latest or self.card)["url"], json=query).json()["result"]
            if task["status"]["state"] in ("completed", "failed", "canceled", "rejected"):
                break
            time.sleep(5)
        return task["status"]["state"]
