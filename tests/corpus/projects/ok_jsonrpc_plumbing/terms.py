"""Reading a peer's agent document and fingerprinting the terms a message is sent under."""

from __future__ import annotations

import hashlib
import json
import os
from urllib.parse import urljoin

import requests

WELL_KNOWN = "/.well-known/agent-card.json"
TERM_KEYS = ("protocolVersion", "securitySchemes", "security", "securityRequirements")
PIN_KEY = "contract_fingerprint"


def fetch_doc(base: str) -> dict:
    resp = requests.get(urljoin(base, WELL_KNOWN), timeout=10)
    resp.raise_for_status()
    return resp.json()


def fingerprint(doc: dict) -> str:
    """sha256 of the canonical JSON of the contract terms (0.3 and 1.0 spellings)."""
    terms = {key: doc[key] for key in TERM_KEYS if key in doc}
    versions = sorted({i["protocolVersion"] for i in doc.get("supportedInterfaces", []) if "protocolVersion" in i})
    if versions:
        terms["supportedInterfaces.protocolVersion"] = versions
    blob = json.dumps(terms, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def rest_base(doc: dict) -> str | None:
    for iface in doc.get("supportedInterfaces", []):
        if iface.get("protocolBinding") == "HTTP+JSON":
            return iface["url"]
    return None


def bearer(doc: dict) -> dict[str, str]:
    token = os.environ.get("A2A_TOKEN")
    return {"Authorization": f"Bearer {token}"} if token and doc.get("securitySchemes") else {}
