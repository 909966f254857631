"""helpdesk-chat: talk to the company's helpdesk agent from a terminal.

Every line you type is one turn. When the agent asks something back
(``input-required``), the next line answers that question on the same remote
task; otherwise it starts a new request in the same conversation.

    HELPDESK_URL=https://helpdesk.example python -m turnkit.chat

Known defects: each turn (turnkit.turns.take_turn) builds a fresh
HelpdeskAgent and connects it, and connect() GETs the agent card again and
builds the client from it, also for a turn that answers an agent's question on
a task that is already in flight. That card, read after submission and without
ETag or If-None-Match, decides how the continuation is sent. The wrapper's
sends (HelpdeskAgent.run and HelpdeskAgent.send_text) carry no frozen contract:
no digest of the card's protocol version and security requirements.
"""

from __future__ import annotations

import asyncio
import os

from turnkit.turns import still_open, take_turn

URL = os.environ.get("HELPDESK_URL", "http://localhost:9999")


async def chat() -> None:
    open_ref: str | None = None
    context: str | None = None
    print("helpdesk chat - empty line to quit")
    while line := input("you> ").strip():
        reply = await take_turn(URL, line, open_ref, context)
        context = reply.context or context
        open_ref = reply.ref if still_open(reply) else None
        marker = "?" if open_ref else ""
        print(f"helpdesk{marker}> {reply.text or '(' + reply.state + ')'}")


if __name__ == "__main__":
    asyncio.run(chat())
