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
KNOWN_GAPS: dict[str, str] = {}


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
