"""Escalates an intake the triage partner could not place."""

import relaykit


async def escalate(http, desk_url: str, note) -> object:
    desk = await relaykit.open_peer(http, desk_url)
    last = None
    async for reply in desk.send_message(note):  # expect: AC103
        last = reply
    return last
