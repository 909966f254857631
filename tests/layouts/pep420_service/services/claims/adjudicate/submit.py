"""Puts a claim to the assessor agent (run from services/claims: python -m adjudicate.submit)."""

from adjudicate.channel import assessor

from .wording import summary


async def submit(url: str, claim: dict, message_for):
    agent = await assessor(url)
    async for verdict in agent.send_message(message_for(summary(claim))):  # expect: AC103
        return verdict
