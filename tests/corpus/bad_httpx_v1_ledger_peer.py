"""In-house wrapper over an A2A 1.0 peer's JSON-RPC binding (httpx), used by the ledger sync job.

Bugs: SendMessage goes out with no frozen contract; the sync refuses to run
when the peer's defaultInputModes differ from the pinned card (a capability
change blocking); and while the task runs the job re-reads the card on every
poll and cancels the task when its securitySchemes moved.
"""

from __future__ import annotations

import asyncio
import itertools
from uuid import uuid4

import httpx

TERMINAL = {"TASK_STATE_COMPLETED", "TASK_STATE_FAILED", "TASK_STATE_CANCELED", "TASK_STATE_REJECTED"}


class PeerChanged(RuntimeError):
    pass


class A2APeer:
    def __init__(self, http: httpx.AsyncClient, base_url: str):
        self.http = http
        self.base_url = base_url.rstrip("/")
        self.rpc_url = self.base_url + "/a2a/v1"
        self._ids = itertools.count(1)

    async def _rpc(self, method: str, params: dict) -> dict:
        body = {"jsonrpc": "2.0", "id": next(self._ids), "method": method, "params": params}
        reply = (await self.http.post(self.rpc_url, json=body, headers={"A2A-Version": "1.0"})).json()
        if "error" in reply:
            raise RuntimeError(f"{method} failed: {reply['error']}")
        return reply["result"]

    async def fetch_card(self) -> dict:
        return (await self.http.get(f"{self.base_url}/.well-known/agent-card.json")).json()  # expect: AC101, AC104

    async def send_text(self, text: str, context_id: str | None = None) -> dict:
        message = {"role": "ROLE_USER", "messageId": uuid4().hex, "contextId": context_id, "parts": [{"text": text}]}
        return (await self._rpc("SendMessage", {"message": message}))["task"]  # expect: AC103

    async def get_task(self, task_id: str) -> dict:
        return await self._rpc("GetTask", {"id": task_id})

    async def cancel_task(self, task_id: str) -> dict:
        return await self._rpc("CancelTask", {"id": task_id})


async def run_ledger_sync(peer: A2APeer, batch: str, pinned_card: dict) -> dict:
    before = await peer.fetch_card()
    if set(before.get("defaultInputModes", [])) != set(pinned_card.get("defaultInputModes", [])):
        raise PeerChanged("ledger agent changed its input modes; refusing to sync")  # expect: AC106
    task = await peer.send_text(batch)
    while task["status"]["state"] not in TERMINAL:
        await asyncio.sleep(2)
        task = await peer.get_task(task["id"])
        after = await peer.fetch_card()
        if after.get("securitySchemes") != before.get("securitySchemes"):
            await peer.cancel_task(task["id"])  # expect: AC105
            raise PeerChanged("ledger agent rotated its security schemes mid-sync")
    return task
