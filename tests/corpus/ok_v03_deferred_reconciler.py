"""Reconciler for delegated tasks whose peer rotated its Agent Card (a2a-sdk 0.3.22+).

The card's signature proves who the peer is; it never decides a task's state.
When the card digest differs from the one recorded on the task at creation,
the task is *deferred*: its own status (get_task) is polled for a bounded
window, and only if that channel stays silent is a human paged.
"""

from __future__ import annotations

import asyncio
import enum
import hashlib
import json
import logging
import time
from dataclasses import dataclass, field

import httpx
from a2a.client import Client
from a2a.types import AgentCard, TaskQueryParams, TaskState
from a2a.utils.signing import create_signature_verifier

log = logging.getLogger("reconciler")
DEFER_WINDOW_S = 600
POLL_EVERY_S = 15
SETTLED = (TaskState.completed, TaskState.failed, TaskState.canceled, TaskState.rejected)


class Disposition(enum.Enum):
    CURRENT = "current"
    DEFERRED = "deferred"
    ESCALATED = "escalated"


@dataclass
class TrackedTask:
    task_id: str
    card_digest: str
    last_state: str = "submitted"
    disposition: Disposition = Disposition.CURRENT
    notes: list[str] = field(default_factory=list)


def card_digest(card: AgentCard) -> str:
    contract = {
        "protocolVersion": card.protocol_version,
        "security": card.security or [],
        "securitySchemes": {k: v.model_dump(mode="json") for k, v in (card.security_schemes or {}).items()},
    }
    return hashlib.sha256(json.dumps(contract, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


class Reconciler:
    def __init__(self, client: Client, http: httpx.AsyncClient, card_url: str, key_provider, pager):
        self.client = client
        self.http = http
        self.card_url = card_url
        self.verify = create_signature_verifier(key_provider, ["ES256", "RS256"])
        self.pager = pager
        self.card: AgentCard | None = None
        self.etag = ""

    async def current_card(self) -> AgentCard:
        response = await self.http.get(self.card_url, headers={"If-None-Match": self.etag})
        if response.status_code != 304 or self.card is None:
            card = AgentCard.model_validate(response.raise_for_status().json())
            self.verify(card)  # who the peer is: identity only
            self.card, self.etag = card, response.headers.get("ETag", "")
        return self.card

    async def reconcile(self, tracked: TrackedTask, card: AgentCard) -> None:
        if card_digest(card) == tracked.card_digest:
            return
        log.info("card digest of the peer changed under task %s; deferring to its own status", tracked.task_id)
        tracked.disposition = Disposition.DEFERRED
        await self._poll_until_settled(tracked)

    async def _poll_until_settled(self, tracked: TrackedTask) -> None:
        deadline = time.monotonic() + DEFER_WINDOW_S
        while time.monotonic() < deadline:
            try:
                task = await self.client.get_task(TaskQueryParams(id=tracked.task_id))
            except Exception as error:  # the status channel itself is down
                tracked.notes.append(f"get_task failed: {error}")
            else:
                tracked.last_state = task.status.state.value
                if task.status.state in SETTLED:
                    tracked.disposition = Disposition.CURRENT
                    return
            await asyncio.sleep(POLL_EVERY_S)
        tracked.disposition = Disposition.ESCALATED
        await self.pager.page(f"task {tracked.task_id}: no settled status within {DEFER_WINDOW_S}s after a card change")

    async def run_once(self, tracked_tasks: list[TrackedTask]) -> None:
        card = await self.current_card()
        for tracked in tracked_tasks:
            await self.reconcile(tracked, card)
