"""rotwatch: sends one job to a peer agent over JSON-RPC and follows it to the end.

Usage: python watch.py PEER_BASE_URL "job text"

Defects, all in `follow` while the job is in flight: on every poll it re-reads
the peer's agent document (peers.fetch, an unconditional GET with no
ETag/If-None-Match) and lets that read decide: when the terms digest of the
fresh document differs from the one frozen at send time it cancels the
running job, and peers.require_same_skills raises (stopping the watch) when
the fresh document lists different skills than the one the job was sent with.
"""

from __future__ import annotations

import logging
import sys
import time
import uuid

import httpx

import peers
import rpc

log = logging.getLogger("rotwatch")

TERMINAL = {"completed", "failed", "canceled", "rejected"}
POLL_EVERY = 5.0


def send(http: httpx.Client, base: str, text: str) -> tuple[dict, str, dict]:
    doc = peers.fetch(http, base)
    frozen = peers.terms_digest(doc)
    message = {"kind": "message", "role": "user", "messageId": uuid.uuid4().hex, "parts": [{"kind": "text", "text": text}]}
    params = {"message": message, "metadata": {"terms_digest": frozen}}
    item = rpc.call(http, doc["url"], "message/send", params, peers.auth_headers(doc))
    return doc, frozen, item


def follow(http: httpx.Client, base: str, doc: dict, frozen: str, item_id: str, budget: float = 1800.0) -> dict:
    headers = peers.auth_headers(doc)
    deadline = time.monotonic() + budget
    while time.monotonic() < deadline:
        time.sleep(POLL_EVERY)
        item = rpc.call(http, doc["url"], "tasks/get", {"id": item_id, "historyLength": 0}, headers)
        if item["status"]["state"] in TERMINAL:
            return item
        latest = peers.fetch(http, base)
        if peers.terms_digest(latest) != frozen:
            log.warning("peer rotated its terms while %s was running; cancelling", item_id)
            rpc.call(http, doc["url"], "tasks/cancel", {"id": item_id}, headers)  # expect: AC105
            raise peers.PeerRotated(item_id)
        peers.require_same_skills(doc, latest)
    raise TimeoutError(f"{item_id} not finished after {budget:.0f}s")


def main(argv: list[str]) -> int:
    logging.basicConfig(level=logging.INFO)
    base, text = argv[1], argv[2]
    with httpx.Client(timeout=30.0) as http:
        doc, frozen, item = send(http, base, text)
        if item.get("kind") == "task" and item["status"]["state"] not in TERMINAL:
            item = follow(http, base, doc, frozen, item["id"])
    print(item.get("status", {}).get("state", "message"), frozen[:12])
    return 0 if item.get("status", {}).get("state", "completed") == "completed" else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
