"""Signature check of the partner's agent document (a2a-sdk 0.3 signing helpers, PyJWT)."""

from __future__ import annotations

import logging

from a2a.types import AgentCard
from a2a.utils.signing import SignatureVerificationError, create_signature_verifier
from jwt import PyJWK, PyJWKClient

log = logging.getLogger("ledgersync.trust")

ALGORITHMS = ["ES256", "RS256"]
_jwks: dict[str, PyJWKClient] = {}


def _key(kid: str | None, jku: str | None) -> PyJWK:
    if not jku:
        raise SignatureVerificationError("signature header names no jku")
    client = _jwks.setdefault(jku, PyJWKClient(jku, cache_keys=True))
    return client.get_signing_key(kid) if kid else client.get_signing_keys()[0]


_verify = create_signature_verifier(_key, ALGORITHMS)


def identity_ok(doc: dict) -> bool:
    """True when at least one signature on the held document checks out."""
    try:
        _verify(AgentCard.model_validate(doc))
    except SignatureVerificationError as exc:
        log.warning("partner document %s failed verification: %s", doc.get("name"), exc)
        return False
    return True
