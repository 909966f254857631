"""ruff's flags and hints around rule selection and fixes: an empty rule set is an error,
the unsafe-fix hint, statistics with a total, ``--fix-only``, ``--show-fixes``,
``--ignore-noqa``, ``--per-file-ignores`` and ``--no-force-exclude``."""

from __future__ import annotations

import pytest

from conftest import write

# --- an empty effective rule set ------------------------------------------------------------


@pytest.mark.parametrize(
    "config, args",
    [
        ("", ("--ignore", "ALL")),
        ("", ("--select", "AC107", "--ignore", "AC107")),
        ('select = ["AC1"]\nignore = ["AC1"]\n', ()),
        ('select = ["AC107"]\n', ("--ignore", "AC1")),
    ],
)
def test_a_selection_that_leaves_no_rule_is_a_usage_error(project, check, config, args):
    if config:
        write(project / "a2alint.toml", config)
    write(project / "bad.py")
    run = check(*args, "bad.py")
    assert run.exit_code == 2 and run.stdout == ""
    assert "no rule is left enabled, and an empty selection checks nothing" in run.stderr
    assert ("a2alint.toml" in run.stderr) is bool(config)


def test_a_nested_config_that_leaves_no_rule_is_an_error_naming_it(project, check):
    write(project / "sub" / "a2alint.toml", 'select = ["AC1"]\nignore = ["AC1"]\n')
    write(project / "sub" / "bad.py")
    run = check("sub")
    assert run.exit_code == 2 and "sub/a2alint.toml: no rule is left enabled" in run.stderr


def test_per_file_ignores_that_leave_nothing_for_a_file_are_fine(project, check):
    write(project / "a2alint.toml", '[per-file-ignores]\n"bad.py" = ["ALL"]\n')
    write(project / "bad.py")
    run = check("bad.py")
    assert run.exit_code == 0 and run.stdout == "All checks passed (1 file checked).\n"
