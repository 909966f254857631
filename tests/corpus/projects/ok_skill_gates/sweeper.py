"""Nightly sweeper over the back-office jobs handed to a partner agent.

The partner's document is read once, when the night's jobs are handed out. A
skill it does not name is only noted; a job is dropped when its own status has
waited on input past the allowed time.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from catalog import advertised
from wire import agent_doc, rpc

log = logging.getLogger("sweeper")

MAX_WAIT = 6 * 3600


@dataclass
class Job:
    endpoint: str
    ref: str
    skill: str
    waiting_since: float


def _stalled(job: Job) -> bool:
    state = rpc(job.endpoint, "tasks/get", {"id": job.ref})["status"]["state"]
    return state == "input-required" and time.time() - job.waiting_since > MAX_WAIT


def check_listed(job: Job, doc: dict) -> None:
    if job.skill not in advertised(doc):
        log.info("%s not advertised for %s", job.skill, job.ref)
    if _stalled(job):
        rpc(job.endpoint, "tasks/cancel", {"id": job.ref})


def check_flagged(job: Job, doc: dict) -> None:
    dropped = job.skill not in [entry["id"] for entry in doc["skills"]]
    if dropped:
        log.info("%s dropped for %s", job.skill, job.ref)
    if _stalled(job):
        rpc(job.endpoint, "tasks/cancel", {"id": job.ref})


def check_counted(job: Job, doc: dict) -> None:
    if len([entry for entry in doc["skills"] if entry["id"] == job.skill]) == 0:
        log.info("%s not listed for %s", job.skill, job.ref)
    if _stalled(job):
        rpc(job.endpoint, "tasks/cancel", {"id": job.ref})


def check_every(job: Job, doc: dict) -> None:
    if all(entry["id"] != job.skill for entry in doc.get("skills", [])):
        log.info("%s missing for %s", job.skill, job.ref)
    elif _stalled(job):
        rpc(job.endpoint, "tasks/cancel", {"id": job.ref})


def check_scanned(job: Job, doc: dict) -> None:
    for entry in doc.get("skills", []):
        if entry["id"] == job.skill:
            if _stalled(job):
                rpc(job.endpoint, "tasks/cancel", {"id": job.ref})
            break
    else:
        log.info("%s not found for %s", job.skill, job.ref)


def hand_out(doc: dict, endpoint: str, skill: str, text: str, digest: str) -> Job:
    message = {"role": "user", "messageId": f"{skill}-{time.time_ns()}", "parts": [{"kind": "text", "text": text}],
               "metadata": {"contractDigest": digest}}
    task = rpc(endpoint, "message/send", {"message": message})
    return Job(endpoint, task["id"], skill, time.time())


def night(base: str, endpoint: str, orders: list[tuple[str, str]], digest: str) -> None:
    doc = agent_doc(base)
    jobs = [hand_out(doc, endpoint, skill, text, digest) for skill, text in orders if skill in advertised(doc)]
    for job in jobs:
        check_listed(job, doc)
        check_flagged(job, doc)
        check_counted(job, doc)
        check_every(job, doc)
        check_scanned(job, doc)
