"""PricingClient: a thin, synchronous httpx wrapper around the pricing agent."""

from __future__ import annotations

from uuid import uuid4

import httpx


class PricingClient:
    def __init__(self, base_url: str, api_key: str | None = None, timeout: float = 20.0):
        self.base_url = base_url.rstrip("/")
        headers = {"X-API-Key": api_key} if api_key else {}
        self._http = httpx.Client(timeout=timeout, headers=headers)

    def get_agent_card(self) -> dict:
        response = self._http.get(f"{self.base_url}/.well-known/agent-card.json")
        response.raise_for_status()
        return response.json()

    def send_message(self, endpoint: str, message: dict) -> dict:
        body = {
            "jsonrpc": "2.0",
            "id": uuid4().hex,
            "method": "message/send",
            "params": {"message": message, "configuration": {"blocking": True}},
        }
        response = self._http.post(endpoint, json=body)
        response.raise_for_status()
        return response.json()

    def close(self) -> None:
        self._http.close()
