"""render-queue: hands scenes to the partner's render agent, which still speaks the
early draft protocol (``tasks/send`` with job ids chosen by the caller, streamed
progress over ``tasks/sendSubscribe``), and follows each job to its end."""

import hashlib
import json
import logging
import time
import uuid

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

    def render(self, scene: str) -> dict:
        doc = self.web.get(self.base + DOC_PATH, timeout=10).json()
        target = doc["url"] if doc.get("url") else self.base
        job = str(uuid.uuid4())  # ours: the partner knows no job by this id yet
        params = {"id": job, "message": {"role": "user", "parts": [{"type": "text", "text": scene}]},
                  "metadata": {"terms": terms_digest(doc)}}
        self.web.post(target, json={"jsonrpc": "2.0", "id": 1, "method": "tasks/send", "params": params}, timeout=30)
        for _ in range(120):
            self.note_republished()
            reply = self.web.post(target, json={"jsonrpc": "2.0", "id": 2, "method": "tasks/get", "params": {"id": job}}, timeout=30)
            state = reply.json()["result"]["status"]["state"]
            if state in FINISHED:
                return reply.json()["result"]
            time.sleep(5)
        raise TimeoutError(job)

    def render_streamed(self, scene: str, max_frames: int) -> int:
        doc = self.web.get(self.base + DOC_PATH, timeout=10).json()
        digest = terms_digest(doc)
        params = {"message": {"role": "user", "parts": [{"type": "text", "text": scene}]}, "metadata": {"terms": digest}}
        seen, current = 0, None
        body = {"jsonrpc": "2.0", "id": 3, "method": "tasks/sendSubscribe", "params": params}
        with self.web.post(doc["url"], json=body, stream=True, timeout=300) as resp:
            for frame in frames(resp):
                current = frame.get("result", {}).get("id") or current
                seen += 1
                if seen > max_frames and doc.get("capabilities", {}).get("streaming"):
                    cancel = {"jsonrpc": "2.0", "id": 4, "method": "tasks/cancel", "params": {"id": current}}
                    self.web.post(doc["url"], json=cancel, timeout=30)
                    break
        return seen

    def note_republished(self) -> None:
        resp = self.web.get(self.base + DOC_PATH, headers={"If-None-Match": self.tag or ""}, timeout=10)
        if resp.status_code == 304:
            return
        self.tag = resp.headers.get("ETag", self.tag)
        log.info("render agent republished its document (%s)", terms_digest(resp.json())[:12])
