"""Peer agent documents: reading them, pinning their terms, comparing what they list."""

from __future__ import annotations

import hashlib
import json
import os

import httpx

WELL_KNOWN = "/.well-known/agent-card.json"
TERMS = ("protocolVersion", "securitySchemes", "security")


class PeerRotated(RuntimeError):
    """The peer now serves different contract terms."""


class PeerRegrouped(RuntimeError):
    """The peer now lists a different set of skills."""


def fetch(http: httpx.Client, base: str) -> dict:
    resp = http.get(base.rstrip("/") + WELL_KNOWN)  # expect: AC101, AC104
    resp.raise_for_status()
    return resp.json()


def terms_digest(doc: dict) -> str:
    terms = {key: doc.get(key) for key in TERMS}
    return hashlib.sha256(json.dumps(terms, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def auth_headers(doc: dict) -> dict:
    token = os.environ.get("PEER_TOKEN")
    wants_bearer = any(s.get("scheme", "").lower() == "bearer" for s in (doc.get("securitySchemes") or {}).values())
    return {"Authorization": f"Bearer {token}"} if wants_bearer and token else {}


def require_same_skills(before: dict, after: dict) -> None:
    old = {s["id"] for s in before.get("skills", [])}
    new = {s["id"] for s in after.get("skills", [])}
    if old != new:
        raise PeerRegrouped(f"{after.get('name')}: skills gone {sorted(old - new)}, new {sorted(new - old)}")  # expect: AC106
