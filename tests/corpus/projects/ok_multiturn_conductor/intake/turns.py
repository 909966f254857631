"""The session with the claims agent, opened once, and one turn of the conversation."""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass
from uuid import uuid4

import httpx
from a2a.client import A2ACardResolver, Client, ClientConfig, ClientFactory
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


@dataclass(frozen=True)
class Session:
    name: str
    client: Client
    digest: str


def contract_hash(peer_info: AgentCard) -> str:
    dumped = peer_info.model_dump(mode="json", by_alias=True, exclude_none=True)
    contract = {key: dumped.get(key) for key in ("protocolVersion", "securitySchemes", "security")}
    blob = json.dumps(contract, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()


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


async def open_session(http: httpx.AsyncClient, base_url: str) -> Session:
    """Resolve the agent once, before anything is sent, and freeze its contract."""
    peer_info = await A2ACardResolver(http, base_url).get_agent_card()
    if not _covered(peer_info):
        raise PeerNotUsable(f"{peer_info.name} requires {peer_info.security}")
    client = ClientFactory(ClientConfig(httpx_client=http, streaming=False)).create(peer_info)
    return Session(name=peer_info.name, client=client, digest=contract_hash(peer_info))


async def take_turn(
    session: Session,
    text: str,
    task_id: str | None = None,
    context_id: str | None = None,
) -> Task | None:
    message = Message(
        role=Role.user,
        parts=[Part(root=TextPart(text=text))],
        message_id=uuid4().hex,
        task_id=task_id,
        context_id=context_id,
        metadata={"contract_digest": session.digest},
    )
    last: Task | None = None
    async for event in session.client.send_message(message):
        if isinstance(event, Message):
            log.info("claims agent replied without a task: %s", event.parts)
            return None
        last, _update = event
    return last
