"""Values in the shapes real clients give them: what a ``with`` binds is what the context
manager it enters yields. Each finding is asked for with the places it names (its line
and its notes), so the test holds wherever the rule chooses to report a fetch made
inside a helper."""

from __future__ import annotations

import textwrap

from a2alint.runner import lint_source


def places(source: str, code: str) -> list[set[int]]:
    """For each ``code`` finding, the lines it names: its own and its notes'."""
    result = lint_source(textwrap.dedent(source), path="shape.py")
    assert result.errors == []
    return [{d.line, *(r.line for r in d.related)} for d in result.diagnostics if d.code == code]


def line_of(source: str, text: str) -> int:
    return next(i for i, line in enumerate(textwrap.dedent(source).splitlines(), 1) if text in line)


YIELDED_CLIENT = """
    import contextlib
    import uuid

    import httpx
    from a2a.client import ClientConfig, ClientFactory
    from a2a.types import Message, Part, Role, TextPart


    @contextlib.asynccontextmanager
    async def opened(endpoint: str):
        transport = httpx.AsyncClient(timeout=60)
        try:
            yield await ClientFactory.connect(endpoint, client_config=ClientConfig(httpx_client=transport))
        finally:
            await transport.aclose()


    async def reply_to(endpoint: str, pending_task: str, words: str, digest: str):
        async with opened(endpoint) as remote:
            note = Message(role=Role.user, message_id=uuid.uuid4().hex, task_id=pending_task,
                           parts=[Part(root=TextPart(text=words))], metadata={"contract_hash": digest})
            async for item in remote.send_message(note):
                return item
"""


def test_a_client_yielded_by_a_context_manager_is_the_client_with_binds():
    found = places(YIELDED_CLIENT, "AC101")
    fetch, entered = line_of(YIELDED_CLIENT, "ClientFactory.connect("), line_of(YIELDED_CLIENT, "async with opened(")
    assert any({fetch, entered} <= lines for lines in found), found


def test_the_same_context_manager_before_a_new_task_decides_nothing_after_submission():
    source = YIELDED_CLIENT.replace("task_id=pending_task,", "")
    assert places(source, "AC101") == []
