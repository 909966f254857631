"""Output paths that would destroy input are refused, and a report that cannot be
written is one message and exit 2 (never 1, which means findings)."""

from __future__ import annotations

import pytest

from conftest import UNFIXABLE, write


@pytest.mark.parametrize("option", ["-o", "--write-baseline"])
def test_a_report_never_replaces_python_source(project, check, option):
    write(project / "bad.py", UNFIXABLE)
    write(project / "other.py", UNFIXABLE)
    for target in ("bad.py", "other.py", "new.py"):
        run = check(option, target, "bad.py")
        assert run.exit_code == 2 and "would overwrite Python source" in run.stderr
    assert (project / "bad.py").read_text(encoding="utf-8") == UNFIXABLE
    assert not (project / "new.py").exists()


def test_a_report_never_replaces_a_checked_file(project, check):
    write(project / "bad.py", UNFIXABLE)
    (project / "notes").write_text(UNFIXABLE, encoding="utf-8")
    (project / "pyproject.toml").write_text('[tool.a2alint]\nextend-include = ["notes"]\n', encoding="utf-8")
    run = check("-o", "notes", ".")
    assert run.exit_code == 2 and "is one of the files being checked" in run.stderr
    assert (project / "notes").read_text(encoding="utf-8") == UNFIXABLE


def test_a_report_that_cannot_be_written_is_exit_2(project, check):
    write(project / "bad.py", UNFIXABLE)
    run = check("-o", "/dev/full", "bad.py")
    assert run.exit_code == 2
    assert "cannot write the report" in run.stderr
