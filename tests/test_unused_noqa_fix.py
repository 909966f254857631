"""``--fix`` takes the unused ``# noqa`` codes that AC001 reports out of their comments (ruff's RUF100)."""

from __future__ import annotations

import pytest

from conftest import write

HASH_LINE = "def f(card): return hash(card.model_dump_json())"  # one AC107


@pytest.fixture
def fixed(project, check):
    """``fixed(source, *args)``: the file after ``check --report-unused-noqa --fix``, and the run."""

    def run(source: str, *args: str):
        path = write(project / "s.py", source)
        done = check("--report-unused-noqa", "--fix", *args, "s.py")
        return path.read_text(encoding="utf-8"), done

    return run


@pytest.mark.parametrize(
    "line, after",
    [
        ("x = 1  # noqa: AC107", "x = 1"),
        ("x = 1  # NOQA:AC107", "x = 1"),
        ("x = 1  # a2alint: noqa", "x = 1"),
        ("x = 1  # noqa: AC107, E501", "x = 1  # noqa: E501"),
        ("x = 1  # noqa: E501,AC107, F401", "x = 1  # noqa: E501, F401"),
        ("x = 1  # noqa: AC107  # type: ignore", "x = 1  # type: ignore"),
        ("x = 1  # noqa: AC107 the card is frozen above", "x = 1  # the card is frozen above"),
        ("x = 1  # why  # noqa: AC107", "x = 1  # why"),
        (f"{HASH_LINE}  # noqa: AC107, AC101", f"{HASH_LINE}  # noqa: AC107"),
    ],
)
def test_the_unused_codes_leave_the_comment_and_the_rest_of_it_stays(fixed, line, after):
    text, run = fixed(f"import a2a\n{line}\n")
    assert text == f"import a2a\n{after}\n"
    assert run.exit_code == 0 and "Fixed 1 finding." in run.stdout


def test_a_line_that_held_only_the_comment_goes(fixed):
    text, _ = fixed("import a2a\nif True:\n    # noqa: AC101\n    x = 1\n# a2alint: noqa: AC101")
    assert text == "import a2a\nif True:\n    x = 1\n"


def test_a_file_no_rule_reports_on_is_fixed_too(fixed):
    """The prefilter skips such a file, but its a2alint noqa is still unused, and fixable."""
    text, run = fixed("x = 1  # noqa: AC107, E501\n")
    assert text == "x = 1  # noqa: E501\n" and run.exit_code == 0


def test_without_the_report_the_noqa_is_left(project, check):
    path = write(project / "s.py", "import a2a\nx = 1  # noqa: AC107\n")
    check("--fix", "s.py")
    assert path.read_text() == "import a2a\nx = 1  # noqa: AC107\n"


def test_diff_shows_the_fix(project, check):
    write(project / "s.py", "import a2a\nx = 1  # noqa: AC107, E501\n")
    run = check("--report-unused-noqa", "--diff", "s.py")
    assert "-x = 1  # noqa: AC107, E501\n+x = 1  # noqa: E501\n" in run.stdout and run.exit_code == 1


def test_a_comment_the_tokenizer_cannot_tell_from_a_string_is_reported_not_rewritten(project, check):
    """An unclosed bracket stops the tokenizer: the ``#`` found in the text may be in a string."""
    source = "x = ('# noqa: AC107'\n"
    path = write(project / "s.py", source)
    run = check("--report-unused-noqa", "--select", "AC001", "--fix", "--format", "json", "s.py")
    assert path.read_text() == source
    assert [(d["code"], d["fix"]) for d in run.json()["diagnostics"]] == [("AC001", None)]


def test_the_language_servers_quick_fix_removes_the_unused_code(tmp_path):
    pytest.importorskip("pygls.lsp.server", reason="the lsp extra (pygls 2) is not installed")
    from test_server import DEBOUNCE, LspClient, apply, code_actions, document_edits

    document, source = tmp_path / "s.py", "import a2a\nx = 1  # noqa: AC107, E501\n"
    client = LspClient(tmp_path)
    try:
        client.initialize(tmp_path, {"debounce": DEBOUNCE, "select": ["AC107"], "reportUnusedNoqa": True})
        [diagnostic] = client.open(document, source)["diagnostics"]
        assert diagnostic["code"] == "AC001"
        [action] = [a for a in code_actions(client, document, diagnostic["range"], only=["quickfix"]) if a.get("isPreferred")]
        assert action["title"] == "a2alint (AC001): Remove the unused suppression"
        assert apply(source, document_edits(action, document.as_uri())) == "import a2a\nx = 1  # noqa: E501\n"
    finally:
        client.close()
