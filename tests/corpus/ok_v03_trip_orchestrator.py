"""Trip orchestrator: books flights through the flights agent (a2a-sdk 0.3 Client).

The card is resolved once per booking and its contract frozen before sending.
The stream of (task, update) tuples and, after a disconnect, a bounded number
of resubscribes decide the outcome. A late card read is only logged. Seat holds
are Celery jobs guarded by an ETag'd seat-map cache: neither is A2A.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import time
from uuid import uuid4

import httpx
from a2a.client import A2ACardResolver, Client, ClientConfig, ClientFactory
from a2a.client.errors import A2AClientHTTPError
from a2a.types import AgentCard, Message, Part, Role, TaskIdParams, TaskState, TextPart
from celery import Celery

log = logging.getLogger(__name__)
celery_app = Celery("trips", broker="redis://localhost:6379/0")
BOOKING_DEADLINE_S = 900
MAX_RESUBSCRIBES = 3
TERMINAL = (TaskState.completed, TaskState.failed, TaskState.canceled, TaskState.rejected)


def freeze_contract(card: AgentCard) -> str:
    contract = {
        "protocolVersion": card.protocol_version,
        "securitySchemes": {k: v.model_dump(mode="json") for k, v in (card.security_schemes or {}).items()},
        "security": card.security or [],
    }
    return hashlib.sha256(json.dumps(contract, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


class HoldQueue:
    """Seat holds are Celery jobs that release the seat when they run."""

    def __init__(self, app: Celery):
        self.app = app

    def cancel_task(self, job_id: str) -> None:
        self.app.control.revoke(job_id, terminate=True)


class FlightsDelegate:
    def __init__(self, http: httpx.AsyncClient, flights_url: str, holds: HoldQueue):
        self.http = http
        self.holds = holds
        self.seat_map_etag: str | None = None
        self.resolver = A2ACardResolver(http, flights_url)
        self.factory = ClientFactory(ClientConfig(httpx_client=http, streaming=True))

    async def book(self, itinerary: str, hold_job: str) -> TaskState | None:
        card = await self.resolver.get_agent_card()
        frozen = freeze_contract(card)
        client = self.factory.create(card)
        message = Message(
            role=Role.user,
            parts=[Part(root=TextPart(text=itinerary))],
            message_id=uuid4().hex,
            metadata={"contract_digest": frozen},
        )
        deadline = time.monotonic() + BOOKING_DEADLINE_S
        task_id = None
        async for event in client.send_message(message):
            if isinstance(event, Message):
                return None
            task, _update = event
            task_id = task.id
            if task.status.state in TERMINAL:
                return task.status.state
            if time.monotonic() > deadline:
                await client.cancel_task(TaskIdParams(id=task.id))
                return TaskState.canceled
        response = await self.http.get("https://inventory.example.com/seatmap", headers={"If-None-Match": self.seat_map_etag or ""})
        if response.status_code != 304 and response.headers.get("ETag") != self.seat_map_etag:
            self.holds.cancel_task(hold_job)  # the seat map moved: release our Celery seat hold
        return await self._follow(client, task_id, deadline)

    async def _follow(self, client: Client, task_id: str, deadline: float) -> TaskState | None:
        for attempt in range(MAX_RESUBSCRIBES):
            try:
                async for task, _update in client.resubscribe(TaskIdParams(id=task_id)):
                    if task.status.state in TERMINAL:
                        return task.status.state
            except A2AClientHTTPError as error:
                log.warning("resubscribe to %s failed (%s), attempt %d", task_id, error, attempt + 1)
                await asyncio.sleep(2**attempt)
        latest = await self.resolver.get_agent_card()
        log.info("flights agent now advertises %s; task %s is left to its own status", latest.version, task_id)
        if time.monotonic() > deadline:
            await client.cancel_task(TaskIdParams(id=task_id))
        return None
