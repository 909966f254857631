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


# --- --fix-only and --show-fixes -------------------------------------------------------------------


def test_fix_only_applies_fixes_reports_no_finding_and_exits_0(project, check):
    path = write(project / "bad.py", MIXED)
    run = check("--fix-only", "--report-unused-noqa", "--select", "AC107", "bad.py")
    assert run.exit_code == 0
    assert run.stdout == "Fixed 1 finding (1 additional fix available with --unsafe-fixes).\n"
    assert path.read_text() == FIXABLE + "x = 1\n"
    run = check("--fix-only", "--report-unused-noqa", "--select", "AC107", "bad.py")
    assert (run.exit_code, run.stdout) == (0, "No findings fixed (1 fix available with --unsafe-fixes).\n")


def test_fix_only_exits_1_with_exit_non_zero_on_fix_when_it_fixed(project, check):
    path = write(project / "bad.py")
    run = check("--fix-only", "--unsafe-fixes", "--exit-non-zero-on-fix", "bad.py")
    assert (run.exit_code, run.stdout, path.read_text()) == (1, "Fixed 1 finding.\n", FIXED)
    assert check("--fix-only", "--unsafe-fixes", "--exit-non-zero-on-fix", "bad.py").exit_code == 0


def test_fix_only_of_piped_source_prints_only_the_source(project, check):
    run = check("--fix-only", "--unsafe-fixes", "-q", "-", input=FIXABLE)
    assert (run.exit_code, run.stdout) == (0, FIXED)


def test_show_fixes_lists_the_fixes_applied_per_file_as_ruff_does(project, check):
    write(project / "a.py", MIXED)
    write(project / "b.py", MIXED)
    run = check("--fix", "--unsafe-fixes", "--show-fixes", "--report-unused-noqa", "--select", "AC107", ".")
    assert run.stdout.splitlines() == [
        "Fixed 4 findings:",
        "- a.py:",
        "    1 × AC001 (unused-noqa)",
        "    1 × AC107 (unstable-contract-hash)",
        "- b.py:",
        "    1 × AC001 (unused-noqa)",
        "    1 × AC107 (unstable-contract-hash)",
        "Fixed 4 findings.",
        "All checks passed (2 files checked).",
    ]


def test_show_fixes_without_fix_shows_each_findings_fix(project, check):
    write(project / "bad.py", MIXED)
    lines = check("--show-fixes", "--report-unused-noqa", "--select", "AC107", "bad.py").stdout.splitlines()
    assert "  fix: add sort_keys=True (unsafe: with --unsafe-fixes)" in lines
    assert "  fix: remove the unused suppression" in lines
    assert not any(line.startswith("  fix:") for line in check("--select", "AC107", "bad.py").stdout.splitlines())


# --- --ignore-noqa ---------------------------------------------------------------------------------


def test_ignore_noqa_reports_what_noqa_comments_suppress(project, check):
    line = FIXABLE.splitlines()[5]
    write(project / "bad.py", FIXABLE.replace(line, line + "  # noqa: AC107") + "# a2alint: noqa: AC107\n")
    assert check("--select", "AC107", "bad.py").exit_code == 0
    run = check("--select", "AC107", "--ignore-noqa", "--format", "json", "bad.py")
    assert run.exit_code == 1 and run.codes() == ["AC107"]
    assert check("--select", "AC107", "bad.py").exit_code == 0  # the cache kept the suppressed result
    run = check("--select", "AC107", "--ignore-noqa", "--report-unused-noqa", "--format", "json", "bad.py")
    assert run.codes() == ["AC107"]  # no comment is unused when none is read


# --- --per-file-ignores on the command line ------------------------------------------------------


def test_per_file_ignores_on_the_command_line_add_to_the_configs(project, check):
    write(project / "a2alint.toml", '[per-file-ignores]\n"gen/*.py" = ["AC107"]\n')
    for name in ("gen/a.py", "tests/b.py", "src/c.py"):
        write(project / name)
    assert sorted(check("--format", "json", ".").paths()) == ["src/c.py", "tests/b.py"]
    run = check("--format", "json", "--per-file-ignores", "tests/*.py:AC1,AC2", ".")
    assert run.paths() == ["src/c.py"]
    run = check("--format", "json", "--per-file-ignores", "tests/*.py:AC1", "--per-file-ignores", "!src/*.py:AC107", ".")
    assert run.paths() == ["src/c.py"]
    assert "--per-file-ignores 'tests/*.py:AC1'" in check("--show-settings", "--per-file-ignores", "tests/*.py:AC1").stdout


@pytest.mark.parametrize(
    "value, error",
    [("AC107", "expected PATTERN:CODES"), ("tests/*.py:", "empty rule selector"), ("tests/*.py:AC999", "unknown rule selector: AC999")],
)
def test_a_bad_per_file_ignore_on_the_command_line_is_exit_2(project, check, value, error):
    write(project / "bad.py")
    run = check("--per-file-ignores", value, "bad.py")
    assert run.exit_code == 2 and error in run.stderr and run.stdout == ""


# --- force-exclude in the config, and --no-force-exclude ------------------------------------------


def test_force_exclude_in_the_config_and_no_force_exclude_on_the_command_line(project, check):
    write(project / "a2alint.toml", 'extend-exclude = ["gen"]\n')
    write(project / "gen" / "a.py")
    write(project / "b.py")
    assert check("--show-files", "gen/a.py", "b.py").stdout == "b.py\ngen/a.py\n"
    write(project / "a2alint.toml", 'extend-exclude = ["gen"]\nforce-exclude = true\n')
    assert check("--show-files", "gen/a.py", "b.py").stdout == "b.py\n"
    assert check("--show-files", "--no-force-exclude", "gen/a.py", "b.py").stdout == "b.py\ngen/a.py\n"
    assert check("--no-force-exclude", "--stdin-filename", "gen/a.py", "-", input=FIXABLE).exit_code == 1
    assert check("--stdin-filename", "gen/a.py", "-", input=FIXABLE).exit_code == 0
    write(project / "a2alint.toml", "force-exclude = 1\n")
    run = check("b.py")
    assert run.exit_code == 2 and "'force-exclude': expected true or false" in run.stderr
