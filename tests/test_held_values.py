"""Values held on their way and read back: a tuple a local holds and then unpacks
(``entry = (card, time.time())``; ``card, fetched_at = entry``) gives each name its own
element, whatever that element is (a minted id, a condition, a fetch)."""

from __future__ import annotations

import textwrap

from a2alint.runner import lint_source


def codes(source: str) -> list[tuple[int, str]]:
    result = lint_source(textwrap.dedent(source), path="held.py")
    assert result.errors == []
    return sorted((d.line, d.code) for d in result.diagnostics)


def line_of(source: str, text: str) -> int:
    return next(i for i, line in enumerate(textwrap.dedent(source).splitlines(), 1) if text in line)


MINTED_TICKET = """
    import time
    import uuid

    import requests


    class Dispatcher:
        def __init__(self, base: str):
            self.base = base

        def dispatch(self, text: str) -> dict:
            card = requests.get(f"{self.base}/.well-known/agent-card.json", timeout=5).json()
            ticket = (uuid.uuid4().hex, time.monotonic())
            task_id, issued_at = ticket
            body = {"jsonrpc": "2.0", "id": task_id, "method": "message/send",
                    "params": {"message": {"role": "user", "messageId": task_id, "taskId": task_id,
                                           "parts": [{"kind": "text", "text": text}]}}}
            return requests.post(card["url"], json=body, timeout=30).json()
"""


def test_an_id_minted_into_a_ticket_pair_is_a_new_task_not_a_submitted_one():
    assert [code for _, code in codes(MINTED_TICKET) if code == "AC101"] == []


HELD_VERDICT = """
    import time

    from a2a.client import A2ACardResolver
    from a2a.types import TaskIdParams, TaskQueryParams, TaskState


    async def watch(client, resolver: A2ACardResolver, task_id: str, skill: str):
        task = await client.get_task(TaskQueryParams(id=task_id))
        if task.status.state != TaskState.working:
            return
        snapshot = (await resolver.get_agent_card(), time.monotonic())
        card, fetched_at = snapshot
        offered = {s.id for s in card.skills}
        verdict = (skill not in offered, fetched_at)
        dropped, seen_at = verdict
        if dropped:
            await client.cancel_task(TaskIdParams(id=task_id))
"""


def test_a_skill_check_kept_in_a_pair_with_its_time_still_cancels_on_skill_absence():
    assert (line_of(HELD_VERDICT, "cancel_task("), "AC102") in codes(HELD_VERDICT)
