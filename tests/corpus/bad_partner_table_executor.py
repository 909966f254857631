"""A review agent that hands the heavy part of each request to a partner (a2a-sdk 0.3).

Partner cards live as JSON text in the `partners` table (one row per partner, with
the partner's listing status). Defects: the executor reports our task as working,
and the sweep moves delegated jobs on, because the partner's card advertises a skill
or the fast-lane extension, not because the partner said anything about the job.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from uuid import uuid4

from a2a.client import Client
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.tasks import TaskUpdater
from a2a.types import AgentCard, Message, Part, Role, TextPart
from a2a.utils.signing import SignatureVerificationError, create_signature_verifier

FAST_LANE = "urn:example:a2a:fast-lane"


def listing(db: sqlite3.Connection, partner: str) -> sqlite3.Row:
    return db.execute("select name, agent_card, status from partners where name = ?", (partner,)).fetchone()


def contract_hash(profile: dict) -> str:
    terms = {k: profile.get(k) for k in ("protocolVersion", "securitySchemes", "security")}
    return hashlib.sha256(json.dumps(terms, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def listing_fingerprint(profile: dict) -> str:
    return hashlib.sha1(str(profile.get("skills")).encode()).hexdigest()  # expect: AC107


def fast_lane(profile: dict) -> bool:
    offered = (profile.get("capabilities") or {}).get("extensions") or []
    return any(ext.get("uri") == FAST_LANE for ext in offered)


async def delegate(client: Client, profile: dict, text: str) -> dict:
    message = Message(role=Role.user, parts=[Part(root=TextPart(text=text))], message_id=uuid4().hex,
                      metadata={"contract": contract_hash(profile)})
    async for task, _update in client.send_message(message):
        return {"remote": task.id, "partner": profile["name"], "state": task.status.state.value}
    raise RuntimeError("the partner answered without a task")


def sweep(jobs: dict[str, dict], profile: dict) -> int:
    moved = 0
    for job in jobs.values():
        if job["state"] == "submitted" and fast_lane(profile):
            job["state"] = "working"  # expect: AC201
            moved += 1
    return moved


def relist(db: sqlite3.Connection, row: sqlite3.Row, keys) -> None:
    profile = json.loads(row["agent_card"])
    entry = {"name": row["name"], "url": profile["url"], "seen": listing_fingerprint(profile), "status": row["status"]}
    try:
        create_signature_verifier(keys, ["ES256"])(AgentCard.model_validate_json(row["agent_card"]))
    except SignatureVerificationError:
        entry["status"] = "rejected"
    db.execute("update partners set status = ? where name = ?", (entry["status"], entry["name"]))


class ReviewExecutor(AgentExecutor):
    def __init__(self, client: Client, profile: dict) -> None:
        self.client = client
        self.profile = profile
        self.jobs: dict[str, dict] = {}

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        updater = TaskUpdater(event_queue, context.task_id, context.context_id)
        await updater.submit()
        job = await delegate(self.client, self.profile, context.get_user_input())
        self.jobs[job["remote"]] = job
        if "deep-review" in {skill["id"] for skill in self.profile.get("skills", [])}:
            await updater.start_work()  # expect: AC201

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        await TaskUpdater(event_queue, context.task_id, context.context_id).cancel()


def build(db: sqlite3.Connection, client: Client, partner: str) -> ReviewExecutor:
    return ReviewExecutor(client, json.loads(listing(db, partner)["agent_card"]))


def nightly(executor: ReviewExecutor) -> int:
    return sweep(executor.jobs, executor.profile)
