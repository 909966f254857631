"""Posts today's forecast to the team's chat."""

from tools.remote import booking_agent


async def post(url: str, forecast: str) -> None:
    hook = await booking_agent(url)
    async for status in hook.send_message(forecast):
        print(status)

