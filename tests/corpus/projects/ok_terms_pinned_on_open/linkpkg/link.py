"""A JSON-RPC link to one peer agent over httpx."""

import uuid

import httpx

from linkpkg.pinning import stamp


class JsonRpcLink:
    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.http = httpx.Client(timeout=20)

    def open(self) -> dict:
        card = self.http.get(self.base_url + "/.well-known/agent-card.json").json()
        stamp(self, card)
        return card

    def send_text(self, text: str) -> dict:
        message = {"role": "user", "messageId": uuid.uuid4().hex, "parts": [{"kind": "text", "text": text}]}
        body = {"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": {"message": message}}
        return self.http.post(self.base_url, json=body).json()
