"""Follows reconciliation jobs handed to the ledger agent (raw v0.3 JSON-RPC over httpx).

The job id comes from the submit command run earlier; this worker only follows it.
"""

from __future__ import annotations

import functools
import logging
import time

import httpx

WELL_KNOWN = "/.well-known/agent-card.json"
DONE = ("completed", "failed", "canceled", "rejected")
log = logging.getLogger("ledger.follow")


@functools.lru_cache(maxsize=16)
def _card_in_window(base: str, window: int) -> dict:
    return httpx.get(base + WELL_KNOWN, timeout=5).json()  # expect: AC104


def card_of(base: str) -> dict:
    return _card_in_window(base, int(time.time() // 600))


class LedgerFollower:
    def __init__(self, http: httpx.Client, base: str) -> None:
        self.http = http
        self.base = base.rstrip("/")
        self.profile: dict | None = None
        self.loaded = False

    def _call(self, endpoint: str, method: str, params: dict) -> dict:
        envelope = {"jsonrpc": "2.0", "id": 7, "method": method, "params": params}
        return self.http.post(endpoint, json=envelope).json()["result"]

    def profile_now(self) -> dict:
        if not self.loaded:
            self.profile = self.http.get(self.base + WELL_KNOWN).json()
            self.loaded = True
        return self.profile

    def resync(self) -> None:
        latest = self.http.get(self.base + WELL_KNOWN).json()  # expect: AC104
        self.profile = latest

    def wait(self, job_id: str) -> dict:
        job: dict = {}
        tries = 0
        while tries < 90:
            tries += 1
            info = self.http.get(self.base + WELL_KNOWN).json()  # expect: AC101, AC104
            job = self._call(info["url"], "tasks/get", {"id": job_id})
            if job["status"]["state"] in DONE:
                break
            time.sleep(3)
        return job


def watch_window(http: httpx.Client, base: str, job_id: str) -> dict:
    job: dict = {}
    for _ in range(40):
        job = http.post(base + "/rpc", json={"jsonrpc": "2.0", "id": 3, "method": "tasks/get", "params": {"id": job_id}}).json()["result"]
        if job["status"]["state"] in DONE:
            return job
        log.info("job %s still running on %s", job_id, card_of(base).get("version"))
        time.sleep(10)
    return job
