"""Concierge root agent delegating to remote specialists through google-adk.

Each specialist's card is resolved once, when the agent tree is built, and
handed to RemoteA2aAgent as an AgentCard object (so ADK never re-resolves it).
The contract digest of that card rides on every request ADK sends, through
the request-metadata provider. The audit specialist's card ships with the
deployment as a local file.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Callable

import httpx
from a2a.client import A2ACardResolver
from a2a.types import AgentCard
from google.adk.agents import LlmAgent
from google.adk.agents.remote_a2a_agent import RemoteA2aAgent

SPECIALISTS = {
    "billing": "https://billing.agents.internal",
    "shipping": "https://shipping.agents.internal",
    "returns": "https://returns.agents.internal",
}
AUDIT_CARD_FILE = "deploy/cards/audit-agent.json"


CONTRACT_FIELDS = {"protocol_version", "security_schemes", "security"}


def contract_hash(card: AgentCard) -> str:
    """sha256 of the canonical JSON of the contract fields (pydantic picks them with include=)."""
    contract = card.model_dump(mode="json", include=CONTRACT_FIELDS, exclude_none=True)
    return hashlib.sha256(json.dumps(contract, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def pin_contract(digest: str) -> Callable[[Any, Any], dict[str, Any]]:
    def provider(ctx: Any, message: Any) -> dict[str, Any]:
        return {"contract_digest": digest, "invocation": ctx.invocation_id}

    return provider


async def build_concierge(http: httpx.AsyncClient) -> LlmAgent:
    remotes = []
    for name, base_url in SPECIALISTS.items():
        card = await A2ACardResolver(http, base_url).get_agent_card()
        remotes.append(
            RemoteA2aAgent(
                name=f"{name}_specialist",
                agent_card=card,
                description=card.description,
                httpx_client=http,
                a2a_request_meta_provider=pin_contract(contract_hash(card)),
            )
        )
    remotes.append(RemoteA2aAgent(name="audit_specialist", agent_card=AUDIT_CARD_FILE, httpx_client=http))
    return LlmAgent(
        name="concierge",
        model="gemini-2.5-flash",
        instruction="Route each customer request to the one specialist whose description fits it best.",
        sub_agents=remotes,
    )
