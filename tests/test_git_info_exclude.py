"""What git ignores, read as git reads it: ``.git/info/exclude`` with the ``.gitignore``
files, in git's order of precedence, and only inside a git work tree."""

from __future__ import annotations

import subprocess

from conftest import UNFIXABLE, write
from test_discovery import _checked


def _git(*args: str, cwd) -> None:
    subprocess.run(["git", "-c", "user.name=a2alint", "-c", "user.email=a2alint@example.com", *args], cwd=cwd, check=True, capture_output=True)


def _repository(project, ignores: dict[str, str], files: tuple[str, ...]) -> None:
    """A git work tree in ``project`` with these ignore files (path -> text) and Python files."""
    _git("init", "-q", str(project), cwd=project.parent)
    for name, text in ignores.items():
        write(project / name, text)
    for name in files:
        write(project / name, UNFIXABLE)


def test_info_exclude_is_respected_with_gitignore(project, check):
    ignores = {".git/info/exclude": "# local to this clone\nscratch/\n*_local.py\n", ".gitignore": "ignored/\n"}
    _repository(project, ignores, ("scratch/a.py", "pkg/x_local.py", "ignored/b.py", "pkg/kept.py"))
    assert _checked(check, ".") == ["pkg/kept.py"]
    assert _checked(check, "--force-exclude", "scratch/a.py", "pkg/kept.py") == ["pkg/kept.py"]


def test_a_gitignore_takes_back_what_info_exclude_or_a_parent_gitignore_ignores(project, check):
    """git's precedence: info/exclude, then .gitignore from the root down; the last match decides."""
    ignores = {".git/info/exclude": "*_gen.py\n", ".gitignore": "*_old.py\n!keep_gen.py\n", "pkg/.gitignore": "!keep_old.py\n"}
    _repository(project, ignores, ("a_gen.py", "keep_gen.py", "pkg/a_old.py", "pkg/keep_old.py", "keep_old.py"))
    assert _checked(check, ".") == ["keep_gen.py", "pkg/keep_old.py"]


def test_info_exclude_is_read_from_the_repository_of_a_linked_work_tree(project, check):
    _repository(project / "main", {".git/info/exclude": "scratch/\n"}, ())
    _git("commit", "-q", "--allow-empty", "-m", "start", cwd=project / "main")
    _git("worktree", "add", "-q", str(project / "linked"), cwd=project / "main")
    write(project / "linked" / "scratch" / "a.py", UNFIXABLE)
    write(project / "linked" / "kept.py", UNFIXABLE)
    assert _checked(check, "linked") == ["linked/kept.py"]


def test_info_exclude_is_not_read_outside_a_work_tree_or_with_respect_gitignore_off(project, check):
    write(project / "info" / "exclude", "scratch/\n")  # looks like a repository's, is not one
    write(project / "scratch" / "a.py", UNFIXABLE)
    assert _checked(check, ".") == ["scratch/a.py"]
    _repository(project, {".git/info/exclude": "scratch/\n", "a2alint.toml": "respect-gitignore = false\n"}, ())
    assert _checked(check, ".") == ["scratch/a.py"]
