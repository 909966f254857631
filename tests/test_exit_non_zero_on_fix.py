"""``check --fix --exit-non-zero-on-fix`` (ruff's): a run that changed files fails, so CI sees it."""

from __future__ import annotations

from conftest import CLEAN, FIXABLE, FIXED, write


def test_a_fix_applied_is_exit_1_even_when_no_finding_is_left(project, check):
    path = write(project / "bad.py", FIXABLE)
    run = check("--fix", "--unsafe-fixes", "--exit-non-zero-on-fix", "bad.py")
    assert path.read_text() == FIXED
    assert run.stdout == "Fixed 1 finding.\nAll checks passed (1 file checked).\n"
    assert run.exit_code == 1


def test_nothing_to_fix_is_exit_0(project, check):
    write(project / "clean.py", CLEAN)
    assert check("--fix", "--exit-non-zero-on-fix", "clean.py").exit_code == 0


def test_a_fix_piped_through_stdin_counts_too(project, check):
    run = check("--fix", "--unsafe-fixes", "--exit-non-zero-on-fix", "-", input=FIXABLE)
    assert run.stdout == FIXED and run.exit_code == 1


def test_it_contradicts_exit_zero(project, check):
    write(project / "bad.py", FIXABLE)
    run = check("--fix", "--exit-non-zero-on-fix", "--exit-zero", "bad.py")
    assert run.exit_code == 2 and "--exit-zero" in run.stderr
    assert (project / "bad.py").read_text() == FIXABLE
