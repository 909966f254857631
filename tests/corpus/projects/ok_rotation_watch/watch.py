"""rotwatch: sends one job to a peer agent over JSON-RPC and follows it to the end.

Usage: python watch.py PEER_BASE_URL "job text" [BOOK.json]

Before sending, the document pinned on an earlier run is revalidated once with
If-None-Match; if its contract terms changed the job is not sent at all, and a
change in the skills it lists is only logged. While the job runs the document
is not read again: the terms digest frozen at send travels with the job, a
different digest reported back only puts the watch in a deferred state, and
the job's own status (tasks/get) decides when it is over.
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


class TermsChanged(RuntimeError):
    """The peer serves new contract terms; nothing was sent."""


def prepare(http: httpx.Client, book: peers.PeerBook, base: str) -> dict:
    entry = book.get(base)
    if entry is None:
        doc, etag = peers.revalidate(http, base, None)
        book.put(base, doc, etag)
        return doc
    if entry["etag"] is None:
        return entry["doc"]  # no validator: the pinned document stands
    fresh, etag = peers.revalidate(http, base, entry["etag"])
    if fresh is None:
        return entry["doc"]
    if peers.terms_digest(fresh) != peers.terms_digest(entry["doc"]):
        raise TermsChanged(f"{base} changed its contract terms; re-pin it before sending")
    gone, added = peers.skill_drift(entry["doc"], fresh)
    if gone or added:
        log.info("%s regrouped skills (gone %s, new %s)", base, gone, added)
    book.put(base, fresh, etag)
    return fresh


def send(http: httpx.Client, doc: dict, text: str) -> tuple[str, dict]:
    frozen = peers.terms_digest(doc)
    message = {"kind": "message", "role": "user", "messageId": uuid.uuid4().hex, "parts": [{"kind": "text", "text": text}]}
    params = {"message": message, "metadata": {"terms_digest": frozen}}
    return frozen, rpc.call(http, doc["url"], "message/send", params, peers.auth_headers(doc))


def follow(http: httpx.Client, doc: dict, frozen: str, item_id: str, budget: float = 1800.0) -> dict:
    headers = peers.auth_headers(doc)
    deadline = time.monotonic() + budget
    deferred = False
    while time.monotonic() < deadline:
        time.sleep(POLL_EVERY)
        item = rpc.call(http, doc["url"], "tasks/get", {"id": item_id, "historyLength": 0}, headers)
        implied = (item.get("metadata") or {}).get("terms_digest")
        if implied and implied != frozen and not deferred:
            log.warning("%s reports other terms than it was sent under; deferring to its status", item_id)
            deferred = True
        if item["status"]["state"] in TERMINAL:
            return item
    raise TimeoutError(f"{item_id} not finished after {budget:.0f}s")


def main(argv: list[str]) -> int:
    logging.basicConfig(level=logging.INFO)
    base, text = argv[1], argv[2]
    book = peers.PeerBook(argv[3] if len(argv) > 3 else "peers.json")
    with httpx.Client(timeout=30.0) as http:
        doc = prepare(http, book, base)
        book.save()
        frozen, item = send(http, doc, text)
        if item.get("kind") == "task" and item["status"]["state"] not in TERMINAL:
            item = follow(http, doc, frozen, item["id"])
    print(item.get("status", {}).get("state", "message"), frozen[:12])
    return 0 if item.get("status", {}).get("state", "completed") == "completed" else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
