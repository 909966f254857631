"""Reconciler for tasks delegated to a peer that signs its Agent Card.

Uses the JSON-RPC A2AClient (awaited send_message returning SendMessageResponse,
as in a2a-sdk 0.2 and the 0.3 legacy client) and the 0.3.21+ signature verifier.
Bugs: a verified card is taken as proof of the task's state, a changed card
digest cancels the in-flight task, the loop waiting for the old card to come
back has no bound and re-reads without a validator, and the digest the reconciler
compares against is never captured when the task is sent.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from uuid import uuid4

import httpx
from a2a.client import A2ACardResolver, A2AClient
from a2a.types import AgentCard, CancelTaskRequest, SendMessageRequest, Task, TaskIdParams, TaskState
from a2a.utils.signing import SignatureVerificationError, create_signature_verifier

log = logging.getLogger("reconciler")


def card_digest(card: AgentCard) -> str:
    contract = {"protocolVersion": card.protocol_version, "security": card.security or []}
    return hashlib.sha256(json.dumps(contract, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


class SignedPeerReconciler:
    def __init__(self, http: httpx.AsyncClient, base_url: str, key_provider):
        self.resolver = A2ACardResolver(http, base_url)
        self.client = A2AClient(http, url=base_url)
        self.verify = create_signature_verifier(key_provider, ["ES256", "RS256"])

    async def submit(self, request: SendMessageRequest) -> Task:
        response = await self.client.send_message(request)  # expect: AC103
        return response.root.result

    async def settle(self, task: Task) -> None:
        recorded = (task.metadata or {}).get("card_digest")
        card = await self.resolver.get_agent_card()  # expect: AC101
        try:
            self.verify(card)
        except SignatureVerificationError:
            log.error("card for %s failed verification", task.id)
            task.status.state = TaskState.failed  # expect: AC105, AC201
            return
        if card_digest(card) != recorded:
            log.warning("peer card changed under %s; cancelling", task.id)
            cancel = CancelTaskRequest(id=str(uuid4()), params=TaskIdParams(id=task.id))
            await self.client.cancel_task(cancel)  # expect: AC105
            return
        task.status.state = TaskState.completed  # expect: AC201

    async def wait_for_rotation_back(self, recorded: str) -> AgentCard:
        """Blocks until the peer serves the card the task was created under again."""
        while True:  # expect: AC202
            card = await self.resolver.get_agent_card()  # expect: AC104
            if card_digest(card) == recorded:
                return card
            log.info("peer still serves a different card; retrying in 5s")
            await asyncio.sleep(5)
