"""Findings survive semantics-preserving rewrites (issue 25, section 5).

Every rule example and every case of ``tests/corpus/`` is re-checked after each rewrite of
``rewrites.py`` (rename, extract, move, wrap, bound method, partial, sync/async), and its findings are
compared with the original's, mapped through the rewrite. What holds today is pinned:

- rename keeps every finding, on the same line, except in the cases of ``NAME_BASED``,
  each with the names the analysis decides by and why; for those, renaming all but those
  names keeps every finding (so the list says exactly which names matter);
- every other rewrite keeps at least ``FLOORS`` of each rule's findings and gains at most
  ``GAINED`` (the issue's targets are >= 95% kept and nothing gained: raise a floor, or
  lower a ceiling, when the analysis learns a shape).

A rewrite that cannot apply to a case is skipped. ``benchmarks/invariance.py`` prints the
table; its ``--why`` lists each case that loses or gains a finding.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import cache

import pytest
from rewrites import REWRITES, Case, all_cases, compare, other_flavour, renamed_case, renaming, validate

CASES = all_cases()
BY_NAME = {case.name: case for case in CASES}

#: Limits wording the reasons quote.
CARD_PARAMETER = "Limits: a parameter with no caller is taken for a card when its name says Agent Card"

#: case -> (the names renaming must leave for every finding to stay, why)
NAME_BASED: dict[str, tuple[set[str], str]] = {
    "AC102-invalid-1": ({"card"}, CARD_PARAMETER),
    "AC102-invalid-2": ({"card"}, CARD_PARAMETER),
    "AC102-invalid-3": ({"card"}, CARD_PARAMETER),
    "AC104-invalid-1": ({"ttl"}, "Limits: whether a cache expires is read from an expiry word (ttl)"),
    "AC105-invalid-0": ({"contract_hash"}, "Limits: a digest function out of sight is known by its name (*contract_hash*)"),
    "AC105-invalid-1": ({"fresh_card"}, CARD_PARAMETER),
    "AC105-invalid-2": ({"card_etag_now"}, "Limits: card validators out of sight are known by their names (etag)"),
    "AC106-invalid-0": ({"cached_card"}, CARD_PARAMETER),
    "AC106-invalid-1": ({"new_card", "old_card"}, CARD_PARAMETER),
    "AC106-invalid-2": ({"card"}, CARD_PARAMETER),
    "AC201-invalid-2": ({"verify_card_signature"}, "Limits: a signature check out of sight is known by its name"),
    "AC201-invalid-3": ({"card"}, CARD_PARAMETER),
    "bad_httpx_v1_ledger_peer.py": ({"pinned_card"}, CARD_PARAMETER),
    "bad_typed_card_pins.py": ({"card"}, CARD_PARAMETER),
}

#: rewrite -> (rule -> the least share of its findings kept, rule -> the most findings gained)
FLOORS: dict[str, tuple[dict[str, float], dict[str, int]]] = {
    "bound-method": ({'AC101': 1.0, 'AC102': 1.0, 'AC103': 1.0, 'AC104': 1.0, 'AC105': 1.0, 'AC106': 1.0, 'AC107': 1.0, 'AC108': 1.0, 'AC201': 1.0, 'AC202': 1.0}, {}),
    "extract": ({'AC101': 0.96, 'AC102': 1.0, 'AC103': 0.97, 'AC104': 0.97, 'AC105': 1.0, 'AC106': 1.0, 'AC107': 1.0, 'AC108': 1.0, 'AC201': 1.0, 'AC202': 1.0}, {}),
    "move": ({'AC101': 1.0, 'AC102': 1.0, 'AC103': 1.0, 'AC104': 0.97, 'AC105': 1.0, 'AC106': 1.0, 'AC107': 1.0, 'AC108': 1.0, 'AC201': 0.95, 'AC202': 1.0}, {}),
    "partial": ({'AC101': 1.0, 'AC102': 1.0, 'AC103': 1.0, 'AC104': 1.0, 'AC105': 1.0, 'AC106': 1.0, 'AC107': 1.0, 'AC108': 1.0, 'AC201': 1.0, 'AC202': 1.0}, {}),
    "sync-async": ({'AC101': 1.0, 'AC102': 1.0, 'AC103': 1.0, 'AC104': 1.0, 'AC105': 1.0, 'AC106': 1.0}, {}),
    "wrap-attribute": ({'AC101': 1.0, 'AC102': 1.0, 'AC103': 1.0, 'AC104': 1.0, 'AC105': 1.0, 'AC106': 1.0, 'AC107': 1.0, 'AC201': 1.0, 'AC202': 1.0}, {}),
    "wrap-dataclass": ({'AC101': 1.0, 'AC102': 1.0, 'AC103': 1.0, 'AC104': 1.0, 'AC105': 1.0, 'AC106': 1.0, 'AC107': 1.0, 'AC108': 1.0, 'AC201': 1.0, 'AC202': 1.0}, {}),
    "wrap-dict": ({'AC101': 1.0, 'AC102': 1.0, 'AC103': 1.0, 'AC104': 1.0, 'AC105': 1.0, 'AC106': 1.0, 'AC107': 1.0, 'AC108': 1.0, 'AC201': 1.0, 'AC202': 1.0}, {}),
    "wrap-tuple": ({'AC101': 1.0, 'AC102': 1.0, 'AC103': 1.0, 'AC104': 1.0, 'AC105': 1.0, 'AC106': 1.0, 'AC107': 1.0, 'AC108': 1.0, 'AC201': 1.0, 'AC202': 1.0}, {}),
}

#: rewrite -> the least cases it must apply to, where by nature it applies to fewer than a
#: quarter of them (sync-async: httpx clients that no async-only A2A SDK object is handed)
LEAST_APPLIED = {"sync-async": 7}


@cache
def before(name: str) -> list:
    return BY_NAME[name].findings()


def expected_after_rename(case: Case, keep: frozenset[str] = frozenset()):
    renamed, paths, _ = renaming(case, keep)
    return renamed.findings(), sorted((paths[p], line, code) for p, line, code in before(case.name))


def neutral(text: str) -> str:
    return re.sub(r"\b[vfCma][0-9]+\b", "N", text)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_renaming_is_valid_and_stable(case: Case):
    """Renamed code compiles, and renaming it again renames exactly the names the first
    renaming made, in the same places (nothing left over, nothing renamed twice over)."""
    renamed = renaming(case)
    if renamed is None:
        pytest.skip("binds no name that may be renamed")
    first, _, mapping = renamed
    for path, text in first.sources.items():
        compile(text, path, "exec")
    second, _, again = renaming(first)
    assert set(again) == set(mapping.values())
    assert sorted(map(neutral, second.sources.values())) == sorted(map(neutral, first.sources.values()))


def test_renaming_leaves_outside_names():
    """Attributes of outside objects, keywords of outside calls and imported names stay; the
    code's own attributes, parameters and keywords to its own functions are renamed alike."""
    source = (
        "from a2a.client import A2ACardResolver\n"
        "class Peer:\n"
        "    def __init__(self, resolver: A2ACardResolver, limit=3):\n"
        "        self.resolver, self.limit = resolver, limit\n"
        "    async def skills(self, card):\n"
        "        found = await self.resolver.get_agent_card(http_kwargs={'timeout': self.limit})\n"
        "        return [s.id for s in card.skills] + [found.url]\n"
        "def make(resolver):\n"
        "    return Peer(resolver, limit=5)\n"
    )
    renamed, _, mapping = renaming(Case("t", {"t.py": source}))
    text = renamed.sources["t.py"]
    for outside in ("A2ACardResolver", ".get_agent_card(http_kwargs=", "card.skills" if "card" not in mapping else ".skills", ".url", ".id"):
        assert outside in text, outside
    for own in ("Peer", "make", "limit", "resolver", "found"):
        assert re.search(rf"\b{own}\b", text) is None, own
    assert f"{mapping['limit']}=5" in text and f".{mapping['resolver']}.get_agent_card" in text


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_rename_keeps_every_finding_on_its_line(case: Case):
    if renaming(case) is None:
        pytest.skip("binds no name that may be renamed")
    after, expected = expected_after_rename(case)
    if case.name not in NAME_BASED:
        assert after == expected
        return
    names, why = NAME_BASED[case.name]
    assert after != expected, f"{case.name} no longer relies on {names}: drop it from NAME_BASED"
    after, expected = expected_after_rename(case, frozenset(names))
    assert after == expected, f"renamed but for {names}, findings still change ({why})"


