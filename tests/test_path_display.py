"""A control character in a file name (a newline, an escape) is shown as its symbol wherever
a line of output shows a path, so it cannot forge a line; the file is still read and fixed
by its real name, and JSON carries the real name."""

from __future__ import annotations

import sys

import pytest

from a2alint.reporters import shown_path
from conftest import FIXABLE, FIXED, write

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="Windows refuses control characters in names")

NAME = "evil\nforged.py:1:1: AC999 all clear\x1b[2K.py"
SHOWN = "evil\u240aforged.py:1:1: AC999 all clear\u241b[2K.py"


def test_control_characters_are_shown_as_symbols_for_display_only():
    assert shown_path(NAME) == SHOWN
    assert shown_path("tab\there\r\x7f\x85.py") == "tab\u2409here\u240d\u2421\ufffd.py"
    assert shown_path("caf\\xe9/ünïcode.py") == "caf\\xe9/ünïcode.py"


@pytest.mark.parametrize(
    "output_format, starts",
    [
        ("text", (f"{SHOWN}:6:27: AC107", "  help:", "Found 1 finding", "No fixes available")),
        ("concise", (f"{SHOWN}:6:27: AC107", "Found 1 finding", "No fixes available")),
        ("github", (f"::error file={SHOWN.replace(':', '%3A')},line=6,", f"::warning file={SHOWN.replace(':', '%3A')},line=6,")),
    ],
)
def test_a_file_name_cannot_forge_a_line_of_the_report(project, check, output_format, starts):
    write(project / NAME, FIXABLE)
    run = check("--no-cache", "--format", output_format, "--select", "AC107", ".")
    assert run.exit_code == 1
    assert all(line.startswith(starts) for line in run.stdout.splitlines()), run.stdout
    assert "\x1b" not in run.stdout


def test_json_keeps_the_real_name_and_fix_writes_the_real_file(project, check):
    path = write(project / NAME, FIXABLE)
    assert check("--no-cache", "--format", "json", ".").json()["diagnostics"][0]["path"] == NAME
    assert check("--no-cache", "--fix", "--unsafe-fixes", ".").exit_code == 0
    assert path.read_text(encoding="utf-8") == FIXED
