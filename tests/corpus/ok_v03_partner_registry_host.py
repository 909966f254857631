"""Routing host agent (a2a-sdk 0.3): hands each user turn to the partner agent that owns it.

Partners are registered by name from a directory: the card is resolved, its contract
frozen, and a client built for it, all kept in one ``Partner`` record. A turn that
answers a task waiting for input goes back to the partner that owns the task.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from dataclasses import dataclass, field

import httpx
from a2a.client import A2ACardResolver, ClientConfig, ClientFactory
from a2a.types import AgentCard, Message, Part, Role, TaskState, TextPart


def contract_of(card: AgentCard) -> str:
    contract = {
        "protocolVersion": card.protocol_version,
        "securitySchemes": {k: v.model_dump(mode="json") for k, v in (card.security_schemes or {}).items()},
        "security": card.security or [],
    }
    return hashlib.sha256(json.dumps(contract, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


@dataclass
class Partner:
    card: object
    client: object
    contract: str
    waiting: set = field(default_factory=set)


class RoutingHost:
    def __init__(self, http: httpx.AsyncClient, directory: dict[str, str]) -> None:
        self._http = http
        self._directory = directory
        self._partners: dict[str, Partner] = {}

    async def register(self, name: str) -> None:
        card = await A2ACardResolver(self._http, self._directory[name]).get_agent_card()
        client = ClientFactory(ClientConfig(httpx_client=self._http, streaming=card.capabilities.streaming)).create(card)
        partner = Partner(card, client, contract_of(card))
        self._partners[name] = partner

    async def start(self, name: str, text: str) -> str | None:
        if name not in self._partners:
            await self.register(name)
        partner = self._partners[name]
        message = Message(role=Role.user, message_id=uuid.uuid4().hex, parts=[Part(root=TextPart(text=text))],
                          metadata={"contract_sha256": partner.contract})
        async for event in partner.client.send_message(message):
            if isinstance(event, tuple):
                task, _update = event
                if task.status.state == TaskState.input_required:
                    partner.waiting.add(task.id)
                    return task.id
        return None

    async def answer(self, name: str, task_id: str, text: str) -> list:
        partner = self._partners[name]
        reply = Message(role=Role.user, message_id=uuid.uuid4().hex, task_id=task_id,
                        parts=[Part(root=TextPart(text=text))], metadata={"contract_sha256": partner.contract})
        return [event async for event in partner.client.send_message(reply)]
