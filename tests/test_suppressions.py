"""``# noqa``, ``# a2alint: noqa``, ``# a2alint: skip-file`` and ``--report-unused-noqa``."""

from __future__ import annotations

import pytest

from conftest import FIXABLE, write

HASH_LINE = "def f(card): return hash(card.model_dump_json())"
MULTI_LINE = """\
import hashlib, json
import a2a
def digest(card):
    contract = {"protocolVersion": card.protocol_version}
    return hashlib.sha256(
        json.dumps(  START
            contract,
        ).encode()  END
    ).hexdigest()
"""


@pytest.fixture
def unused(project, check):
    """``unused(source)``: the JSON report of ``check --report-unused-noqa`` on ``source``."""

    def run(source: str, *args: str):
        write(project / "s.py", source)
        return check("--format", "json", "--report-unused-noqa", *args, "s.py")

    return run


@pytest.fixture
def lint(project, check):
    """``lint(source, *args)``: ``(line, code)`` of each AC107 finding in ``source``."""

    def run(source: str, *args: str) -> list[tuple[int, str]]:
        write(project / "s.py", source)
        result = check("--format", "json", "--select", "AC107", *args, "s.py")
        return [(d["line"], d["code"]) for d in result.json()["diagnostics"]]

    return run


@pytest.mark.parametrize(
    "comment",
    [
        "# noqa",
        "# noqa: AC107",
        "# noqa:AC107",
        "# NOQA: ac107",
        "# noqa: AC107, AC101",
        "# noqa: E501,AC107",
        "# a2alint: noqa",
        "# a2alint: noqa: AC107",
        "# type: ignore  # noqa: AC107",
    ],
)
def test_noqa_on_the_reported_line_suppresses(lint, comment):
    assert lint(f"import a2a\n{HASH_LINE}  {comment}\n") == []


@pytest.mark.parametrize(
    "comment",
    [
        "# noqa: AC101",
        "# noqa: E501",
        "# a2alint: noqa: AC000",
        "# no qa",
        "# this is not a noqa: AC107",
    ],
)
def test_noqa_for_other_codes_does_not_suppress(lint, comment):
    assert lint(f"import a2a\n{HASH_LINE}  {comment}\n") == [(2, "AC107")]


def test_noqa_inside_a_string_is_not_a_comment(lint):
    source = f"import a2a\n{HASH_LINE[:-1]} + len('# noqa'))\n"
    assert lint(source) == [(2, "AC107")]


def test_noqa_on_another_line_does_not_suppress(lint):
    assert lint(f"import a2a\n# noqa: AC107\n{HASH_LINE}\n") == [(3, "AC107")]


def test_multi_line_statement_is_suppressed_on_the_diagnostic_start_line(lint):
    def source(start: str = "", end: str = "") -> str:
        return MULTI_LINE.replace("START", start).replace("END", end)

    assert lint(source()) == [(6, "AC107")]
    assert lint(source(start="# noqa: AC107")) == []
    assert lint(source(end="# noqa: AC107")) == [(6, "AC107")]


@pytest.mark.parametrize("header", ["# a2alint: skip-file\n", "#a2alint:skip-file\n"])
def test_skip_file_skips_the_whole_file(lint, header):
    assert lint(header + FIXABLE + HASH_LINE + "\n") == []


def test_skip_file_must_be_its_own_comment_line(lint):
    source = "import a2a\nx = '# a2alint: skip-file'\n" + HASH_LINE + "\n"
    assert lint(source) == [(3, "AC107")]


# --- --report-unused-noqa -----------------------------------------------------------------------


def test_unused_noqa_for_an_a2alint_code_is_ac001(unused):
    source = f"import a2a\nx = 1  # noqa: AC107\n{HASH_LINE}  # noqa: AC107\n"
    run = unused(source)
    (unused,) = run.json()["diagnostics"]
    assert (unused["code"], unused["line"], unused["column"]) == ("AC001", 2, 8)
    assert unused["message"] == "unused suppression: AC107"
    assert run.exit_code == 1


def test_unused_noqa_ignores_codes_of_other_tools(unused):
    source = f"import a2a\nx = 1  # noqa: E501\n{HASH_LINE}  # noqa: AC107, F401\n"
    assert unused(source).codes() == []


def test_unused_noqa_names_only_the_unused_codes(unused):
    source = f"import a2a\n{HASH_LINE}  # noqa: AC107, AC101, E501\n"
    run = unused(source)
    assert [d["message"] for d in run.json()["diagnostics"]] == ["unused suppression: AC101"]


def test_unused_a2alint_noqa_is_reported_but_not_a_bare_noqa(unused):
    source = "import a2a\nx = 1  # noqa\ny = 2  # a2alint: noqa\n"
    run = unused(source)
    assert [(d["line"], d["code"]) for d in run.json()["diagnostics"]] == [(3, "AC001")]


def test_unused_noqa_in_a_file_that_is_not_a2a_code(unused):
    """The prefilter skips such a file, but its a2alint noqa still suppressed nothing."""
    run = unused("x = 1  # noqa: AC107\n")
    assert run.codes() == ["AC001"]


def test_unused_noqa_is_off_by_default(lint):
    assert lint("import a2a\nx = 1  # noqa: AC107\n") == []
