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
