"""A re-fetched card that decides a cancel is two findings, each where its fix goes.

AC101 (the card fetched after submission decides something) sits on the fetch; AC102
(a cancel on a skill's absence) and AC105 (a cancel on a card change) sit on the cancel.
They are two mistakes, not one said twice: each is found without the other (deciding
on the re-fetched card by a resend is AC101 alone; cancelling on the card read before
sending, or on one pushed to the client, is AC102 or AC105 alone), so neither finding
is folded into the other (issue 26). The stranger corpus labels both on the same
decision (``a2a_rest_cli.py``, ``dataroom_watch_v1.py``, ``payroll_batch_v02.py``...).
"""

from __future__ import annotations

import textwrap

import pytest

from a2alint.runner import lint_source

RULES = ("AC101", "AC102", "AC105")

SKILL_CANCEL_ON_REFETCH = """
from a2a.client import A2ACardResolver
from a2a.types import TaskIdParams


async def translate(client, resolver: A2ACardResolver, message):
    async for task, update in client.send_message(message):
        card = await resolver.get_agent_card()
        if "translate" not in {s.id for s in card.skills}:
            await client.cancel_task(TaskIdParams(id=task.id))
"""

CONTRACT_CANCEL_ON_REFETCH = """
import hashlib
import json

import httpx


def contract_of(card: dict) -> str:
    terms = {k: card.get(k) for k in ("protocolVersion", "securitySchemes", "security")}
    return hashlib.sha256(json.dumps(terms, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def watch(base: str, task_id: str, frozen: str) -> None:
    while True:
        card = httpx.get(base + "/.well-known/agent-card.json").json()
        if contract_of(card) != frozen:
            httpx.post(base, json={"jsonrpc": "2.0", "id": 1, "method": "tasks/cancel", "params": {"id": task_id}})
            return
        status = httpx.post(base, json={"jsonrpc": "2.0", "id": 2, "method": "tasks/get", "params": {"id": task_id}}).json()
        if status["result"]["status"]["state"] in ("completed", "failed", "canceled"):
            return
"""

SKILL_CANCEL_ON_CARD_READ_BEFORE = """
from a2a.client import A2ACardResolver
from a2a.types import TaskIdParams


async def translate(client, resolver: A2ACardResolver, message):
    card = await resolver.get_agent_card()
    async for task, update in client.send_message(message):
        if "translate" not in {s.id for s in card.skills}:
            await client.cancel_task(TaskIdParams(id=task.id))
"""

RESEND_ON_REFETCH = """
from a2a.client import A2ACardResolver


async def translate(client, resolver: A2ACardResolver, message, fallback):
    async for task, update in client.send_message(message):
        card = await resolver.get_agent_card()
        if "translate" not in {s.id for s in card.skills}:
            await fallback.send_message(message)
"""

CONTRACT_CANCEL_ON_PUSHED_CARD = """
from a2a.types import TaskIdParams


async def on_card_pushed(client, pushed, task_id, frozen, contract_hash):
    if contract_hash(pushed) != frozen:
        await client.cancel_task(TaskIdParams(id=task_id))
"""


def found(text: str) -> list[tuple[int, str]]:
    result = lint_source(textwrap.dedent(text).lstrip("\n"), select=RULES)
    assert result.errors == []
    return sorted((d.line, d.code) for d in result.diagnostics)


@pytest.mark.parametrize(
    "text, expected",
    [
        pytest.param(SKILL_CANCEL_ON_REFETCH, [(7, "AC101"), (9, "AC102")], id="skill-cancel-on-a-refetched-card"),
        pytest.param(CONTRACT_CANCEL_ON_REFETCH, [(14, "AC101"), (16, "AC105")], id="contract-cancel-on-a-refetched-card"),
    ],
)
def test_one_decision_is_reported_at_the_fetch_and_at_the_cancel(text, expected):
    assert found(text) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        pytest.param(SKILL_CANCEL_ON_CARD_READ_BEFORE, [(9, "AC102")], id="skill-cancel-without-a-refetch"),
        pytest.param(CONTRACT_CANCEL_ON_PUSHED_CARD, [(6, "AC105")], id="contract-cancel-without-a-refetch"),
        pytest.param(RESEND_ON_REFETCH, [(6, "AC101")], id="refetch-deciding-without-a-cancel"),
    ],
)
def test_each_mistake_is_found_without_the_other(text, expected):
    assert found(text) == expected


def test_silencing_one_leaves_the_other():
    """``# noqa: AC101`` on the fetch says the re-fetch is meant; the cancel is still judged."""
    text = textwrap.dedent(SKILL_CANCEL_ON_REFETCH).replace(
        "card = await resolver.get_agent_card()", "card = await resolver.get_agent_card()  # noqa: AC101"
    )
    assert found(text) == [(9, "AC102")]
