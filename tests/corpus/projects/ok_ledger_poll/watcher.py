"""Ledger batch watcher: posts one ledger batch to the ledger agent and waits for the result.

Usage: python watcher.py BASE_URL BATCH_FILE

The agent's document is read once, before the batch is sent (rpc.open_session);
its contract digest travels with the batch, and every poll reuses the endpoint
and headers derived then. Only the task's own status decides when to stop.
"""

from __future__ import annotations

import logging
import sys
import time

import rpc

log = logging.getLogger("ledger.watcher")

TERMINAL = {"completed", "failed", "canceled", "rejected"}
INTERRUPTED = {"input-required", "auth-required"}
POLL_EVERY = 3.0
GIVE_UP_AFTER = 20 * 60


def wait(session: rpc.Session, tid: str) -> dict:
    deadline = time.monotonic() + GIVE_UP_AFTER
    while True:
        snapshot = rpc.poll(session, tid)
        state = snapshot["status"]["state"]
        log.debug("batch %s is %s", tid, state)
        if state in TERMINAL:
            return snapshot
        if state in INTERRUPTED:
            raise RuntimeError(f"ledger agent needs attention for {tid}: {state}")
        if time.monotonic() > deadline:
            raise TimeoutError(f"batch {tid} still {state} after {GIVE_UP_AFTER}s")
        time.sleep(POLL_EVERY)


def main(argv: list[str]) -> int:
    logging.basicConfig(level=logging.INFO)
    base_url, batch_file = argv[1], argv[2]
    with open(batch_file, encoding="utf-8") as fh:
        batch = fh.read()
    session = rpc.open_session(base_url)
    created = rpc.submit(session, batch)
    if created.get("kind") != "task":
        print(" ".join(p.get("text", "") for p in created.get("parts", [])))
        return 0
    final = wait(session, created["id"])
    print(final["status"]["state"])
    for artifact in final.get("artifacts") or []:
        for part in artifact.get("parts", []):
            if part.get("kind") == "text":
                print(part["text"])
    return 0 if final["status"]["state"] == "completed" else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
