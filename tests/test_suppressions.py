"""``# noqa``, ``# a2alint: noqa`` (of a line, or of the whole file), ``# a2alint: skip-file`` and ``--report-unused-noqa``."""

from __future__ import annotations

import pytest

from a2alint.suppressions import find_noqa, reason_problem
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


# --- a whole file: ``# a2alint: noqa[: codes]`` on a line of its own ------------------------------

TWO_FINDINGS = "import a2a\ndef f(card): return hash(card.model_dump_json())\ndef g(card): return hash(card.model_dump_json())\n"


@pytest.mark.parametrize(
    "header", ["# a2alint: noqa: AC107\n", "#A2ALINT:NOQA:AC107\n", "# a2alint: noqa: AC101, AC107\n", "# a2alint: noqa\n"]
)
def test_a_noqa_line_of_its_own_covers_every_line(lint, header):
    assert lint(header + TWO_FINDINGS) == []
    assert lint(TWO_FINDINGS + header) == []


def test_a_file_noqa_covers_only_its_codes(lint):
    assert lint("# a2alint: noqa: AC101\n" + TWO_FINDINGS) == [(3, "AC107"), (4, "AC107")]


def test_a_file_noqa_indented_in_a_block_still_covers_the_file(lint):
    assert lint(TWO_FINDINGS + "if True:\n    # a2alint: noqa: AC107\n    pass\n") == []


@pytest.mark.parametrize(
    "source",
    [
        TWO_FINDINGS + 'HELP = """\n# a2alint: noqa: AC107\n"""\n',  # a line of a string, not a comment
        TWO_FINDINGS + "x = 1  # a2alint: noqa: AC107\n",  # after code: that line only
        "# noqa: AC107\n" + TWO_FINDINGS,  # a bare noqa of a line of its own is that line's
    ],
)
def test_only_a_comment_on_a_line_of_its_own_covers_the_file(lint, source):
    assert [code for _, code in lint(source)] == ["AC107", "AC107"]


def test_a_file_noqa_does_not_hide_a_file_that_cannot_be_parsed(lint):
    assert lint("# a2alint: noqa\nimport a2a\ndef f(:\n", "--select", "ALL") == [(3, "AC000")]


def test_unused_codes_of_a_file_noqa_are_reported_and_make_a_line_noqa_for_them_unused(unused):
    run = unused("# a2alint: noqa: AC107, AC101\n" + TWO_FINDINGS.replace("json())\ndef g", "json())  # noqa: AC107\ndef g"))
    assert [(d["line"], d["message"]) for d in run.json()["diagnostics"]] == [
        (1, "unused suppression for the whole file: AC101"),
        (3, "unused suppression: AC107"),
    ]


# --- the reason --add-noqa=REASON writes after the codes ---------------------------------


@pytest.mark.parametrize("reason", ["legacy digests, see #12", "kept until the v2 migration", "-"])
def test_a_reason_after_the_codes_is_not_read_as_codes(reason):
    assert reason_problem(reason) is None
    [noqa] = find_noqa(f"x = 1  # noqa: AC107 {reason}\n").values()
    assert noqa.codes == frozenset({"AC107"})


@pytest.mark.parametrize("reason", ["v2 migration", "AC101 too", "", "two\nlines"])
def test_a_reason_that_would_read_as_codes_or_end_the_line_is_refused(reason):
    assert reason_problem(reason) is not None
