"""Sends one request to a peer agent and records the terms it was sent under.

The digest is of the terms as canonical JSON (sorted keys, no spaces), so every
producer of the same terms gets the same digest.
"""

import asyncio
import sys
import uuid

import httpx
from a2a.client import A2ACardResolver, A2AClient
from a2a.types import Message, MessageSendParams, Part, Role, SendMessageRequest, TextPart

from pinning import terms_digest


async def ask(base_url: str, text: str) -> tuple[str, object]:
    async with httpx.AsyncClient(timeout=30) as http:
        card = await A2ACardResolver(http, base_url).get_agent_card()
        pinned = terms_digest(card)
        client = A2AClient(http, agent_card=card)
        message = Message(
            role=Role.user,
            parts=[Part(root=TextPart(text=text))],
            message_id=uuid.uuid4().hex,
            metadata={"contract_digest": pinned},
        )
        reply = await client.send_message(SendMessageRequest(id=uuid.uuid4().hex, params=MessageSendParams(message=message)))
        return pinned, reply


if __name__ == "__main__":
    print(asyncio.run(ask(sys.argv[1], sys.argv[2])))
