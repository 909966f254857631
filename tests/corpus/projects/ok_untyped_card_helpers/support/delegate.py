"""Delegates research questions to a peer agent (a2a-sdk 0.3)."""

from uuid import uuid4

import httpx
from a2a.client import A2ACardResolver, ClientConfig, ClientFactory
from a2a.types import Message, Part, Role, TextPart

from support.cardtools import read_card, skill_ids

SKILL = "deep-research"


class Delegate:
    def __init__(self, http: httpx.AsyncClient, url: str, contract_digest: str):
        self.http = http
        self.resolver = A2ACardResolver(http, url)
        self.contract_digest = contract_digest

    async def ask(self, question: str):
        card = await read_card(self.resolver)
        if SKILL not in skill_ids(card):  # routed before sending: no task exists yet
            return None
        client = ClientFactory(ClientConfig(httpx_client=self.http)).create(card)
        message = Message(
            role=Role.user,
            message_id=uuid4().hex,
            parts=[Part(root=TextPart(text=question))],
            metadata={"contract_digest": self.contract_digest},
        )
        async for task, _ in client.send_message(message):
            if task.status.state == "completed":
                return task
        return None
