"""An untyped parameter has the type of what its callers pass, when every call of its
function in the project passes an instance of one project class: ``run(peer)`` called
only as ``run(Peer(url))`` calls ``Peer``'s methods, as ``run(peer: Peer)`` would. Its
type is never taken from which project class defines a method of the name it calls:
callers that pass another class's objects decide."""

from __future__ import annotations

import textwrap

from a2alint.runner import lint_source

LINKS = """
    import asyncio
    from uuid import uuid4

    import httpx
    from a2a.client import A2ACardResolver, ClientConfig, ClientFactory
    from a2a.types import Message, Part, Role, TaskQueryParams, TextPart


    class DialedLink:
        '''Dials the agent again each time: its card is read anew.'''

        def __init__(self, url, http):
            self.url, self.http = url, http

        async def async_connect(self):
            card = await A2ACardResolver(self.http, self.url).get_agent_card()
            return ClientFactory(ClientConfig(httpx_client=self.http)).create(card)


    class KeptLink:
        '''A client made once, before any task, and handed out again.'''

        def __init__(self, client):
            self.client = client

        async def async_connect(self):
            return self.client


    async def follow(link, task_id):
        for _ in range(30):
            client = await link.async_connect()
            task = await client.get_task(TaskQueryParams(id=task_id))
            if task.status.state.value in ("completed", "failed"):
                return task
            await asyncio.sleep(2)


    async def start(http, url, text):
        client = await DialedLink(url, http).async_connect()
        message = Message(role=Role.user, message_id=uuid4().hex, parts=[Part(root=TextPart(text=text))])
        async for event in client.send_message(message):
            if isinstance(event, tuple):
                return client, event[0].id
"""


def codes(source: str) -> list[str]:
    result = lint_source(textwrap.dedent(source), path="links.py")
    assert result.errors == []
    return sorted(d.code for d in result.diagnostics if d.code in ("AC101", "AC104"))


def test_a_parameter_every_caller_passes_one_class_to_calls_that_class():
    caller = """

    async def run(http, url, text):
        _, task_id = await start(http, url, text)
        return await follow(DialedLink(url, http), task_id)
    """
    assert codes(LINKS + caller) == ["AC101", "AC104"]


def test_a_parameter_whose_callers_pass_other_classes_calls_no_class_by_its_method_name():
    caller = """

    async def run(http, url, text):
        client, task_id = await start(http, url, text)
        return await follow(KeptLink(client), task_id)
    """
    assert codes(LINKS + caller) == []

