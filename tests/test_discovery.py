"""Which files a run checks: walking, default and configured excludes, .gitignore,
--force-exclude, and paths that hold nothing or do not exist."""

from __future__ import annotations

import subprocess

import pytest

from conftest import UNFIXABLE, write


def _checked(check, *args: str) -> list[str]:
    """The paths of the findings (every file written below holds exactly one)."""
    run = check("--format", "json", "--select", "AC107", *args)
    assert run.exit_code in (0, 1), run.stderr
    return sorted(run.paths())


def _git_init(folder):
    subprocess.run(["git", "init", "-q", str(folder)], check=True)


def test_directories_are_walked_for_python_files_only(project, check):
    write(project / "pkg" / "mod.py", UNFIXABLE)
    write(project / "pkg" / "sub" / "deep.py", UNFIXABLE)
    write(project / "pkg" / "notes.txt", UNFIXABLE)
    write(project / "pkg" / "stub.pyi", UNFIXABLE)
    assert _checked(check) == ["pkg/mod.py", "pkg/sub/deep.py"]
    assert check("--format", "json", "pkg").json()["files"] == 2


@pytest.mark.parametrize("folder", [".git", "build", "node_modules", "__pycache__", ".venv", "venv", "dist"])
def test_default_excludes_are_skipped(project, check, folder):
    write(project / folder / "bad.py", UNFIXABLE)
    write(project / "kept.py", UNFIXABLE)
    assert _checked(check, ".") == ["kept.py"]


def test_a_virtualenv_under_any_name_is_skipped(project, check):
    write(project / "env311" / "pyvenv.cfg", "home = /usr/bin\n")
    write(project / "env311" / "lib" / "site.py", UNFIXABLE)
    write(project / "kept.py", UNFIXABLE)
    assert _checked(check, ".") == ["kept.py"]


def test_extend_exclude_on_the_command_line_and_in_config(project, check):
    write(project / "a2alint.toml", 'extend-exclude = ["generated"]\n')
    for name in ("generated/a.py", "vendored/b.py", "pkg/legacy_x.py", "pkg/c.py"):
        write(project / name, UNFIXABLE)
    assert _checked(check, "--extend-exclude", "vendored,legacy_*.py") == ["pkg/c.py"]


def test_exclude_with_a_slash_matches_from_the_config_folder(project, check):
    write(project / "a2alint.toml", 'extend-exclude = ["pkg/gen"]\n')
    write(project / "pkg" / "gen" / "a.py", UNFIXABLE)
    write(project / "other" / "pkg" / "gen" / "b.py", UNFIXABLE)
    assert _checked(check, ".") == ["other/pkg/gen/b.py"]


def test_gitignore_is_respected_inside_a_git_work_tree(project, check):
    _git_init(project)
    write(project / ".gitignore", "ignored/\n*_generated.py\n")
    write(project / "pkg" / ".gitignore", "local.py\n")
    for name in ("ignored/a.py", "pkg/x_generated.py", "pkg/local.py", "pkg/kept.py", "local.py"):
        write(project / name, UNFIXABLE)
    assert _checked(check, ".") == ["local.py", "pkg/kept.py"]


def test_gitignore_outside_a_git_work_tree_is_not_read(project, check):
    write(project / ".gitignore", "ignored/\n")
    write(project / "ignored" / "a.py", UNFIXABLE)
    assert _checked(check, ".") == ["ignored/a.py"]


def test_respect_gitignore_false_checks_ignored_files(project, check):
    _git_init(project)
    write(project / ".gitignore", "ignored/\n")
    write(project / "a2alint.toml", "respect-gitignore = false\n")
    write(project / "ignored" / "a.py", UNFIXABLE)
    assert _checked(check, ".") == ["ignored/a.py"]


def test_excluded_files_named_explicitly_are_checked_without_force_exclude(project, check):
    _git_init(project)
    write(project / ".gitignore", "ignored/\n")
    write(project / "build" / "a.py", UNFIXABLE)
    write(project / "ignored" / "b.py", UNFIXABLE)
    assert _checked(check, "build/a.py", "ignored/b.py") == ["build/a.py", "ignored/b.py"]


def test_force_exclude_applies_excludes_and_gitignore_to_named_files(project, check):
    _git_init(project)
    write(project / ".gitignore", "ignored/\n")
    write(project / "a2alint.toml", 'extend-exclude = ["legacy.py"]\n')
    for name in ("build/a.py", "ignored/b.py", "legacy.py", "kept.py"):
        write(project / name, UNFIXABLE)
    named = ("build/a.py", "ignored/b.py", "legacy.py", "kept.py")
    assert _checked(check, "--force-exclude", *named) == ["kept.py"]


def test_a_file_named_twice_is_checked_once(project, check):
    write(project / "a.py", UNFIXABLE)
    run = check("--format", "json", "a.py", ".", "./a.py")
    assert run.json()["files"] == 1 and len(run.json()["diagnostics"]) == 1


def test_directory_without_python_files_passes_and_says_so(project, check):
    write(project / "docs" / "index.md", "# docs\n")
    run = check("docs")
    assert run.exit_code == 0
    assert run.stdout == "All checks passed (0 files checked).\n"
    assert "no Python files found" in run.stderr


def test_missing_path_is_exit_2_and_the_other_paths_are_still_checked(project, check):
    """A path that does not exist is a usage error (exit 2), not a silent pass: a mistyped
    path in CI must not look green. The paths that do exist are still reported."""
    write(project / "bad.py", UNFIXABLE)
    run = check("--select", "AC107", "missing.py", "bad.py")
    assert run.exit_code == 2
    assert "a2alint: missing.py: no such file or directory" in run.stderr
    assert run.stdout.startswith("bad.py:2:21: AC107")


def test_missing_path_is_exit_2_even_with_exit_zero(project, check):
    assert check("--exit-zero", "missing_dir").exit_code == 2


def test_force_exclude_skips_a_named_excluded_directory(project, check):
    write(project / "build" / "a.py", UNFIXABLE)
    write(project / "kept.py", UNFIXABLE)
    assert _checked(check, "--force-exclude", "build", "kept.py") == ["kept.py"]


def test_force_exclude_never_excludes_the_project_folder_itself(tmp_path, check, monkeypatch):
    project = tmp_path / "build"  # a project that happens to live in a folder named like an exclude
    write(project / "a.py", UNFIXABLE)
    monkeypatch.chdir(project)
    assert _checked(check, "--force-exclude", ".") == ["a.py"]
    assert _checked(check, "--force-exclude", "a.py") == ["a.py"]


def test_the_walk_for_a_project_s_context_stops_past_its_limit(project):
    """A folder that holds more files than a project's context may have (a home folder)
    is not walked to its end only to be set aside."""
    from a2alint.config import SettingsResolver
    from a2alint.discovery import discover
    from a2alint.registry import load_rules

    for index in range(6):
        write(project / f"m{index}.py", "")
    resolver = SettingsResolver(load_rules(), cwd=project)
    assert len(discover(["."], resolver, limit=2)[0]) == 3
    assert len(discover(["."], resolver)[0]) == 6
