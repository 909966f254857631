"""helpdesk-chat: talk to the company's helpdesk agent from a terminal.

Every line you type is one turn. When the agent asks something back
(``input-required``), the next line answers that question on the same remote
task; otherwise it starts a new request in the same conversation.

    HELPDESK_URL=https://helpdesk.example python -m turnkit.chat

One HelpdeskAgent serves the whole conversation. It connects lazily, on the
first turn, before anything is sent: it reads the agent card once, builds the
clients from it and seals the contract (a sha256 over the canonical JSON of
the card's protocol version and security requirements); every message it
sends carries that seal, and answers to the agent's questions go out on the
same clients, with no second read of the card.
"""

from __future__ import annotations

import asyncio
import os

from turnkit.turns import still_open, take_turn, turn_headers
from turnkit.wrapper import HelpdeskAgent

URL = os.environ.get("HELPDESK_URL", "http://localhost:9999")


async def chat() -> None:
    open_ref: str | None = None
    context: str | None = None
    agent = HelpdeskAgent(URL, headers=turn_headers())
    print("helpdesk chat - empty line to quit")
    try:
        while line := input("you> ").strip():
            reply = await take_turn(agent, line, open_ref, context)
            context = reply.context or context
            open_ref = reply.ref if still_open(reply) else None
            marker = "?" if open_ref else ""
            print(f"helpdesk{marker}> {reply.text or '(' + reply.state + ')'}")
    finally:
        await agent.aclose()


if __name__ == "__main__":
    asyncio.run(chat())
