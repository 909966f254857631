"""Typed JSON-RPC requests for the conversational side of relay (pydantic v2)."""

from __future__ import annotations

import uuid
from typing import Any, Literal

import requests
from pydantic import BaseModel, Field


class RpcFault(RuntimeError):
    def __init__(self, error: dict) -> None:
        super().__init__(f"{error.get('code')}: {error.get('message')}")
        self.error = error


class TextPart(BaseModel):
    kind: Literal["text"] = "text"
    text: str


class Envelope(BaseModel):
    kind: Literal["message"] = "message"
    role: Literal["user"] = "user"
    messageId: str = Field(default_factory=lambda: uuid.uuid4().hex)
    parts: list[TextPart]
    contextId: str | None = None
    metadata: dict[str, Any] | None = None


class SendParams(BaseModel):
    message: Envelope


class SendRequest(BaseModel):
    jsonrpc: Literal["2.0"] = "2.0"
    id: str = Field(default_factory=lambda: uuid.uuid4().hex)
    method: Literal["message/send"] = "message/send"
    params: SendParams


class RpcChannel:
    def __init__(self, url: str, digest: str, http: requests.Session | None = None) -> None:
        self.url = url
        self.digest = digest
        self._http = http or requests.Session()
        self._http.headers.update({"Content-Type": "application/json"})
        self.context: str | None = None

    def _post(self, request: BaseModel) -> dict:
        resp = self._http.post(self.url, json=request.model_dump(exclude_none=True), timeout=60)
        resp.raise_for_status()
        reply = resp.json()
        if "error" in reply:
            raise RpcFault(reply["error"])
        return reply["result"]

    def ask(self, text: str) -> dict:
        message = Envelope(parts=[TextPart(text=text)], contextId=self.context, metadata={"contract_digest": self.digest})
        request = SendRequest(params=SendParams(message=message))
        result = self._post(request)
        self.context = result.get("contextId", self.context)
        return result
