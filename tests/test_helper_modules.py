"""A helper module that imports nothing of A2A and calls the SDK only on what its callers
hand it (``source.get_agent_card()``) is A2A code of the project: it is checked, and its
findings are reported there, whatever words it shares with its callers."""

from __future__ import annotations

import textwrap

from a2alint.runner import lint_project

STREAM_LOOP = '''
import httpx
from a2a.client import A2ACardResolver, ClientConfig, ClientFactory
from a2a.types import Message, Part, Role, TaskIdParams, TextPart

from tools.profile import peer_profile

WANTED = "deep-research"


async def delegate(http: httpx.AsyncClient, url: str, question: str, digest: str):
    resolver = A2ACardResolver(http, url)
    card = await resolver.get_agent_card()
    client = ClientFactory(ClientConfig(httpx_client=http)).create(card)
    message = Message(role=Role.user, message_id="m-1", parts=[Part(root=TextPart(text=question))],
                      metadata={"contract_digest": digest})
    async for task, _ in client.send_message(message):
        latest = await peer_profile(resolver)
        if WANTED not in {s.id for s in latest.skills}:
            await client.cancel_task(TaskIdParams(id=task.id))
            return None
    return None
'''

PROFILE = '''
async def peer_profile(source):
    return await source.get_agent_card()
'''

WAIT = '''
import asyncio


async def first_answer(src, pause=1.0):
    while True:
        try:
            return await src.get_agent_card()
        except OSError:
            await asyncio.sleep(pause)
'''

STARTUP = '''
import httpx
from a2a.client import A2ACardResolver

from waits import first_answer


async def start(url: str):
    async with httpx.AsyncClient() as http:
        return await first_answer(A2ACardResolver(http, url))
'''


def found(sources: dict[str, str]) -> set[tuple[str, str]]:
    results = lint_project({path: textwrap.dedent(text).lstrip() for path, text in sources.items()})
    return {(path, d.code) for path, result in results.items() for d in result.diagnostics}


def test_a_fetch_in_a_helper_module_called_after_the_send_is_reported_there():
    findings = found({"tools/__init__.py": "", "tools/profile.py": PROFILE, "desk.py": STREAM_LOOP})
    assert {("tools/profile.py", "AC101"), ("tools/profile.py", "AC104")} <= findings


def test_an_unbounded_retry_in_a_helper_module_is_reported_there():
    assert ("waits.py", "AC202") in found({"waits.py": WAIT, "startup.py": STARTUP})


def test_a_helper_module_the_project_does_not_call_with_an_a2a_value_stays_silent():
    """Method names let a module into the analysis; they never make a finding by themselves."""
    assert found({"waits.py": WAIT, "startup.py": STARTUP.replace("A2ACardResolver(http, url)", "http")}) == set()
