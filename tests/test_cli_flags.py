"""ruff's flags and hints around rule selection and fixes: an empty rule set is an error,
the unsafe-fix hint, statistics with a total, ``--fix-only``, ``--show-fixes``,
``--ignore-noqa``, ``--per-file-ignores`` and ``--no-force-exclude``."""

from __future__ import annotations

import pytest

from conftest import FIXABLE, FIXED, write

#: AC107 with its unsafe fix, and a stale ``# noqa`` (AC001, with --report-unused-noqa) whose removal is safe.
MIXED = FIXABLE + "x = 1  # noqa: AC107\n"

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


# --- AC107's fix is unsafe, and the summary says what --unsafe-fixes would add ------------------


def test_ac107s_fix_changes_the_digest_so_it_is_unsafe(project, check, a2alint):
    path = write(project / "bad.py")
    run = check("--fix", "bad.py")
    assert path.read_text() == FIXABLE and run.exit_code == 1
    assert run.stdout.endswith("No fixes available (1 hidden fix can be enabled with the --unsafe-fixes option).\n")
    assert check("--fix", "--unsafe-fixes", "bad.py").exit_code == 0 and path.read_text() == FIXED
    page = a2alint("rule", "AC107").stdout
    assert "## Fix safety" in page and "unsafe" in page.split("## Fix safety", 1)[1].split("##", 1)[0]


@pytest.mark.parametrize(
    "args, summary",
    [
        ((), ["Found 2 findings in 1 file checked.",
              "[*] 1 fixable with the --fix option (1 hidden fix can be enabled with the --unsafe-fixes option)."]),
        (("--unsafe-fixes",), ["Found 2 findings in 1 file checked.", "[*] 2 fixable with the --fix option."]),
        (("--fix",), ["Fixed 1 finding.", "Found 1 finding in 1 file checked.",
                      "No fixes available (1 hidden fix can be enabled with the --unsafe-fixes option)."]),
    ],
)
def test_the_summary_hints_at_hidden_unsafe_fixes_as_ruff_does(project, check, args, summary):
    write(project / "bad.py", MIXED)
    run = check("--report-unused-noqa", "--select", "AC107", *args, "bad.py")
    assert run.stdout.splitlines()[-len(summary):] == summary


# --- statistics: a fixable column and a total ----------------------------------------------------


def test_statistics_mark_each_code_fixable_or_not_and_end_with_the_total(project, check):
    write(project / "bad.py", MIXED)
    run = check("--statistics", "--report-unused-noqa", "--select", "AC107", "bad.py")
    assert run.exit_code == 1
    assert run.stdout.splitlines() == [
        "    1\tAC001\t[*] unused-noqa",
        "    1\tAC107\t[ ] unstable-contract-hash",
        "Found 2 findings in 1 file checked.",
        "[*] 1 fixable with the --fix option (1 hidden fix can be enabled with the --unsafe-fixes option).",
    ]
    assert check("--statistics", "-q", "--report-unused-noqa", "--select", "AC107", "bad.py").stdout.count("\n") == 2
    as_json = check("--statistics", "--format", "json", "--report-unused-noqa", "--select", "AC107", "bad.py").json()
    assert [(row["code"], row["fixable"]) for row in as_json] == [("AC001", True), ("AC107", False)]
