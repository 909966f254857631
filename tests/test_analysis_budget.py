"""Files shaped to defeat the analysis finish quickly: a budget, then one AC002."""

from pathlib import Path

import pytest

from a2alint import control
from a2alint.rules.ac002_too_complex import elif_chain, helpers_calling_helpers
from a2alint.runner import lint_source


def test_a_long_elif_chain_of_fetches_and_sends_is_one_ac002_once_the_budget_is_spent(monkeypatch):
    """It took minutes before the budget; ``benchmarks/worst_shapes.py`` times it now."""
    checkpoints = []
    monkeypatch.setattr(control, "checkpoint", lambda: checkpoints.append(1))  # spend() asks every 256 steps
    result = lint_source(elif_chain(300), "router.py")
    assert [(d.code, d.line) for d in result.diagnostics] == [("AC002", 3)]
    assert "in route()" in result.diagnostics[0].message
    assert (len(checkpoints) - 1) * 256 <= control.BUDGET <= (len(checkpoints) + 1) * 256  # the budget stopped it


def test_the_budget_is_per_file_and_a_noqa_accepts_it():
    source = elif_chain(300).replace("  # expect: AC002", "  # noqa: AC002")
    assert lint_source(source, "router.py").diagnostics == []


def test_helpers_calling_helpers_keep_one_chain_per_call():
    """Every path through the helpers was kept before: memory grew past 20 GB on 120
    helpers of fan 40. One chain per call (and per distinct wire) is linear."""
    result = lint_source(helpers_calling_helpers(60, 20), "helpers.py")
    assert {d.code for d in result.diagnostics} >= {"AC103"}
    assert all(d.code != "AC002" for d in result.diagnostics)


#: A recursive-descent parser of a stranger's kind: each reader returns what it read and
#: the rest of its input, and they call one another (CPython's email header parser has
#: the shape). What derives from a derived value was wrapped in another "derived" each
#: time round, so its atoms grew without end: that parser took minutes, and a test
#: module that reaches it half an hour.
RECURSIVE_READERS = '''
from a2a.client import A2ACardResolver


def read_space(text):
    if text:
        try:
            word, text = read_word(text)
        except ValueError:
            spaces.append(" ")
    return spaces, text


def read_address(text):
    word, text = read_user(text)
    word, text = read_host(text[1:])
    while text and text[0] == ",":
        word, text = read_host(text[1:])
    return address, text


def read_entry(text):
    try:
        entry, text = read_named(text)
    except ValueError:
        try:
            entry, text = read_address(text)
        except ValueError:
            raise ValueError("expected an entry, found '{}'".format(text))
    return entry, text


def read_broken(text, stops):
    while text and text[0] not in stops:
        broken.append(text[0])
        entry, text = read_phrase(text)
    return broken, text


def read_entries(text):
    while text and text[0] != ";":
        try:
            entry, text = read_entry(text)
        except ValueError:
            if text[0] == " ":
                lead, text = read_space(text)
                if not text or text[0] in ",;":
                    entries.problems.append("empty entry")
                    entry, text = read_broken(text, ",;")
                    if lead is not None:
                        entry[:0] = [lead]
            return entries, text
    entry, text = read_entries(text)
    if len(entry.members) == 0:
        try:
            entry, text = read_entry(text)
            entries.append(entry)
        except ValueError:
            if text[0] == " ":
                entry[:0] = [lead]
            entries.problems.append("bad entry")
            text = text[1:]
    return entries, text
'''


def _depth(atom: tuple) -> int:
    inner = [a for a in atom[1:] if isinstance(a, tuple) and a and isinstance(a[0], str)]
    return 1 + max(map(_depth, inner), default=0)


def test_values_rebuilt_from_themselves_settle(monkeypatch):
    from a2alint import values

    deepest = []
    substitute = values.Analysis._substitute

    def watched(self, atom, *rest):
        deepest.append(_depth(atom))
        return substitute(self, atom, *rest)

    monkeypatch.setattr(values.Analysis, "_substitute", watched)
    result = lint_source(RECURSIVE_READERS, "readers.py", select=("ALL",), preview=True)
    assert result.diagnostics == [] and not result.errors
    assert deepest and max(deepest) <= 2, max(deepest)


def test_deriving_is_idempotent():
    from a2alint.values import DERIVED, PARAM, project_field, wrap

    source = (PARAM, object(), ())
    once = wrap(DERIVED, source)
    assert wrap(DERIVED, once) is once
    assert project_field(once, "members") is once  # a field of a derived value derives from its source


def test_working_out_values_spends_the_budget(monkeypatch):
    """Not only control-flow questions count: given a budget of one more step than the
    file asks questions of order, working out its values goes past it."""
    from a2alint import values
    from a2alint.config import Settings
    from a2alint.control import TooComplex, budget
    from a2alint.project import Project
    from a2alint.registry import load_rules
    from a2alint.runner import Linter

    settings = Settings(root=Path.cwd())
    model = Linter(load_rules()).model_of(RECURSIVE_READERS, "readers.py", settings, frozenset())
    entries = next(s for s in model.scopes if s.name == "read_entries")
    questions = []
    asked = values.runs_before
    monkeypatch.setattr(values, "runs_before", lambda *facts: questions.append(facts) or asked(*facts))
    values.Analysis(Project.of(model, Path("readers.py")), settings.api).values(entries).returns()
    with budget(len(questions) + 1), pytest.raises(TooComplex):
        values.Analysis(Project.of(model, Path("readers.py")), settings.api).values(entries).returns()


def test_questions_nested_past_the_recursion_limit_are_one_ac002(monkeypatch):
    """A project of 1,700 modules (CPython's Lib, each importing the SDK) chains questions
    through so many of them that the interpreter's recursion limit is reached: that file
    is too complex to analyse (one AC002), not an internal error that fails the run."""
    from a2alint import values

    def bottomless(self, call):
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(values.Analysis, "roles", bottomless)
    result = lint_source(elif_chain(3), "router.py")
    assert not result.errors
    assert [d.code for d in result.diagnostics] == ["AC002"]
    assert "deeper than Python allows" in result.diagnostics[0].message
