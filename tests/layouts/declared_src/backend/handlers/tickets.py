"""Escalates a support ticket nobody could solve."""

from connectors.escalation import escalation_desk


async def escalate(url: str, ticket_message):
    desk = await escalation_desk(url)
    async for reply in desk.send_message(ticket_message):  # expect: AC103
        return reply
