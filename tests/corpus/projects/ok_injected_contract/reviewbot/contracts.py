"""Canonical digest of an Agent Card's contract fields (A2A 1.x cards are protobuf)."""

from __future__ import annotations

import hashlib
import json

from a2a.types import AgentCard
from google.protobuf.json_format import MessageToDict


def contract_fields(resolved: AgentCard) -> dict:
    """Only what governs authorization: interfaces/versions, schemes, requirements."""
    return {
        "supportedInterfaces": sorted(
            f"{i.protocol_binding}|{i.protocol_version}|{i.url}" for i in resolved.supported_interfaces
        ),
        "securitySchemes": {name: MessageToDict(s) for name, s in resolved.security_schemes.items()},
        "securityRequirements": [MessageToDict(r) for r in resolved.security_requirements],
    }


def contract_hash(resolved: AgentCard) -> str:
    blob = json.dumps(contract_fields(resolved), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()
