"""Opening the books agent: its resolver, a client bound to its card, and that card."""

from __future__ import annotations

import hashlib
import json
from typing import Tuple

import httpx
from a2a.client import A2ACardResolver, A2AClient
from a2a.types import AgentCard


async def open_peer(http: httpx.AsyncClient, base: str) -> Tuple[A2ACardResolver, A2AClient, AgentCard]:
    resolver = A2ACardResolver(http, base)
    profile = await resolver.get_agent_card()
    return resolver, A2AClient(http, agent_card=profile), profile


def terms_digest(profile: AgentCard) -> str:
    terms = profile.model_dump(mode="json", include={"protocol_version", "security_schemes", "security"})
    return hashlib.sha256(json.dumps(terms, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
