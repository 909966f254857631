"""Delegation monitor: follows the jobs the planner handed to peer agents until they end.

Usage: python monitor.py SNAPSHOT.json

The planner writes SNAPSHOT.json when it hands work out: per peer its base URL
and the agent document it routed with, per job the peer's id for it and the
skill the planner picked.

The held documents are not re-read while the jobs run. A job whose skill the
peer's document does not list is only logged: peers regroup skills without
dropping support, and the job's own status (tasks/get) says whether it failed.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import time
from dataclasses import dataclass

from skills import offers
from transport import Link

log = logging.getLogger("monitor")

TERMINAL = {"completed", "failed", "canceled", "rejected"}
SWEEP_EVERY = 10.0


@dataclass
class Job:
    remote_id: str
    peer: str
    skill: str
    state: str = "submitted"
    note: str = ""


def load(path: str) -> tuple[dict[str, dict], dict[str, Link], list[Job]]:
    with open(path, encoding="utf-8") as fh:
        snap = json.load(fh)
    held = {name: entry["doc"] for name, entry in snap["peers"].items()}
    links = {name: Link(doc["url"], os.environ.get(f"TOKEN_{name.upper()}")) for name, doc in held.items()}
    return held, links, [Job(**rec) for rec in snap["jobs"]]


def note_drift(held: dict[str, dict], jobs: list[Job]) -> None:
    for job in jobs:
        if not offers(held[job.peer], job.skill):
            log.info("%s does not list %s (job %s); leaving it to the job's own status", job.peer, job.skill, job.remote_id)


def watch(links: dict[str, Link], jobs: list[Job], budget: float = 3600.0) -> list[Job]:
    pending = [job for job in jobs if job.state not in TERMINAL]
    deadline = time.monotonic() + budget
    while pending and time.monotonic() < deadline:
        for job in list(pending):
            status = links[job.peer].status(job.remote_id)["status"]
            job.state = status["state"]
            if job.state in TERMINAL:
                pending.remove(job)
                parts = (status.get("message") or {}).get("parts", [])
                job.note = " ".join(p.get("text", "") for p in parts)
        time.sleep(SWEEP_EVERY)
    return jobs


def main(argv: list[str]) -> int:
    logging.basicConfig(level=logging.INFO)
    held, links, jobs = load(argv[1])
    note_drift(held, jobs)
    try:
        for job in watch(links, jobs):
            print(f"{job.remote_id}\t{job.peer}\t{job.state}\t{job.note}")
    finally:
        for link in links.values():
            link.close()
    return 0 if all(job.state == "completed" for job in jobs) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
