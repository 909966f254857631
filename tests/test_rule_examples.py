"""Every rule's own VALID and INVALID examples, Fixit style.

An INVALID example marks each line that must be reported with
``# expect: CODE``; the rule (selected alone) must report exactly those.
"""

from __future__ import annotations

import re
import textwrap

import pytest

from a2alint.registry import load_rules
from a2alint.rule import Files, Invalid
from a2alint.runner import lint_project, lint_source

EXPECT = re.compile(r"#\s*expect:\s*([A-Z]+[0-9]+(?:\s*,\s*[A-Z]+[0-9]+)*)")
RULES = load_rules()


def expected(source: str) -> list[tuple[int, str]]:
    found = []
    for number, line in enumerate(source.splitlines(), start=1):
        match = EXPECT.search(line)
        if match:
            found += [(number, code.strip()) for code in match.group(1).split(",")]
    return sorted(found)


def cases(kind: str):
    for code, rule in RULES.items():
        for index, example in enumerate(getattr(rule, kind)):
            yield pytest.param(rule, example, id=f"{code}-{kind.lower()}-{index}")


def lint(rule, source: str, **kwargs):
    """An example checked by its rule alone; an engine rule's with every rule, since what
    it reports is about the others' work (a noqa none of them needed, an analysis that ran
    out of budget)."""
    return lint_source(
        textwrap.dedent(source), select=("ALL",) if rule.engine else (rule.code,),
        report_unused_noqa=rule.code == "AC001", **kwargs
    )


def lint_files(rule, example: Files) -> dict:
    sources = {path: textwrap.dedent(text) for path, text in example.files.items()}
    return lint_project(sources, select=(rule.code,), report_unused_noqa=rule.code == "AC001")


@pytest.mark.parametrize("rule, example", list(cases("VALID")))
def test_valid_example_is_silent(rule, example):
    results = lint_files(rule, example).values() if isinstance(example, Files) else [lint(rule, example)]
    for result in results:
        assert [(d.path, d.line, d.code, d.message) for d in result.diagnostics] == []
        assert result.errors == []


@pytest.mark.parametrize("rule, example", list(cases("INVALID")))
def test_invalid_example_reports_marked_lines(rule, example):
    if isinstance(example, Files):
        results = lint_files(rule, example)
        sources = {path: textwrap.dedent(text) for path, text in example.files.items()}
    else:
        source = example.source if isinstance(example, Invalid) else example
        results = {"example.py": lint(rule, source)}
        sources = {"example.py": textwrap.dedent(source)}
    for path, result in results.items():
        assert result.errors == []
        got = sorted((d.line, d.code) for d in result.diagnostics)
        assert got == expected(sources[path]), (path, [d.message for d in result.diagnostics])
        for diagnostic in result.diagnostics:
            assert diagnostic.message and diagnostic.suggestion, "every finding says what and how to fix it"
    assert any(expected(text) for text in sources.values()), "an INVALID example marks at least one finding"


@pytest.mark.parametrize("rule, example", [c for c in cases("INVALID") if isinstance(c.values[1], Invalid) and c.values[1].fixed])
def test_fix_produces_expected_source(rule, example):
    mode = "unsafe" if example.unsafe_fixes else "safe"
    result = lint(rule, example.source, fix=mode)
    assert result.fixed == textwrap.dedent(example.fixed)
    again = lint(rule, result.fixed, fix=mode)
    assert again.fixed is None, "fixing twice changes nothing the second time"


def test_every_rule_has_examples_and_docs():
    for code, rule in RULES.items():
        docs = rule.documentation()
        for section in ("## What it does", "## Why is this bad?", "## Example", "## Use instead", "## Covers"):
            assert section in docs, f"{code} docs lack {section}"
        assert rule.INVALID, f"{code} has no INVALID example"
        if not rule.engine:
            assert rule.VALID, f"{code} has no VALID example"
