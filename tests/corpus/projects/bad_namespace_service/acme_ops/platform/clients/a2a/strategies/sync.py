"""Blocking delivery: one request, the last event the SDK yields is the outcome."""

from __future__ import annotations

import logging

from a2a.client import A2AClientError, Client, ClientEvent
from a2a.types import Message

log = logging.getLogger("acme_ops.a2a.sync")


class DeliveryError(RuntimeError):
    """The SDK client gave up on a message."""


class SyncStrategy:
    name = "sync"

    def __init__(self, sdk: Client) -> None:
        self._sdk = sdk

    async def execute(self, message: Message) -> ClientEvent | Message | None:
        outcome = None
        try:
            async for event in self._sdk.send_message(message):
                outcome = event
        except A2AClientError as exc:
            raise DeliveryError(str(exc)) from exc
        log.debug("sync delivery of %s done", message.message_id)
        return outcome

    async def close(self) -> None:
        await self._sdk.close()
