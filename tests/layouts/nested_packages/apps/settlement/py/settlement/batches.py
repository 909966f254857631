"""Sends a day's batch to the ledger's partner and follows it to the end."""

from uuid import uuid4

from a2a.types import Message, Part, Role, TextPart

from agentlink import published_card
from ledger.partners import PARTNERS, partner_client


async def settle_batch(http, ledger_id: str, batch: str) -> str:
    client = await partner_client(http, ledger_id)
    request = Message(role=Role.user, message_id=uuid4().hex, parts=[Part(root=TextPart(text=batch))])
    state = "sent"
    async for event in client.send_message(request):  # expect: AC103
        latest = await published_card(http, PARTNERS[ledger_id])
        if "settle-batch" not in {skill.id for skill in latest.skills}:
            return "partner withdrew settlement"
        if isinstance(event, tuple):
            state = event[0].status.state.value
    return state
