"""Where a ruff user reaches by habit: no check passes silently having checked nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import UNFIXABLE, write

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("args", [("--select", ""), ("--select", ","), ("--select", "AC1,"), ("--ignore", ""), ("--extend-select", " ")])
def test_an_empty_selector_is_a_usage_error(project, check, args):
    write(project / "bad.py", UNFIXABLE)
    run = check(*args, "bad.py")
    assert run.exit_code == 2 and "empty rule selector" in run.stderr


@pytest.mark.parametrize("table", ['select = [""]', 'ignore = [""]', "select = []", 'extend-select = [" "]'])
def test_an_empty_selector_in_the_config_names_the_file_and_key(project, check, table):
    write(project / "bad.py", UNFIXABLE)
    (project / "pyproject.toml").write_text(f"[tool.a2alint]\n{table}\n", encoding="utf-8")
    run = check("bad.py")
    assert run.exit_code == 2
    assert "pyproject.toml" in run.stderr and table.split(" =")[0] in run.stderr


def test_a_path_that_does_not_exist_gets_no_all_clear(project, check):
    run = check("nope/")
    assert run.exit_code == 2
    assert "nope" in run.stderr and "no such file" in run.stderr.lower()
    assert "All checks passed" not in run.stdout


def test_the_hook_runs_once_on_the_files_check_would_check():
    hook = (ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    assert "require_serial: true" in hook  # one run: one summary, one project
    assert "pyi" not in hook  # check skips stubs by default, so the hook does too
    assert "minimum_pre_commit_version" in hook


SKIP_IN_A_STRING = '''import a2a
HELP = """
# a2alint: skip-file
"""
def f(card): return hash(card.model_dump_json())
'''


def test_skip_file_inside_a_string_does_not_skip_the_file(project, check):
    write(project / "doc.py", SKIP_IN_A_STRING)
    run = check("doc.py")
    assert run.exit_code == 1 and "AC107" in run.stdout


def test_skip_file_as_a_comment_still_skips_it(project, check):
    write(project / "skipped.py", "# a2alint: skip-file\n" + UNFIXABLE)
    assert check("skipped.py").exit_code == 0


def test_force_exclude_applies_to_the_stdin_filename(project, check):
    (project / "pyproject.toml").write_text('[tool.a2alint]\nextend-exclude = ["build"]\n', encoding="utf-8")
    plain = check("--force-exclude", "--stdin-filename", "build/x.py", "-", input=UNFIXABLE)
    assert plain.exit_code == 0 and "AC107" not in plain.stdout
    fixed = check("--force-exclude", "--fix", "--stdin-filename", "build/x.py", "-", input=UNFIXABLE)
    assert fixed.exit_code == 0 and fixed.stdout == UNFIXABLE  # passed through unchanged
    kept = check("--force-exclude", "--stdin-filename", "src/x.py", "-", input=UNFIXABLE)
    assert kept.exit_code == 1 and "AC107" in kept.stdout


@pytest.mark.parametrize("fmt", ["sarif", "github"])
def test_statistics_in_a_format_that_has_none_is_refused(project, check, fmt):
    write(project / "bad.py", UNFIXABLE)
    run = check("--statistics", "--format", fmt, "bad.py")
    assert run.exit_code == 2 and "--statistics" in run.stderr


def test_statistics_as_json_are_json(project, check):
    import json

    write(project / "bad.py", UNFIXABLE)
    run = check("--statistics", "--format", "json", "bad.py")
    assert json.loads(run.stdout) == [{"code": "AC107", "name": "unstable-contract-hash", "count": 1, "fixable": False}]
