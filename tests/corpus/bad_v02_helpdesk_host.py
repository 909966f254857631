"""Helpdesk host agent that opens tickets with the IT-ops agent (a2a-sdk 0.2.x).

Bugs: the startup card fetch retries forever; the card digest hashes the
whole card (a reshuffle of skills reads as a contract change); tickets are
refused when the skills differ from yesterday's cached card; and after
sending, a second client built from the card URL (a fresh card fetch)
drives the polling of the task.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from pathlib import Path
from uuid import uuid4

import httpx
from a2a.client import A2ACardResolver, A2AClient, A2AClientHTTPError
from a2a.types import AgentCard, GetTaskRequest, Message, MessageSendParams, Part, Role, SendMessageRequest, TaskQueryParams, TextPart

log = logging.getLogger("helpdesk")
CARD_CACHE = Path("/var/cache/helpdesk/itops-card.json")


async def resolve_card(http: httpx.AsyncClient, base_url: str) -> AgentCard:
    resolver = A2ACardResolver(http, base_url)
    while True:  # expect: AC202
        try:
            return await resolver.get_agent_card()
        except (httpx.HTTPError, A2AClientHTTPError) as error:
            log.warning("IT-ops card unavailable (%s); retrying", error)
            await asyncio.sleep(5)


def card_digest(card: AgentCard) -> str:
    return hashlib.sha256(json.dumps(card.model_dump(mode="json")).encode()).hexdigest()  # expect: AC107


def load_cached_card() -> AgentCard | None:
    return AgentCard.model_validate_json(CARD_CACHE.read_text()) if CARD_CACHE.exists() else None


async def open_ticket(http: httpx.AsyncClient, base_url: str, summary: str) -> str:
    card = await resolve_card(http, base_url)
    cached_card = load_cached_card()
    if cached_card is not None and cached_card.skills != card.skills:
        raise RuntimeError("IT-ops agent changed its skills since yesterday; not opening tickets")  # expect: AC106
    digest = card_digest(card)
    client = A2AClient(http, agent_card=card)
    message = Message(role=Role.user, parts=[Part(root=TextPart(text=summary))], message_id=uuid4().hex, metadata={"card_digest": digest})
    response = await client.send_message(SendMessageRequest(id=str(uuid4()), params=MessageSendParams(message=message)))
    task = response.root.result
    poller = await A2AClient.get_client_from_agent_card_url(http, base_url)  # expect: AC101
    for _ in range(60):
        reply = await poller.get_task(GetTaskRequest(id=str(uuid4()), params=TaskQueryParams(id=task.id)))
        state = reply.root.result.status.state
        if state.value in ("completed", "failed", "canceled", "rejected"):
            return state.value
        await asyncio.sleep(10)
    return "still-open"
