"""Forwards an intake form to the triage partner and keeps the partner's answer."""

from relaykit.peers import open_peer


async def forward_form(http, triage_url: str, form_message) -> list:
    peer = await open_peer(http, triage_url)
    answers = []
    async for answer in peer.send_message(form_message):  # expect: AC103
        answers.append(answer)
    return answers
