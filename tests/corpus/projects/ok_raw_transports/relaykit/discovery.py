"""Reading a peer's agent document with a plain GET."""

from __future__ import annotations

import hashlib
import json

import requests

WELL_KNOWN = "/.well-known/agent-card.json"
TIMEOUT = 10
TERMS = ("protocolVersion", "securitySchemes", "security")
DIGEST_KEY = "contract_digest"


def fetch_descriptor(base: str) -> dict:
    resp = requests.get(base.rstrip("/") + WELL_KNOWN, headers={"Accept": "application/json"}, timeout=TIMEOUT)
    resp.raise_for_status()
    doc = resp.json()
    if "url" not in doc:
        raise ValueError(f"{base}: agent document has no url")
    return doc


def terms_digest(doc: dict) -> str:
    """sha256 of the canonical JSON of the document's contract terms only."""
    terms = {key: doc[key] for key in TERMS if key in doc}
    return hashlib.sha256(json.dumps(terms, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def endpoint_of(doc: dict) -> str:
    """The JSON-RPC endpoint: the preferred one if it is JSON-RPC, else the first JSON-RPC interface."""
    if doc.get("preferredTransport", "JSONRPC") == "JSONRPC":
        return doc["url"]
    for iface in doc.get("additionalInterfaces", []):
        if iface.get("transport") == "JSONRPC":
            return iface["url"]
    raise ValueError(f"{doc.get('name', '?')} offers no JSON-RPC interface")
