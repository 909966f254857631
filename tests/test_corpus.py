"""Whole-file A2A client programs, linted with the default rules.

``tests/corpus/`` holds realistic client programs (host and routing agents,
CLIs, SDK wrappers, reconcilers) over every SDK shape a2alint covers.
``ok_*.py`` files are correct code and must stay silent; ``bad_*.py`` files
mix the bugs of DOMAIN.md into realistic code. Each expected finding is
marked with ``# expect: CODE[, CODE]`` on the line where the diagnostic
starts. The markers always state the correct expectation: where the linter
is known to be wrong, the file is listed in ``KNOWN_GAPS`` (a strict xfail),
so the gap stays visible and the entry must go once the linter is fixed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_rule_examples import expected

from a2alint.runner import lint_source

CORPUS = Path(__file__).parent / "corpus"
FILES = sorted(CORPUS.glob("*.py"))

#: File -> why the linter does not report exactly the marked findings yet.
KNOWN_GAPS = {
    "ok_v02_research_host.py": (
        "FP AC103 line 109: `notifier = SlackNotifier(...)` is a class defined in this module, but "
        "`notifier.send_message(...)` still gets the A2A send role by method name"
    ),
    "ok_v03_trip_orchestrator.py": (
        "FP AC105 line 82: `self.holds.cancel_task(job)` (a module-defined Celery HoldQueue) gets the cancel "
        "role by name, and an ETag of an unrelated HTTP resource (the seat map) counts as a card-change guard"
    ),
    "ok_adk_concierge.py": (
        "FP AC107 line 36: `card.model_dump(mode='json', include=CONTRACT_FIELDS)` keeps only the contract "
        "fields, but model_dump is taken for the whole card whatever its include=/exclude= say"
    ),
    "ok_v03_connect_batch_translate.py": (
        "FP AC103 line 59: the digest arrives as a parameter and rides in `Message(metadata={'contract_digest': "
        "frozen})` bound before the send; only the send call's own arguments are searched for it"
    ),
    "bad_v03_skill_router.py": (
        "FN AC104 line 55: a card fetch on every stream update is taken for a retry-until-success because a "
        "`return` follows it in the loop (after the cancel, or when the task completed)"
    ),
    "bad_legacy_signed_reconciler.py": (
        "FN AC103 line 39: a card_digest() *comparison* in another method of the class counts as the send's "
        "capture; FN AC105 line 49: a failed transition in the `except` of a signature check is not a guarded "
        "transition for AC105; FN AC201 line 56: a state change after `try: verify(card) except: return` is "
        "not seen as decided by the verification; FN AC104 line 61: re-reading until the digest matches is "
        "taken for a retry-until-success"
    ),
    "bad_requests_watch_cli.py": (
        "FN AC101+AC104 line 44: `session.get(base_url + CARD_PATH)` with a module-level "
        "`CARD_PATH = '/.well-known/agent-card.json'` is not recognised as a card fetch"
    ),
    "bad_v1_review_delegate.py": (
        "FN AC104 line 64: the If-None-Match/ETag of an unrelated glossary download in the same class counts as "
        "the card's validator; FN AC106 line 66: `self.card` is not card data inside review(): neither its "
        "`self.card: AgentCard | None` annotation nor `self.factory = factory` (factory: ClientFactory) types "
        "the attributes, so `self.card = await self.client.get_extended_agent_card(...)` stays untyped"
    ),
    "bad_crewai_peer_directory.py": (
        "FN AC101 line 41 and AC102 line 64: `directory.card(name)` on an instance of a module-defined class is "
        "neither followed as a helper (fetch after submission) nor typed as a card (`fresh.skills`)"
    ),
    "bad_python_a2a_escalation.py": (
        "FP AC103 lines 33, 42, 47: `chat: ChatOpsBot` (defined in this module) has its send_message taken for an "
        "A2A send; FN AC104 line 44: the `return` after the skill check makes the poll loop look like a retry"
    ),
    "bad_aiohttp_rest_mirror.py": (
        "FP AC104 line 35: `async with session.get(card_url) as resp` counts its own `as resp` as a card "
        "already held; FP AC201 line 54: the reused name `resp` (now GET /tasks/{id}) is still the card; "
        "FN AC101 line 46 and AC105 line 51: REST `GET /tasks/{id}` is not a get-task, so the refresh loop is "
        "not seen as running after submission"
    ),
    "bad_httpx_v1_ledger_peer.py": (
        "FN AC103 line 43: v1 `SendMessage` passed positionally to a JSON-RPC helper is not a send (slash names "
        "are); FN AC101+AC104 line 39: `peer.fetch_card()` on a module-defined wrapper class is not followed; "
        "FN AC106 line 55: its result `before` is therefore not card data"
    ),
}


def lint(path: Path, **kwargs):
    return lint_source(path.read_text(encoding="utf-8"), path=str(path), **kwargs)


def found(result) -> list[tuple[int, str]]:
    return sorted((d.line, d.code) for d in result.diagnostics)


def marked(path: Path):
    marks = [pytest.mark.xfail(reason=KNOWN_GAPS[path.name], strict=True)] if path.name in KNOWN_GAPS else []
    return pytest.param(path, id=path.name, marks=marks)


@pytest.mark.parametrize("path", [marked(p) for p in FILES])
def test_reports_exactly_the_marked_findings(path: Path):
    result = lint(path)
    assert result.errors == []
    assert found(result) == expected(path.read_text(encoding="utf-8")), [
        f"{d.line}:{d.column} {d.code} {d.message}" for d in result.diagnostics
    ]


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_every_finding_says_how_to_fix_it(path: Path):
    for diagnostic in lint(path).diagnostics:
        assert diagnostic.message and diagnostic.suggestion, f"{diagnostic.code} at line {diagnostic.line}"


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_prefilter_changes_nothing(path: Path):
    def facts(result):
        return [(d.line, d.column, d.end_line, d.end_column, d.code, d.message) for d in result.diagnostics]

    assert facts(lint(path)) == facts(lint(path, prefilter=False))


def test_corpus_is_what_it_claims():
    assert len(FILES) >= 12
    names = {p.name for p in FILES}
    assert set(KNOWN_GAPS) <= names, f"stale KNOWN_GAPS entries: {set(KNOWN_GAPS) - names}"
    ok = [p for p in FILES if p.name.startswith("ok_")]
    bad = [p for p in FILES if p.name.startswith("bad_")]
    assert len(ok) + len(bad) == len(FILES) and abs(len(ok) - len(bad)) <= 1
    for path in FILES:
        text = path.read_text(encoding="utf-8")
        assert 40 <= len(text.splitlines()) <= 120, f"{path.name} is not a whole, small program"
        codes = {code for _, code in expected(text)}
        assert "AC108" not in codes, f"{path.name}: AC108 is a preview rule, off by default"
        assert bool(codes) == path.name.startswith("bad_"), f"{path.name}: only bad_ files carry findings"
