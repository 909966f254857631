"""Peer directory for a CrewAI crew that delegates research steps over A2A.

Cards come from crewai's fetch_agent_card and are refreshed on a TTL, with no
validator. The contract digest is taken with json.dumps without sort_keys, so
two processes disagree on it. And when a delegated task asks for input, the
crew re-reads the peer's card and cancels the task if the "clarify" skill is
gone from the newer card.
"""

from __future__ import annotations

import hashlib
import json
import time
from uuid import uuid4

from a2a.client import ClientConfig, ClientFactory
from a2a.types import AgentCard, Message, Part, Role, TaskIdParams, TaskQueryParams, TaskState, TextPart
from crewai.a2a.utils.agent_card import fetch_agent_card

CARD_TTL_S = 300


def contract_digest(card: AgentCard) -> str:
    contract = {
        "protocolVersion": card.protocol_version,
        "securitySchemes": {k: v.model_dump(mode="json") for k, v in (card.security_schemes or {}).items()},
        "security": card.security,
    }
    return hashlib.sha256(json.dumps(contract).encode()).hexdigest()  # expect: AC107


class PeerDirectory:
    def __init__(self, endpoints: dict[str, str]):
        self.endpoints = endpoints
        self.cards: dict[str, AgentCard] = {}
        self.fetched_at: dict[str, float] = {}

    def card(self, name: str) -> AgentCard:
        if name not in self.cards or time.monotonic() - self.fetched_at[name] > CARD_TTL_S:
            self.cards[name] = fetch_agent_card(self.endpoints[name], use_cache=False)  # expect: AC101, AC104
            self.fetched_at[name] = time.monotonic()
        return self.cards[name]


async def delegate(directory: PeerDirectory, name: str, step: str) -> str | None:
    card = directory.card(name)
    digest = contract_digest(card)
    client = ClientFactory(ClientConfig(streaming=False)).create(card)
    message = Message(
        role=Role.user,
        parts=[Part(root=TextPart(text=step))],
        message_id=uuid4().hex,
        metadata={"contract_digest": digest, "crew_step": step[:40]},
    )
    async for event in client.send_message(message):
        if isinstance(event, Message):
            return event.parts[0].root.text
        task, _ = event
        result = await client.get_task(TaskQueryParams(id=task.id))
        if result.status.state == TaskState.input_required:
            fresh = directory.card(name)
            if "clarify" not in [skill.id for skill in fresh.skills]:
                await client.cancel_task(TaskIdParams(id=task.id))  # expect: AC102
                return None
        if result.status.state == TaskState.completed:
            return result.artifacts[0].parts[0].root.text
    return None
