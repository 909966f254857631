"""Asks the assessor to look at a claim again."""

from .channel import assessor


async def appeal(url: str, request):
    agent = await assessor(url)
    return [reply async for reply in agent.send_message(request)]  # expect: AC103
