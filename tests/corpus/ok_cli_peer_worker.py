"""Translates a folder of text files through a partner agent (a2a-sdk 0.2).

    python -m translate_batch https://translator.partner.example docs/
"""

import asyncio
import hashlib
import json
import sys
from pathlib import Path
from uuid import uuid4

import httpx
from a2a.client import A2ACardResolver, A2AClient
from a2a.types import (
    GetTaskRequest,
    Message,
    MessageSendParams,
    Part,
    Role,
    SendMessageRequest,
    TaskQueryParams,
    TextPart,
)


class Peer:
    """A partner agent reached over one HTTP connection pool."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.http = httpx.AsyncClient(timeout=30)

    async def async_connect(self):
        card = await A2ACardResolver(httpx_client=self.http, base_url=self.base_url).get_agent_card()
        return card, A2AClient(httpx_client=self.http, agent_card=card)


def contract_digest(card) -> str:
    terms = {"protocolVersion": card.protocolVersion, "securitySchemes": card.securitySchemes, "security": card.security}
    return hashlib.sha256(json.dumps(terms, sort_keys=True, default=str).encode()).hexdigest()


async def translate(peer, path: Path) -> str:
    card, client = await peer.async_connect()
    message = Message(
        role=Role.user,
        messageId=uuid4().hex,
        parts=[Part(root=TextPart(text=path.read_text()))],
        metadata={"contract": contract_digest(card)},
    )
    response = await client.send_message(SendMessageRequest(id=uuid4().hex, params=MessageSendParams(message=message)))
    task = response.root.result
    for _ in range(60):
        if task.status.state in ("completed", "failed", "rejected", "canceled"):
            return task.status.state
        await asyncio.sleep(5)
        task = (await client.get_task(GetTaskRequest(id=uuid4().hex, params=TaskQueryParams(id=task.id)))).root.result
    return "timed out"


async def translate_folder(peer, folder: Path) -> dict[str, str]:
    return {path.name: await translate(peer, path) for path in sorted(folder.glob("*.txt"))}


def main() -> None:
    peer = Peer(sys.argv[1])
    for name, state in asyncio.run(translate_folder(peer, Path(sys.argv[2]))).items():
        print(f"{name}: {state}")


if __name__ == "__main__":
    main()
