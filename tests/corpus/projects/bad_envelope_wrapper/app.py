"""Travel concierge: a Semantic Kernel chat agent that routes requests to remote A2A agents.

The model is given one tool, ``concierge.send_message(agent_name, task)``; the
router (routing.py) turns the call into an A2A message and hands it to the
``PeerChannel`` for that agent (channel.py, a2a-sdk 0.2 ``A2AClient``), which
wraps it in a JSON-RPC envelope and sends it. Peers are discovered once at
start-up from CONCIERGE_PEERS (peers.py).

    OPENAI_API_KEY=... python app.py

Known defect: the router's delegation is sent with no frozen contract. The
channel is built from the peer's card, but neither the channel nor the router
takes a digest of the card's protocol version and security requirements, and
nothing of the kind goes out with the message, so a peer that later runs the
work under other terms cannot be told apart from one that honours them.
"""

from __future__ import annotations

import asyncio

import httpx
from semantic_kernel.agents import ChatCompletionAgent
from semantic_kernel.connectors.ai.open_ai import OpenAIChatCompletion

from channel import PeerChannel
from peers import configured_urls, discover
from routing import ConciergeRouter

INSTRUCTIONS = """You are a travel concierge. You never answer bookings yourself:
delegate each request to the best agent with send_message and relay its answer.
Available agents:
{roster}"""


async def main() -> None:
    async with httpx.AsyncClient(timeout=90) as http:
        channels = {entry.name: PeerChannel(http, entry) for entry in await discover(http, configured_urls())}
        router = ConciergeRouter(channels)
        agent = ChatCompletionAgent(
            service=OpenAIChatCompletion(ai_model_id="gpt-4o-mini"),
            name="concierge",
            instructions=INSTRUCTIONS.format(roster=router.roster()),
            plugins=[router],
        )
        thread = None
        while True:
            try:
                line = input("you> ").strip()
            except EOFError:
                break
            if not line:
                continue
            reply = await agent.get_response(messages=line, thread=thread)
            thread = reply.thread
            print(f"concierge> {reply.content}")


if __name__ == "__main__":
    asyncio.run(main())
