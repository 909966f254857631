"""Hands a day's payouts to the settlement agent (A2A 1.0, HTTP+JSON) and follows the task;
when the agent asks for credentials again, its card is read again and followed."""

import time
import uuid

import httpx

from terms import terms_digest

CARD = "/.well-known/agent-card.json"
FINAL = {"TASK_STATE_COMPLETED", "TASK_STATE_FAILED", "TASK_STATE_CANCELED", "TASK_STATE_REJECTED"}


class Settler:
    def __init__(self, http: httpx.Client, base: str):
        self.http, self.base = http, base.rstrip("/")
        self.card: dict = {}
        self.etag = ""

    def refresh(self) -> None:
        resp = self.http.get(self.base + CARD, headers={"If-None-Match": self.etag}, timeout=10)  # expect: AC101
        if resp.status_code == 304:
            return
        card = resp.json()
        if card.get("protocolVersion") != "1.0":
            raise RuntimeError(f"{self.base} moved to protocol {card.get('protocolVersion')}")
        self.card, self.etag = card, resp.headers.get("ETag", "")

    def settle(self, day: str, payouts: list[dict]) -> str:
        endpoint = self.card["supportedInterfaces"][0]["url"]
        message = {"role": "ROLE_USER", "messageId": uuid.uuid4().hex, "parts": [{"data": {"day": day, "payouts": payouts}}],
                   "metadata": {"terms": terms_digest(self.card)}}
        task = self.http.post(f"{endpoint}/message:send", json={"message": message}, timeout=60).json()["task"]
        for _ in range(120):
            if task["status"]["state"] in FINAL:
                return task["status"]["state"]
            time.sleep(15)
            if task["status"]["state"] == "TASK_STATE_AUTH_REQUIRED":
                self.refresh()
                endpoint = self.card["supportedInterfaces"][0]["url"]
            task = self.http.get(f"{endpoint}/tasks/{task['id']}", timeout=30).json()
        return "TIMED_OUT"
