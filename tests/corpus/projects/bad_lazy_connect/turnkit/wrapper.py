"""HelpdeskAgent: a lazily connected handle on the remote helpdesk agent (a2a-sdk 0.3)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from uuid import uuid4

import httpx
from a2a.client import A2ACardResolver, Client, ClientConfig, ClientFactory
from a2a.types import Message, Part, Role, TextPart

log = logging.getLogger("turnkit")


@dataclass
class Reply:
    text: str
    state: str
    ref: str | None = None
    context: str | None = None


def _words(parts) -> str:
    return "\n".join(p.root.text for p in parts or [] if isinstance(p.root, TextPart))


def _reply(event) -> Reply:
    if event is None:
        return Reply(text="", state="unknown")
    if isinstance(event, Message):
        return Reply(text=_words(event.parts), state="completed", context=event.context_id)
    current, _update = event
    said = _words(current.status.message.parts) if current.status.message else ""
    produced = "\n".join(_words(a.parts) for a in current.artifacts or [])
    return Reply(text=produced or said, state=current.status.state.value, ref=current.id, context=current.context_id)


class HelpdeskAgent:
    def __init__(self, url: str, *, headers: dict[str, str] | None = None) -> None:
        self.url = url
        self._headers = dict(headers or {})
        self._http: httpx.AsyncClient | None = None
        self._client: Client | None = None
        self._oneshot: Client | None = None

    async def connect(self) -> None:
        self._http = httpx.AsyncClient(timeout=90, headers=self._headers)
        about = await A2ACardResolver(self._http, self.url).get_agent_card()  # expect: AC101
        self._client = ClientFactory(ClientConfig(httpx_client=self._http, streaming=True)).create(about)
        self._oneshot = ClientFactory(ClientConfig(httpx_client=self._http, streaming=False)).create(about)
        log.info("connected to %s at %s", about.name, about.url)

    async def run(self, text: str, context_id: str | None = None) -> Reply:
        if self._client is None:
            await self.connect()
        message = Message(role=Role.user, parts=[Part(root=TextPart(text=text))], message_id=uuid4().hex, context_id=context_id)
        last = None
        async for event in self._client.send_message(message):  # expect: AC103
            last = event
        if last is None:
            log.warning("stream from %s yielded nothing; asking again without streaming", self.url)
            return await self.send_text(text, context_id=context_id)
        return _reply(last)

    async def send_text(self, text: str, task_id: str | None = None, context_id: str | None = None) -> Reply:
        if self._client is None:
            await self.connect()
        message = Message(
            role=Role.user,
            parts=[Part(root=TextPart(text=text))],
            message_id=uuid4().hex,
            task_id=task_id,
            context_id=context_id,
        )
        outcome = None
        async for event in self._oneshot.send_message(message):  # expect: AC103
            outcome = event
        return _reply(outcome)

    async def aclose(self) -> None:
        if self._http is not None:
            await self._http.aclose()
        self._client = self._oneshot = self._http = None
