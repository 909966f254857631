"""A review agent that hands the heavy part of each request to a partner (a2a-sdk 0.3).

Partner cards live as JSON text in the `partners` table (one row per partner, with
the partner's listing status). The card decides only how a request is delegated; our
task is reported as working when the work starts, and the sweep copies each delegated
job's state from the partner's own answer (tasks/get). A partner whose card no longer
verifies is marked in its listing, which is not a task.
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
from a2a.types import AgentCard, Message, Part, Role, TaskQueryParams, TextPart
from a2a.utils.signing import SignatureVerificationError, create_signature_verifier

FAST_LANE = "urn:example:a2a:fast-lane"


def listing(db: sqlite3.Connection, partner: str) -> sqlite3.Row:
    return db.execute("select name, agent_card, status from partners where name = ?", (partner,)).fetchone()


def contract_hash(profile: dict) -> str:
    terms = {k: profile.get(k) for k in ("protocolVersion", "securitySchemes", "security")}
    return hashlib.sha256(json.dumps(terms, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def listing_fingerprint(profile: dict) -> str:
    return hashlib.sha1(json.dumps(profile.get("skills"), sort_keys=True).encode()).hexdigest()


def fast_lane(profile: dict) -> bool:
    offered = (profile.get("capabilities") or {}).get("extensions") or []
    return any(ext.get("uri") == FAST_LANE for ext in offered)


async def delegate(client: Client, profile: dict, text: str) -> dict:
    message = Message(role=Role.user, parts=[Part(root=TextPart(text=text))], message_id=uuid4().hex,
                      metadata={"contract": contract_hash(profile)})
    async for task, _update in client.send_message(message):
        return {"remote": task.id, "partner": profile["name"], "state": task.status.state.value}
    raise RuntimeError("the partner answered without a task")


async def sweep(client: Client, jobs: dict[str, dict], profile: dict) -> int:
    moved = 0
    for job in jobs.values():
        if job["state"] == "submitted" and fast_lane(profile):
            remote = await client.get_task(TaskQueryParams(id=job["remote"]))
            job["state"] = remote.status.state.value
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
        text = context.get_user_input()
        if "deep-review" not in {skill["id"] for skill in self.profile.get("skills", [])}:
            text = "Quick pass only:\n" + text
        await updater.start_work()
        job = await delegate(self.client, self.profile, text)
        self.jobs[job["remote"]] = job

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        await TaskUpdater(event_queue, context.task_id, context.context_id).cancel()


def build(db: sqlite3.Connection, client: Client, partner: str) -> ReviewExecutor:
    return ReviewExecutor(client, json.loads(listing(db, partner)["agent_card"]))


async def nightly(executor: ReviewExecutor) -> int:
    return await sweep(executor.client, executor.jobs, executor.profile)
