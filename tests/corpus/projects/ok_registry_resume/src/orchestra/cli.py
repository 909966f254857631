"""orchestra CLI: plan a trip through a three-step workflow of registry-resolved A2A agents.

Each step (an ``AgentNode``) asks the MCP agent registry for a suitable agent,
builds an a2a-sdk ``A2AClient`` from the card the registry returns and streams
the step's message to it. When an agent asks a question (``input-required``)
the workflow pauses; the answer resumes the paused node, which continues the
same remote task.

    python -m orchestra.cli "Lisbon, 4 nights in May, two adults"

The workflow resolves every step's agent once, when it starts: each node keeps
the card the registry returned, the client built from it and the frozen
contract (a sha256 over the canonical JSON of the card's protocol version and
security requirements), which travels in every message's metadata. A resume
reuses the stored client and card; the registry is not asked again while the
remote task is in flight.
"""

from __future__ import annotations

import asyncio
import sys

import httpx

from orchestra.graph import Workflow
from orchestra.node import AgentNode

PLAN = (
    ("flights", "an agent that searches and books flights"),
    ("hotel", "an agent that books hotels"),
    ("itinerary", "an agent that writes day-by-day travel itineraries"),
)


async def main(brief: str) -> int:
    async with httpx.AsyncClient(timeout=httpx.Timeout(30, read=300)) as http:
        flow = Workflow([AgentNode(key, query, http) for key, query in PLAN])
        progress = flow.start(brief)
        while True:
            async for line in progress:
                print(line)
            waiting = flow.paused
            if waiting is None:
                break
            print(f"\n{waiting.key} asks: {waiting.question}")
            progress = flow.resume(input("answer> "))
        for node in flow.nodes:
            print(f"== {node.key} ({node.phase.value})\n" + "\n".join(node.results))
    return 0 if all(n.phase.value == "done" for n in flow.nodes) else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main(" ".join(sys.argv[1:]) or "a weekend in Porto")))
