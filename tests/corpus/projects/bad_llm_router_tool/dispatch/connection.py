"""Connection to one remote agent, as the host agent's tool uses it."""

from __future__ import annotations

import httpx
from a2a.client import A2AClient
from a2a.types import AgentCard, SendMessageRequest, SendMessageResponse


class RemoteAgentConnection:
    """Holds the SDK client for one peer; the host keeps one per agent name."""

    def __init__(self, peer: AgentCard, url: str, timeout: float = 60.0):
        self._http = httpx.AsyncClient(timeout=timeout)
        self.agent_client = A2AClient(self._http, agent_card=peer, url=url)
        self.peer = peer

    def describe(self) -> dict[str, str]:
        return {"name": self.peer.name, "description": self.peer.description}

    async def send_message(self, request: SendMessageRequest) -> SendMessageResponse:
        return await self.agent_client.send_message(request)

    async def aclose(self) -> None:
        await self._http.aclose()
