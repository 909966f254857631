"""Connection to one remote agent, as the host agent's tool uses it."""

from __future__ import annotations

import hashlib
import json

import httpx
from a2a.client import A2AClient
from a2a.types import AgentCard, SendMessageRequest, SendMessageResponse


def contract_digest(peer: AgentCard) -> str:
    """sha256 of the canonical JSON of the peer's contract fields."""
    dumped = peer.model_dump(mode="json", by_alias=True, exclude_none=True)
    contract = {key: dumped.get(key) for key in ("protocolVersion", "securitySchemes", "security")}
    return hashlib.sha256(json.dumps(contract, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


class RemoteAgentConnection:
    """Holds the SDK client for one peer; the host keeps one per agent name.

    The contract is frozen when the connection is built from the peer's card,
    and every message sent through it carries that digest.
    """

    def __init__(self, peer: AgentCard, url: str, timeout: float = 60.0):
        self._http = httpx.AsyncClient(timeout=timeout)
        self.agent_client = A2AClient(self._http, agent_card=peer, url=url)
        self.peer = peer
        self.contract_digest = contract_digest(peer)

    def describe(self) -> dict[str, str]:
        return {"name": self.peer.name, "description": self.peer.description}

    async def send_message(self, request: SendMessageRequest) -> SendMessageResponse:
        message = request.params.message
        message.metadata = {**(message.metadata or {}), "contract_digest": self.contract_digest}
        return await self.agent_client.send_message(request)

    async def aclose(self) -> None:
        await self._http.aclose()