def test_name_based_entries_name_cases():
    assert set(NAME_BASED) <= set(BY_NAME)


@pytest.mark.parametrize("rewrite", sorted(FLOORS))
def test_rewrite_keeps_the_findings_it_kept(rewrite: str):
    kept, lost, gained, applied = Counter(), Counter(), Counter(), 0
    for case in CASES:
        for rewritten in REWRITES[rewrite](case, before(case.name)):
            validate(rewritten)
            outcome = compare(before(case.name), rewritten)
            kept, lost, gained = kept + outcome.kept, lost + outcome.lost, gained + outcome.gained
            applied += 1
    assert applied >= LEAST_APPLIED.get(rewrite, len(CASES) // 4), f"{rewrite} applies to {applied} cases only"
    floors, ceilings = FLOORS[rewrite]
    shares = {code: kept[code] / (kept[code] + lost[code]) for code in set(kept) | set(lost)}
    assert {c: s for c, s in shares.items() if s < floors.get(c, 1.0)} == {}, "findings lost (a floor to look at)"
    assert {c: n for c, n in gained.items() if n > ceilings.get(c, 0)} == {}, "findings gained"


def test_a_methods_receiver_is_known_by_its_place_not_its_name():
    """``me.reconnect()`` from a task-update handler re-fetches the card after submission,
    as ``self.reconnect()`` does: the first parameter of a method is its receiver."""
    from a2alint.runner import lint_source

    source = (
        "from a2a.client import ClientFactory\n"
        "from a2a.types import Task\n"
        "\n"
        "class Watcher:\n"
        "    def __init__(me, factory: ClientFactory, base: str):\n"
        "        me.factory, me.base = factory, base\n"
        "\n"
        "    async def on_task(me, task: Task):\n"
        "        if task.status.state == 'working':\n"
        "            await me.reconnect()\n"
        "\n"
        "    async def reconnect(me):\n"
        "        me.client = await ClientFactory.connect(me.base)\n"
        "\n"
        "    def connected(me):\n"
        "        return me.client is not None\n"
    )
    found = [(d.line, d.code) for d in lint_source(source).diagnostics]
    assert found == [(13, "AC101")]
    assert [(d.line, d.code) for d in lint_source(re.sub(r"\bme\b", "self", source)).diagnostics] == found


def test_a_call_through_a_bound_method_is_the_methods_call():
    """``poll = client.get_task`` then ``poll(...)`` polls the task as ``client.get_task(...)``
    does, so a card fetched in the polling loop is fetched after submission."""
    from a2alint.runner import lint_source

    source = (
        "import httpx\n"
        "from a2a.client import A2ACardResolver, A2AClient\n"
        "from a2a.types import GetTaskRequest, TaskQueryParams\n"
        "\n"
        "async def wait_for(http: httpx.AsyncClient, base: str, client: A2AClient, task_id: str):\n"
        "    poll = client.get_task\n"
        "    while True:\n"
        "        reply = await poll(GetTaskRequest(id='1', params=TaskQueryParams(id=task_id)))\n"
        "        peer = await A2ACardResolver(http, base).get_agent_card()\n"
        "        if not peer.capabilities.streaming:\n"
        "            return reply\n"
    )
    direct = source.replace("    poll = client.get_task\n", "").replace("await poll(", "await client.get_task(")
    expected = [(d.line + 1, d.code) for d in lint_source(direct).diagnostics]  # one line further down
    assert ("AC101" in {code for _, code in expected}) and [(d.line, d.code) for d in lint_source(source).diagnostics] == expected


def test_a_call_through_functools_partial_is_the_functions_call_with_its_arguments():
    """``cancel = partial(client.cancel_task, TaskIdParams(id=task.id))`` then ``cancel()``
    cancels the task as the direct call does, when a re-fetched card's skills decide it."""
    from a2alint.runner import lint_source

    source = (
        "import functools\n"
        "from a2a.client import A2ACardResolver\n"
        "from a2a.types import TaskIdParams\n"
        "\n"
        "async def follow(client, resolver: A2ACardResolver, request, skill):\n"
        "    async for task, _ in client.send_message(request):\n"
        "        latest = await resolver.get_agent_card()\n"
        "        stop = functools.partial(client.cancel_task, TaskIdParams(id=task.id))\n"
        "        if skill not in {s.id for s in latest.skills}:\n"
        "            await stop()\n"
    )
    direct = source.replace("        stop = functools.partial(client.cancel_task, TaskIdParams(id=task.id))\n", "").replace(
        "await stop()", "await client.cancel_task(TaskIdParams(id=task.id))")
    expected = sorted((d.line + (d.line >= 8), d.code) for d in lint_source(direct).diagnostics)  # a line added at 8
    assert {"AC101", "AC102"} <= {code for _, code in expected}
    assert sorted((d.line, d.code) for d in lint_source(source).diagnostics) == expected


def test_the_other_flavour_of_an_httpx_client_converts_its_callers_and_keeps_lines():
    """An async client used by its methods only becomes a sync one, and so do the functions
    left with nothing to await; a sync one becomes async with its callers, ``asyncio.run``
    at module level, wherever it is held (a tuple's element included). A client handed to
    an A2A resolver (async only) stays as it is."""
    async_code = (
        "import httpx\n"
        "async def card(http: httpx.AsyncClient, base):\n"
        "    return (await http.get(base + '/.well-known/agent-card.json')).json()\n"
        "async def main(base):\n"
        "    async with httpx.AsyncClient(timeout=5) as http:\n"
        "        return await card(http, base)\n"
    )
    [to_sync] = other_flavour(Case("t", {"t.py": async_code}), [])
    assert to_sync.exact and to_sync.case.sources["t.py"] == (
        "import httpx\n"
        "def card(http: httpx.Client, base):\n"
        "    return (http.get(base + '/.well-known/agent-card.json')).json()\n"
        "def main(base):\n"
        "    with httpx.Client(timeout=5) as http:\n"
        "        return card(http, base)\n"
    )
    sync_code = (
        "import sys\n"
        "import httpx\n"
        "class Peer:\n"
        "    def __init__(self, base):\n"
        "        self.http, self.base = httpx.Client(), base\n"
        "        self.link = httpx.Client()\n"
        "    def describe(self):\n"
        "        return self.link.get(self.base).json()\n"
        "    def shut(self):\n"
        "        self.link.close()\n"
        "if __name__ == '__main__':\n"
        "    peer = Peer(sys.argv[1])\n"
        "    print(peer.describe())\n"
        "    peer.shut()\n"
    )
    [to_async] = other_flavour(Case("p", {"p.py": sync_code}), [])
    converted = to_async.case.sources["p.py"].splitlines()
    assert converted[0] == "import asyncio; import sys" and converted[4] == "        self.http, self.base = httpx.AsyncClient(), base"
    assert converted[5:10] == ["        self.link = httpx.AsyncClient()", "    async def describe(self):",
                               "        return (await self.link.get(self.base)).json()", "    async def shut(self):",
                               "        (await self.link.aclose())"]
    assert converted[12:] == ["    print(asyncio.run(peer.describe()))", "    asyncio.run(peer.shut())"]
    handed = async_code.replace("(await http.get(base + '/.well-known/agent-card.json')).json()",
                                "await A2ACardResolver(http, base).get_agent_card()")
    assert other_flavour(Case("h", {"h.py": "from a2a.client import A2ACardResolver\n" + handed}), []) == []
