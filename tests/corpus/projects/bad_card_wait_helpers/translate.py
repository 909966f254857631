"""Runs one translation through a peer agent once it is up (a2a-sdk 1.x)."""

import asyncio
import hashlib
import json
import sys
from uuid import uuid4

import httpx
from a2a.client import A2ACardResolver, ClientConfig, ClientFactory
from a2a.types import Message, Part, Role, SendMessageRequest
from google.protobuf.json_format import MessageToDict

from waiting import card_when_up


def contract_hash(card) -> str:
    published = MessageToDict(card)
    terms = {k: published.get(k) for k in ("supportedInterfaces", "securitySchemes", "securityRequirements")}
    return hashlib.sha256(json.dumps(terms, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


async def translate(url: str, text: str) -> None:
    async with httpx.AsyncClient(timeout=30) as http:
        card = await card_when_up(A2ACardResolver(http, url))
        client = ClientFactory(ClientConfig(httpx_client=http)).create(card)
        request = SendMessageRequest(message=Message(role=Role.ROLE_USER, message_id=uuid4().hex, parts=[Part(text=text)]))
        request.metadata.update({"contract_hash": contract_hash(card)})
        async for event in client.send_message(request):
            print(event)


if __name__ == "__main__":
    asyncio.run(translate(sys.argv[1], " ".join(sys.argv[2:])))
