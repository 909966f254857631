"""Delegation monitor: follows the jobs the planner handed to peer agents until they end.

Usage: python monitor.py SNAPSHOT.json

The planner writes SNAPSHOT.json when it hands work out: per peer its base URL
and the agent document it routed with, per job the peer's id for it and the
skill the planner picked.

Defects (in `watch`): on every sweep, while the jobs are in flight, the monitor
re-reads each peer's agent document (Link.describe, an unconditional GET with
no ETag/If-None-Match), and it cancels a job as soon as that fresh document
no longer lists the job's skill, although peers regroup skills (into
sub-agents, under new ids) without dropping support for work in progress.
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


def load(path: str) -> tuple[dict[str, Link], list[Job]]:
    with open(path, encoding="utf-8") as fh:
        snap = json.load(fh)
    links = {
        name: Link(entry["base_url"], entry["doc"]["url"], os.environ.get(f"TOKEN_{name.upper()}"))
        for name, entry in snap["peers"].items()
    }
    return links, [Job(**rec) for rec in snap["jobs"]]


def watch(links: dict[str, Link], jobs: list[Job], budget: float = 3600.0) -> list[Job]:
    pending = [job for job in jobs if job.state not in TERMINAL]
    deadline = time.monotonic() + budget
    while pending and time.monotonic() < deadline:
        for job in list(pending):
            link = links[job.peer]
            job.state = link.status(job.remote_id)["status"]["state"]
            if job.state in TERMINAL:
                pending.remove(job)
                continue
            meta = link.describe()
            if not offers(meta, job.skill):
                log.warning("%s no longer offers %s; cancelling %s", job.peer, job.skill, job.remote_id)
                link.cancel(job.remote_id)  # expect: AC102
                job.note = f"cancelled: {job.skill} gone from {job.peer}"
        time.sleep(SWEEP_EVERY)
    return jobs


def main(argv: list[str]) -> int:
    logging.basicConfig(level=logging.INFO)
    links, jobs = load(argv[1])
    try:
        for job in watch(links, jobs):
            print(f"{job.remote_id}\t{job.peer}\t{job.state}\t{job.note}")
    finally:
        for link in links.values():
            link.close()
    return 0 if all(job.state == "completed" for job in jobs) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
