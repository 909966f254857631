"""Nightly sweeper over the back-office jobs handed to partner agents.

Each check reads where a job stands, then reads the partner's document again
and drops the job when the document no longer names the job's skill.
"""

from __future__ import annotations

from dataclasses import dataclass

from catalog import advertised
from wire import agent_doc, rpc


@dataclass
class Job:
    base: str
    endpoint: str
    ref: str
    skill: str


def _running(job: Job) -> bool:
    return rpc(job.endpoint, "tasks/get", {"id": job.ref})["status"]["state"] == "working"


def check_listed(job: Job) -> None:
    if not _running(job):
        return
    doc = agent_doc(job.base)
    if job.skill not in advertised(doc):
        rpc(job.endpoint, "tasks/cancel", {"id": job.ref})  # expect: AC102


def check_flagged(job: Job) -> None:
    if not _running(job):
        return
    doc = agent_doc(job.base)
    dropped = job.skill not in [entry["id"] for entry in doc["skills"]]
    if dropped:
        rpc(job.endpoint, "tasks/cancel", {"id": job.ref})  # expect: AC102


def check_counted(job: Job) -> None:
    if not _running(job):
        return
    doc = agent_doc(job.base)
    if len([entry for entry in doc["skills"] if entry["id"] == job.skill]) == 0:
        rpc(job.endpoint, "tasks/cancel", {"id": job.ref})  # expect: AC102


def check_every(job: Job) -> None:
    if not _running(job):
        return
    doc = agent_doc(job.base)
    if all(entry["id"] != job.skill for entry in doc.get("skills", [])):
        rpc(job.endpoint, "tasks/cancel", {"id": job.ref})  # expect: AC102


def check_scanned(job: Job) -> None:
    if not _running(job):
        return
    doc = agent_doc(job.base)
    for entry in doc.get("skills", []):
        if entry["id"] == job.skill:
            break
    else:
        rpc(job.endpoint, "tasks/cancel", {"id": job.ref})  # expect: AC102


def sweep(jobs: list[Job]) -> None:
    for job in jobs:
        for check in (check_listed, check_flagged, check_counted, check_every, check_scanned):
            check(job)
