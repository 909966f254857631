"""The text styles (``--output-format text|concise|full``) and ``--color``, as a ruff user
expects them: ``--format`` still works, concise is one line a finding, full frames the code."""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import pytest

from a2alint.reporters import Style
from conftest import FIXABLE, FIXABLE_AT, UNFIXABLE, write

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
#: A finding's first line: what ``%f:%l:%c: %m`` reads.
FINDING_LINE = re.compile(r"^[^\s:][^:]*:\d+:\d+: AC\d{3} ")
#: The lines ``full`` adds to ``text``: a code frame.
FRAME_LINE = re.compile(r"^ *\d* \|")


@pytest.fixture
def host_agent(project) -> Path:
    """The example whose findings have help and note lines."""
    return Path(shutil.copy(EXAMPLES / "host_agent.py", project / "host_agent.py"))


def test_output_format_is_the_option_and_format_its_alias(project, check, host_agent):
    assert check("--output-format", "json", "host_agent.py").stdout == check("--format", "json", "host_agent.py").stdout
    usage = check("--help").stdout
    assert "--output-format, --format" in usage and "--color" in usage


def test_text_stays_the_default(project, check, host_agent):
    assert check("host_agent.py").stdout == check("--output-format", "text", "host_agent.py").stdout
    assert "  note: " in check("host_agent.py").stdout


def test_concise_is_exactly_one_line_per_finding(project, check, host_agent):
    findings = check("--output-format", "json", "host_agent.py").json()["diagnostics"]
    assert any(d["related"] for d in findings) and any(d["suggestion"] for d in findings)
    run = check("--output-format", "concise", "--quiet", "host_agent.py")
    assert run.exit_code == 1
    lines = run.stdout.splitlines()
    assert lines == [f"{d['path']}:{d['line']}:{d['column']}: {d['code']} {d['message']}" for d in findings]


def test_concise_keeps_the_summary_and_the_fix_marker_as_ruff_does(project, check):
    write(project / "bad.py", FIXABLE)
    first, summary, hint = check("--output-format", "concise", "--select", "AC107", "--unsafe-fixes", "bad.py").stdout.splitlines()
    assert FINDING_LINE.match(first) and " AC107 [*] " in first
    assert summary == "Found 1 finding in 1 file checked."
    assert hint == "[*] 1 fixable with the --fix option."


def test_full_frames_the_flagged_line_with_a_gutter_and_carets(project, check):
    write(project / "bad.py", FIXABLE)
    line, column = FIXABLE_AT
    source = FIXABLE.splitlines()[line - 1]
    lines = check("--output-format", "full", "--select", "AC107", "-q", "bad.py").stdout.splitlines()
    assert lines[1:5] == [
        "  |",
        f"{line} | {source}",
        "  | " + " " * (column - 1) + "^" * len("json.dumps(contract)") + " AC107",
        "  |",
    ]
    assert lines[5].startswith("  help: ")


def test_full_is_text_with_a_frame_under_each_finding(project, check, host_agent):
    text = check("host_agent.py").stdout.splitlines()
    full = check("--output-format", "full", "host_agent.py").stdout.splitlines()
    assert [line for line in full if not FRAME_LINE.match(line)] == text
    assert len([line for line in full if "^" in line]) == len([line for line in text if FINDING_LINE.match(line)])


def test_full_lines_carets_up_under_tabs_and_shows_control_characters(project, check):
    source = 'import a2a\ndef f(card):\n\treturn hash(card.model_dump_json()) or "\x1b[2J"\n'
    write(project / "tabs.py", source)
    lines = check("--output-format", "full", "--color", "never", "--select", "AC107", "-q", "tabs.py").stdout.splitlines()
    assert lines[2] == '3 | \treturn hash(card.model_dump_json()) or "\u241b[2J"'
    assert lines[3] == "  | \t       " + "^" * len("hash(card.model_dump_json())") + " AC107"


def test_full_frames_a_range_over_several_lines_to_the_end_of_its_first(project, check):
    write(project / "long.py", "import a2a\ndef f(card):\n    return hash(\n        card.model_dump_json())\n")
    lines = check("--output-format", "full", "--select", "AC107", "-q", "long.py").stdout.splitlines()
    assert lines[2:4] == ["3 |     return hash(", "  |            ^^^^^ AC107"]


def test_full_reads_stdin_as_it_was_checked(project, check):
    run = check("--output-format", "full", "--select", "AC107", "-q", "--stdin-filename", "piped.py", "-", input=UNFIXABLE)
    assert "2 | def f(card): return hash(card.model_dump_json())" in run.stdout.splitlines()


# --- colour -----------------------------------------------------------------------------------


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    "when, env, coloured",
    [
        ("auto", {}, True),
        ("auto", {"NO_COLOR": "1"}, False),
        ("auto", {"NO_COLOR": ""}, True),  # an empty NO_COLOR is not set
        ("auto", {"FORCE_COLOR": "1", "NO_COLOR": "1"}, True),  # ruff: FORCE_COLOR wins
        ("never", {}, False),
        ("always", {"NO_COLOR": "1"}, True),  # the command line wins over the environment
        ("never", {"FORCE_COLOR": "1"}, False),
    ],
)
def test_colour_on_a_terminal(monkeypatch, when, env, coloured):
    for name in ("NO_COLOR", "FORCE_COLOR"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert Style(Terminal(), when).color is coloured


@pytest.mark.parametrize("when, env, coloured", [("auto", {}, False), ("auto", {"FORCE_COLOR": "1"}, True), ("auto", {"FORCE_COLOR": ""}, False), ("always", {}, True)])
def test_colour_into_a_pipe(project, check, monkeypatch, when, env, coloured):
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    write(project / "bad.py", UNFIXABLE)
    for output_format in ("text", "concise", "full"):
        assert ("\x1b[" in check("--output-format", output_format, "--color", when, "bad.py").stdout) is coloured


def test_an_output_file_is_coloured_only_when_asked(project, check, monkeypatch):
    monkeypatch.setenv("FORCE_COLOR", "1")  # as CI sets it for its log
    write(project / "bad.py", UNFIXABLE)
    assert check("-o", "report.txt", "bad.py").exit_code == 1
    assert "\x1b[" not in (project / "report.txt").read_text(encoding="utf-8")
    check("--color", "always", "-o", "report.txt", "bad.py")
    assert "\x1b[" in (project / "report.txt").read_text(encoding="utf-8")


def test_reports_are_never_coloured(project, check, monkeypatch):
    monkeypatch.setenv("FORCE_COLOR", "1")
    write(project / "bad.py", UNFIXABLE)
    for output_format in ("json", "sarif", "github", "gitlab", "junit"):
        assert "\x1b[" not in check("--output-format", output_format, "--color", "always", "bad.py").stdout
