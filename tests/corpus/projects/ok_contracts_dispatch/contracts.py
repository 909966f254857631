"""Contract terms of a peer agent document, and the digest the dispatcher pins them with."""

from __future__ import annotations

import hashlib
import json

CONTRACT_KEYS = ("protocolVersion", "securitySchemes", "security")


def terms_of(profile: dict) -> dict:
    """Only the fields that say under which authorization a delegation is accepted."""
    terms = {key: profile.get(key) for key in CONTRACT_KEYS if key in profile}
    versions = sorted({i.get("protocolVersion") for i in profile.get("supportedInterfaces", []) if i.get("protocolVersion")})
    if versions:
        terms["interfaceVersions"] = versions
    return terms


def contract_hash(profile: dict) -> str:
    blob = json.dumps(terms_of(profile), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def same_terms(profile: dict, digest: str) -> bool:
    return contract_hash(profile) == digest
