"""Follows reconciliation jobs handed to the ledger agent (raw v0.3 JSON-RPC over httpx).

The card is read once per follower and kept, and re-reads are revalidated; a job
is followed at the endpoint recorded when it was submitted, by its own state.
"""

from __future__ import annotations

import time

import httpx

WELL_KNOWN = "/.well-known/agent-card.json"
DONE = ("completed", "failed", "canceled", "rejected")


class LedgerFollower:
    def __init__(self, http: httpx.Client, base: str) -> None:
        self.http, self.base = http, base.rstrip("/")
        self.profile: dict | None = None
        self.etag: str | None = None
        self.loaded = False

    def _call(self, endpoint: str, method: str, params: dict) -> dict:
        reply = self.http.post(endpoint, json={"jsonrpc": "2.0", "id": 7, "method": method, "params": params})
        return reply.json()["result"]

    def profile_now(self) -> dict:
        if not self.loaded:
            reply = self.http.get(self.base + WELL_KNOWN)
            self.profile, self.etag = reply.json(), reply.headers.get("ETag")
            self.loaded = True
        return self.profile

    def resync(self) -> None:
        reply = self.http.get(self.base + WELL_KNOWN, headers={"If-None-Match": self.etag or ""})
        if reply.status_code != 304:
            self.profile, self.etag = reply.json(), reply.headers.get("ETag")

    def reachable(self) -> bool:
        for _ in range(5):
            reply = self.http.get(self.base + WELL_KNOWN)
            if reply.status_code == 200:
                return True
            time.sleep(1)
        return False

    def wait(self, endpoint: str, job_id: str) -> dict:
        job: dict = {}
        tries = 0
        while tries < 90:
            tries += 1
            job = self._call(endpoint, "tasks/get", {"id": job_id})
            if job["status"]["state"] in DONE:
                break
            time.sleep(3)
        return job
