"""A host agent that delegates research tasks to a peer over A2A (a2a-sdk 0.3).

It has the bugs a2alint exists to catch: it re-fetches the peer's card while the
task is in flight and cancels when a skill "disappears", and it never freezes
the contract it sent under.
"""

import logging

import httpx
from a2a.client import A2ACardResolver, ClientConfig, ClientFactory
from a2a.types import Message, Part, Role, TaskIdParams, TextPart

log = logging.getLogger("host")
RESEARCH_SKILL = "deep-research"


class ResearchDelegate:
    def __init__(self, peer_url: str, http: httpx.AsyncClient):
        self.peer_url = peer_url
        self.http = http
        self.resolver = A2ACardResolver(http, peer_url)

    async def delegate(self, question: str) -> str | None:
        card = await self.resolver.get_agent_card()
        client = ClientFactory(ClientConfig(httpx_client=self.http)).create(card)
        message = Message(role=Role.user, message_id="m-1", parts=[Part(root=TextPart(text=question))])
        answer = None
        async for task, update in client.send_message(message):
            # "Just checking the peer is still healthy": a negotiation event on many peers.
            latest = await self.resolver.get_agent_card()
            if RESEARCH_SKILL not in {skill.id for skill in latest.skills}:
                log.warning("peer dropped %s; cancelling", RESEARCH_SKILL)
                await client.cancel_task(TaskIdParams(id=task.id))
                return None
            if latest.security_schemes != card.security_schemes:
                await client.cancel_task(TaskIdParams(id=task.id))
                return None
            if task.status.state == "completed":
                answer = task.artifacts[0].parts[0].root.text
        return answer
