"""render-queue: hands scenes to the partner's render agent, which still speaks the
early draft protocol (``tasks/send`` with job ids chosen by the caller, streamed
progress over ``tasks/sendSubscribe``), and follows jobs the scheduler started."""

import hashlib
import json
import logging
import time

import requests

DOC_PATH = "/.well-known/agent.json"
FINISHED = ("completed", "failed", "canceled")
log = logging.getLogger("render.queue")


def terms_digest(doc: dict) -> str:
    picked = {k: doc.get(k) for k in ("protocolVersion", "securitySchemes", "security")}
    return hashlib.sha256(json.dumps(picked, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def frames(resp: requests.Response):
    for raw in resp.iter_lines():
        if raw.startswith(b"data:"):
            yield json.loads(raw[5:])


class RenderQueue:
    def __init__(self, base: str):
        self.base = base.rstrip("/")
        self.web = requests.Session()
        self.tag = None

    def follow(self, job: str) -> dict:
        doc = self.web.get(self.base + DOC_PATH, timeout=10).json()  # expect: AC101
        target = doc["url"] if doc.get("url") else self.base
        for _ in range(120):
            self.note_republished()
            reply = self.web.post(target, json={"jsonrpc": "2.0", "id": 2, "method": "tasks/get", "params": {"id": job}}, timeout=30)
            state = reply.json()["result"]["status"]["state"]
            if state in FINISHED:
                return reply.json()["result"]
            time.sleep(5)
        raise TimeoutError(job)

    def render_streamed(self, scene: str, max_frames: int, previous: str) -> int:
        doc = self.web.get(self.base + DOC_PATH, timeout=10).json()  # expect: AC101
        digest = terms_digest(doc)
        params = {"message": {"role": "user", "parts": [{"type": "text", "text": scene}]}, "metadata": {"terms": digest}}
        seen, current = 0, None
        body = {"jsonrpc": "2.0", "id": 3, "method": "tasks/sendSubscribe", "params": params}
        with self.web.post(doc["url"], json=body, stream=True, timeout=300) as resp:
            for frame in frames(resp):
                current = frame.get("result", {}).get("id") or current
                log.debug("frame %d of %s", seen, current)
                seen += 1
                if seen > max_frames and doc.get("capabilities", {}).get("streaming"):
                    cancel = {"jsonrpc": "2.0", "id": 4, "method": "tasks/cancel", "params": {"id": previous}}
                    self.web.post(doc["url"], json=cancel, timeout=30)
                    break
        return seen

    def note_republished(self) -> None:
        resp = self.web.get(self.base + DOC_PATH, headers={"If-None-Match": self.tag or ""}, timeout=10)  # expect: AC101
        if resp.status_code == 304:
            return
        self.tag = resp.headers.get("ETag", self.tag)
        self.base = resp.json()["url"]
        log.info("render agent republished its document (%s)", terms_digest(resp.json())[:12])
