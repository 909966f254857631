"""Files shaped to defeat the analysis finish quickly: a budget, then one AC002."""

import time

from a2alint.rules.ac002_too_complex import elif_chain, helpers_calling_helpers
from a2alint.runner import lint_source


def test_a_long_elif_chain_of_fetches_and_sends_is_one_ac002_in_seconds():
    started = time.process_time()
    result = lint_source(elif_chain(300), "router.py")
    spent = time.process_time() - started
    assert [(d.code, d.line) for d in result.diagnostics] == [("AC002", 3)]
    assert "in route()" in result.diagnostics[0].message
    assert spent < 30, f"{spent:.1f} s"  # (minutes before the budget; generous for a slow machine)


def test_the_budget_is_per_file_and_a_noqa_accepts_it():
    source = elif_chain(300).replace("  # expect: AC002", "  # noqa: AC002")
    assert lint_source(source, "router.py").diagnostics == []


def test_helpers_calling_helpers_keep_one_chain_per_call():
    """Every path through the helpers was kept before: memory grew past 20 GB on 120
    helpers of fan 40. One chain per call (and per distinct wire) is linear."""
    result = lint_source(helpers_calling_helpers(60, 20), "helpers.py")
    assert {d.code for d in result.diagnostics} >= {"AC103"}
    assert all(d.code != "AC002" for d in result.diagnostics)
