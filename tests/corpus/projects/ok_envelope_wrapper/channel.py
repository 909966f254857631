"""PeerChannel: the JSON-RPC side of one remote agent (a2a-sdk 0.2 A2AClient)."""

from __future__ import annotations

import hashlib
import json
from uuid import uuid4

import httpx
from a2a.client import A2AClient
from a2a.types import AgentCard, MessageSendParams, SendMessageRequest, SendMessageResponse

CONTRACT_KEYS = ("protocolVersion", "securitySchemes", "security")


def contract_hash(entry: AgentCard) -> str:
    data = entry.model_dump(mode="json", by_alias=True, exclude_none=True)
    blob = json.dumps({k: data.get(k) for k in CONTRACT_KEYS}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class PeerChannel:
    def __init__(self, http: httpx.AsyncClient, entry: AgentCard) -> None:
        self.entry = entry
        self.contract_hash = contract_hash(entry)
        self._client = A2AClient(http, agent_card=entry)

    @property
    def name(self) -> str:
        return self.entry.name

    def summary(self) -> str:
        skills = ", ".join(s.name for s in self.entry.skills)
        return f"- {self.entry.name}: {self.entry.description} (skills: {skills})"

    async def send_message(self, params: MessageSendParams) -> SendMessageResponse:
        request = SendMessageRequest(id=str(uuid4()), params=params)
        return await self._client.send_message(request)
