"""One turn of the intake conversation: resolve the claims agent and send one message."""

from __future__ import annotations

import logging
from uuid import uuid4

import httpx
from a2a.client import A2ACardResolver, ClientConfig, ClientFactory
from a2a.types import (
    AgentCard,
    HTTPAuthSecurityScheme,
    Message,
    OAuth2SecurityScheme,
    Part,
    Role,
    SecurityScheme,
    Task,
    TextPart,
)

log = logging.getLogger("intake.turns")


class PeerNotUsable(RuntimeError):
    """The claims agent asks for a credential this conductor does not hold."""


def _usable(scheme: SecurityScheme) -> bool:
    root = scheme.root
    if isinstance(root, HTTPAuthSecurityScheme):
        return root.scheme.lower() == "bearer"
    return isinstance(root, OAuth2SecurityScheme)


def _covered(peer_info: AgentCard) -> bool:
    schemes = peer_info.security_schemes or {}
    for requirement in peer_info.security or [{}]:
        if all(name in schemes and _usable(schemes[name]) for name in requirement):
            return True
    return False


async def take_turn(
    http: httpx.AsyncClient,
    base_url: str,
    text: str,
    task_id: str | None = None,
    context_id: str | None = None,
) -> Task | None:
    resolver = A2ACardResolver(http, base_url)
    peer_info = await resolver.get_agent_card()  # expect: AC101, AC104
    if not _covered(peer_info):
        raise PeerNotUsable(f"{peer_info.name} requires {peer_info.security}")
    client = ClientFactory(ClientConfig(httpx_client=http, streaming=False)).create(peer_info)
    message = Message(
        role=Role.user,
        parts=[Part(root=TextPart(text=text))],
        message_id=uuid4().hex,
        task_id=task_id,
        context_id=context_id,
    )
    last: Task | None = None
    async for event in client.send_message(message):  # expect: AC103
        if isinstance(event, Message):
            log.info("claims agent replied without a task: %s", event.parts)
            return None
        last, _update = event
    return last
