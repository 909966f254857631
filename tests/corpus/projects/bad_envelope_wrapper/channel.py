"""PeerChannel: the JSON-RPC side of one remote agent (a2a-sdk 0.2 A2AClient)."""

from __future__ import annotations

from uuid import uuid4

import httpx
from a2a.client import A2AClient
from a2a.types import AgentCard, MessageSendParams, SendMessageRequest, SendMessageResponse


class PeerChannel:
    def __init__(self, http: httpx.AsyncClient, entry: AgentCard) -> None:
        self.entry = entry
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
