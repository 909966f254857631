"""How two versions of a partner's card differ."""

from __future__ import annotations

import hashlib
import json

from a2a.types import AgentCard
from google.protobuf.json_format import MessageToDict


def skill_names(card: AgentCard) -> set[str]:
    return {skill.id for skill in card.skills}


def outputs_moved(approved: AgentCard, current: AgentCard) -> bool:
    return list(approved.default_output_modes) != list(current.default_output_modes)


def terms_digest(card: AgentCard) -> str:
    published = MessageToDict(card)
    terms = {name: published.get(name) for name in ("supportedInterfaces", "securitySchemes", "securityRequirements")}
    return hashlib.sha256(json.dumps(terms, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
