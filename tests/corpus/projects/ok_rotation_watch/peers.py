"""Peer agent documents: a pinned book of them, conditional re-reads, their terms and skills."""

from __future__ import annotations

import hashlib
import json
import os

import httpx

WELL_KNOWN = "/.well-known/agent-card.json"
TERMS = ("protocolVersion", "securitySchemes", "security")


def revalidate(http: httpx.Client, base: str, etag: str | None) -> tuple[dict | None, str | None]:
    """(document, etag); (None, etag) when the peer answers 304 Not Modified."""
    headers = {"If-None-Match": etag} if etag else {}
    resp = http.get(base.rstrip("/") + WELL_KNOWN, headers=headers)
    if resp.status_code == 304:
        return None, etag
    resp.raise_for_status()
    return resp.json(), resp.headers.get("ETag")


def terms_digest(doc: dict) -> str:
    terms = {key: doc.get(key) for key in TERMS}
    return hashlib.sha256(json.dumps(terms, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def auth_headers(doc: dict) -> dict:
    token = os.environ.get("PEER_TOKEN")
    wants_bearer = any(s.get("scheme", "").lower() == "bearer" for s in (doc.get("securitySchemes") or {}).values())
    return {"Authorization": f"Bearer {token}"} if wants_bearer and token else {}


def skill_drift(before: dict, after: dict) -> tuple[list[str], list[str]]:
    old = {s["id"] for s in before.get("skills", [])}
    new = {s["id"] for s in after.get("skills", [])}
    return sorted(old - new), sorted(new - old)


class PeerBook:
    """Documents pinned on earlier runs, with the ETag each was served with."""

    def __init__(self, path: str):
        self.path = path
        try:
            with open(path, encoding="utf-8") as fh:
                self.entries: dict[str, dict] = json.load(fh)
        except FileNotFoundError:
            self.entries = {}

    def get(self, base: str) -> dict | None:
        return self.entries.get(base)

    def put(self, base: str, doc: dict, etag: str | None) -> None:
        self.entries[base] = {"doc": doc, "etag": etag}

    def save(self) -> None:
        with open(self.path, "w", encoding="utf-8") as fh:
            json.dump(self.entries, fh, indent=2)
