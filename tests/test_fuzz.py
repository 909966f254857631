"""Fuzzing: the whole command over generated Python modules (hypothesmith) and over mutated
copies of every rule's examples never raises, never reports an internal error, points every
diagnostic inside the file, and never writes a fix that does not parse or that a second
``--fix`` would change again."""

from __future__ import annotations

import ast
import json
import os
import tempfile
import warnings
from pathlib import Path

import hypothesmith
import libcst as cst
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings, strategies as st

from a2alint.cli import main
from a2alint.fixes import split_lines
from a2alint.registry import load_rules
from a2alint.rule import example_sources

#: Every rule, every engine check, in one process; no cache and no configuration file.
ARGS = ("check", "--isolated", "--no-cache", "--jobs", "1", "--format", "json", "--select", "ALL", "--preview", "--report-unused-noqa")
#: Makes a generated module reach the parser and the rules.
A2A = "from a2a.client import A2ACardResolver\n"
EXAMPLES = [
    source
    for rule in load_rules().values()
    for kind in ("VALID", "INVALID")
    for example in getattr(rule, kind)
    for source in example_sources(example)
]
#: How many inputs each property tries: a bounded, seeded run in CI; a longer one with
#: ``A2ALINT_FUZZ_EXAMPLES=5000 python -m pytest tests/test_fuzz.py`` (see the README).
EXAMPLES_PER_PROPERTY = int(os.environ.get("A2ALINT_FUZZ_EXAMPLES", "60"))
FUZZ = settings(
    max_examples=EXAMPLES_PER_PROPERTY,
    derandomize="A2ALINT_FUZZ_EXAMPLES" not in os.environ,  # the same inputs on every CI run
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)


def _run(path: Path, *extra: str) -> tuple[int, dict]:
    result = CliRunner().invoke(main, [*ARGS, *extra, str(path)])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code in (0, 1), f"exit {result.exit_code}: {result.stderr}"  # 2: an internal error
    return result.exit_code, json.loads(result.stdout) if result.stdout else {"diagnostics": []}


def _assert_inside(diagnostics: list[dict], text: str) -> None:
    lines = [line.rstrip("\r\n") for line in split_lines(text)] or [""]

    def inside(line: int, column: int) -> bool:
        return 1 <= line <= len(lines) and 1 <= column <= len(lines[line - 1]) + 1

    for diagnostic in diagnostics:
        start, end = (diagnostic["line"], diagnostic["column"]), (diagnostic["end_line"], diagnostic["end_column"])
        assert inside(*start) and inside(*end) and start <= end, diagnostic
        for related in diagnostic["related"]:
            assert inside(related["line"], related["column"]), related


def _assert_python_refuses(data: bytes) -> None:
    """A file a2alint calls a syntax error is one CPython's parser refuses too (a file only
    libcst refuses is reported as a2alint's limit, in other words)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            compile(data, "fuzzed.py", "exec", ast.PyCF_ONLY_AST)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return
    pytest.fail("AC000 says syntax error on a file CPython accepts")


def _lint(source: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzzed.py"
        path.write_text(source, encoding="utf-8", newline="")
        _, report = _run(path)
        _assert_inside(report["diagnostics"], source)
        for diagnostic in report["diagnostics"]:
            if diagnostic["code"] == "AC000" and diagnostic["message"].startswith("syntax error"):
                _assert_python_refuses(path.read_bytes())


@st.composite
def mutated_examples(draw) -> str:
    """A rule example with lines deleted, duplicated or swapped, characters inserted, or cut short."""
    lines = split_lines(draw(st.sampled_from(EXAMPLES)))
    for _ in range(draw(st.integers(1, 4))):
        if not lines:
            break
        index = draw(st.integers(0, len(lines) - 1))
        # line moves keep most mutants parsable, so that the rules run on them; characters and cuts rarely do
        operation = draw(st.sampled_from(["delete", "duplicate", "swap", "delete", "duplicate", "swap", "insert", "truncate"]))
        if operation == "delete":
            del lines[index]
        elif operation == "duplicate":
            lines.insert(index, lines[index])
        elif operation == "swap":
            other = draw(st.integers(0, len(lines) - 1))
            lines[index], lines[other] = lines[other], lines[index]
        elif operation == "insert":
            line = lines[index]
            at = draw(st.integers(0, len(line)))
            lines[index] = line[:at] + draw(st.sampled_from(" \t\x0c\r\n#'\"\\()[]:.,=") | st.text(min_size=1, max_size=3)) + line[at:]
        else:
            text = "".join(lines)
            lines = split_lines(text[: draw(st.integers(0, len(text)))])
    return "".join(lines)


@pytest.mark.filterwarnings("ignore::SyntaxWarning")  # hypothesmith compiles what it generates
@FUZZ
@given(source=st.one_of(hypothesmith.from_grammar(), hypothesmith.from_node()))
def test_generated_modules(source):
    _lint(A2A + source)


@FUZZ
@given(source=mutated_examples())
def test_mutated_rule_examples(source):
    _lint(source)


@settings(FUZZ, max_examples=max(40, EXAMPLES_PER_PROPERTY * 2 // 3))
@given(source=mutated_examples())
def test_fixes_of_mutated_examples_parse_and_are_stable(source):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzzed.py"
        path.write_text(source, encoding="utf-8", newline="")
        _run(path, "--fix", "--unsafe-fixes")
        fixed = path.read_bytes().decode("utf-8")
        if fixed != source:
            cst.parse_module(fixed)  # a fix never writes a file that does not parse
            _, report = _run(path, "--fix", "--unsafe-fixes")
            assert path.read_bytes().decode("utf-8") == fixed, "a second --fix changed the file again"
            _assert_inside(report["diagnostics"], fixed)

