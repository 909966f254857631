"""Books a trip through the booking agent."""

from tools.remote import booking_agent


async def book(url: str, message) -> None:
    agent = await booking_agent(url)
    async for update in agent.send_message(message):  # expect: AC103
        print(update)

