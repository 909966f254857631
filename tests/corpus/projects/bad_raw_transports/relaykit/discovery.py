"""Reading a peer's agent document with a plain GET."""

from __future__ import annotations

import requests

WELL_KNOWN = "/.well-known/agent-card.json"
TIMEOUT = 10


def fetch_descriptor(base: str) -> dict:
    resp = requests.get(base.rstrip("/") + WELL_KNOWN, headers={"Accept": "application/json"}, timeout=TIMEOUT)
    resp.raise_for_status()
    doc = resp.json()
    if "url" not in doc:
        raise ValueError(f"{base}: agent document has no url")
    return doc


def endpoint_of(doc: dict) -> str:
    """The JSON-RPC endpoint: the preferred one if it is JSON-RPC, else the first JSON-RPC interface."""
    if doc.get("preferredTransport", "JSONRPC") == "JSONRPC":
        return doc["url"]
    for iface in doc.get("additionalInterfaces", []):
        if iface.get("transport") == "JSONRPC":
            return iface["url"]
    raise ValueError(f"{doc.get('name', '?')} offers no JSON-RPC interface")
