"""Posts jobs to one peer agent over plain JSON-RPC and remembers what it agreed to.

The fingerprint covers only the contract terms, as canonical JSON, so a peer
that reorders or renames a skill keeps the same fingerprint.
"""

import uuid

import requests

from toolbox import fingerprint, now_ms


class Worker:
    def __init__(self, base: str):
        self.base = base.rstrip("/")
        self.meta = requests.get(self.base + "/.well-known/agent-card.json", timeout=10).json()
        self.fp = fingerprint(self.meta)

    def post(self, text: str) -> dict:
        body = {
            "jsonrpc": "2.0",
            "id": str(uuid.uuid4()),
            "method": "message/send",
            "params": {
                "message": {"role": "user", "messageId": uuid.uuid4().hex, "parts": [{"kind": "text", "text": text}]},
                "metadata": {"contractHash": self.fp, "sentAt": now_ms()},
            },
        }
        reply = requests.post(self.meta["url"], json=body, timeout=30).json()
        return reply["result"]
