"""A reconciler that settles remote task state after a peer rotated its signed card."""

import asyncio
import time

from a2a.client import A2ACardResolver
from a2a.types import TaskState
from a2a.utils.signing import create_signature_verifier


class Reconciler:
    def __init__(self, resolver: A2ACardResolver, key_provider):
        self.resolver = resolver
        self.verify = create_signature_verifier(key_provider, ["ES256"])
        self.card = None
        self.fetched_at = 0.0

    async def current_card(self):
        # A TTL cache with no validator: every expiry is an unconditional re-read.
        if time.monotonic() - self.fetched_at > 24 * 3600:
            self.card = await self.resolver.get_agent_card()
            self.fetched_at = time.monotonic()
        return self.card

    async def wait_for_matching_card(self, task_digest: str, card_digest) -> None:
        # Retries until the peer's card matches the task's: forever, if it never does.
        while True:
            card = await self.resolver.get_agent_card()
            if card_digest(card) == task_digest:
                return
            await asyncio.sleep(5)

    async def settle(self, task) -> None:
        card = await self.current_card()
        try:
            self.verify(card)
            task.status.state = TaskState.completed  # the card is identity, not task state
        except Exception:
            task.status.state = TaskState.failed
