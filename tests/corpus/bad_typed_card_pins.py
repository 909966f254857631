"""Pins each partner's contract for the audit log (a2a-sdk 0.3 and raw JSON cards).

The nightly audit reads every partner's card (through the SDK for partners on
0.3, as raw JSON for the rest) and writes one pin a partner; a pin that moved
since last night is flagged for review.

Defects: the pins hash the whole card, or dump the contract without sorted keys,
so an equal contract pins differently from one run or one peer to the next.
"""

import hashlib
import json
import logging

from a2a.types import AgentCard

log = logging.getLogger("audit.pins")


def pin_card(card: AgentCard) -> str:
    return hashlib.sha256(json.dumps(card.model_dump()).encode()).hexdigest()  # expect: AC107


def pin_quoted(card: "AgentCard") -> str:
    blob = json.dumps(card.model_dump(mode="json"), sort_keys=True)  # expect: AC107
    return hashlib.sha256(blob.encode()).hexdigest()


def pin_published(card: dict) -> str:
    """``card`` is the JSON the partner publishes at /.well-known/agent-card.json."""
    terms = {"protocolVersion": card.get("protocolVersion"), "securitySchemes": card.get("securitySchemes", {})}
    return hashlib.sha256(json.dumps(terms).encode()).hexdigest()  # expect: AC107


def audit(last_night: dict[str, str], pins: dict[str, str]) -> list[str]:
    """The partners whose pin moved since last night."""
    moved = sorted(name for name, pin in pins.items() if last_night.get(name) not in (None, pin))
    for name in moved:
        log.warning("contract pin of %s moved: %s -> %s", name, last_night[name], pins[name])
    return moved


def write(path: str, pins: dict[str, str]) -> None:
    with open(path, "w", encoding="utf-8") as out:
        json.dump(pins, out, indent=2, sort_keys=True)
