"""Where the cache lives (the project root, ``--cache-dir``, ``$A2ALINT_CACHE_DIR``) and
when it is not used at all: when git tracks it, as the work tree's index tells."""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
from pathlib import Path

import pytest

import a2alint.runner as runner_module
from a2alint.cache import CACHE_DIR_VARIABLE, tracked_in_git
from a2alint.config import SettingsResolver
from a2alint.registry import load_rules
from a2alint.runner import Linter
from a2alint.workspace import Workspace
from conftest import FIXABLE, write
from test_cache_entries import parsed  # noqa: F401  (a fixture)

CONFIG = '[tool.a2alint]\nselect = ["AC107"]\n'


@pytest.fixture(autouse=True)
def _no_cache_variable(monkeypatch):
    monkeypatch.delenv(CACHE_DIR_VARIABLE, raising=False)


def _findings_in(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.json"))


@pytest.fixture
def configured(project: Path) -> Path:
    """A project with its config file at the top and a file to check in ``src/pkg``."""
    write(project / "pyproject.toml", CONFIG)
    write(project / "src" / "pkg" / "bad.py", FIXABLE)
    return project


def test_a_run_from_a_subfolder_uses_the_cache_at_the_config_files_folder(configured, check, monkeypatch):
    monkeypatch.chdir(configured / "src" / "pkg")
    assert check("bad.py").exit_code == 1
    assert _findings_in(configured / ".a2alint_cache")
    assert not list(configured.glob("src/**/.a2alint_cache"))


def test_without_a_config_file_the_cache_is_in_the_current_folder(project, check, monkeypatch):
    write(project / "sub" / "bad.py", FIXABLE)
    monkeypatch.chdir(project / "sub")
    check("bad.py")
    assert _findings_in(project / "sub" / ".a2alint_cache")


def test_the_config_file_given_places_the_cache_and_isolated_places_it_here(project, check):
    write(project / "settings" / "a2alint.toml", 'select = ["AC107"]\n')
    write(project / "bad.py", FIXABLE)
    check("--config", "settings/a2alint.toml", "bad.py")
    assert _findings_in(project / "settings" / ".a2alint_cache")
    assert not (project / ".a2alint_cache").exists()
    check("--isolated", "bad.py")
    assert _findings_in(project / ".a2alint_cache")


def test_cache_dir_and_the_variable_move_it_and_the_option_wins(configured, check, monkeypatch, tmp_path):
    monkeypatch.chdir(configured / "src")
    check("--cache-dir", "../option-cache", "pkg/bad.py")
    assert _findings_in(configured / "option-cache")
    assert (configured / "option-cache" / ".gitignore").is_file()
    monkeypatch.setenv(CACHE_DIR_VARIABLE, str(tmp_path / "variable-cache"))
    check("pkg/bad.py")
    assert _findings_in(tmp_path / "variable-cache")
    check("--cache-dir", str(tmp_path / "option-wins"), "pkg/bad.py")
    assert _findings_in(tmp_path / "option-wins")
    assert not (configured / ".a2alint_cache").exists()
    assert check("--no-cache", "--cache-dir", str(tmp_path / "unused"), "pkg/bad.py").exit_code == 1
    assert not (tmp_path / "unused").exists()


def test_the_cache_folder_is_served_from_wherever_it_was_moved(configured, check, monkeypatch, tmp_path):
    monkeypatch.chdir(configured)
    check("--cache-dir", str(tmp_path / "moved"), "src/pkg/bad.py")
    monkeypatch.setattr(runner_module.Linter, "prepare", lambda *a, **k: pytest.fail("parsed again"))
    assert check("--cache-dir", str(tmp_path / "moved"), "--format", "json", "src/pkg/bad.py").codes() == ["AC107"]


def test_clean_removes_the_projects_cache_from_a_subfolder(configured, check, a2alint, monkeypatch):
    check("src/pkg/bad.py")
    monkeypatch.chdir(configured / "src")
    assert a2alint("clean").exit_code == 0
    assert not (configured / ".a2alint_cache").exists()


def test_clean_removes_only_a_folder_the_cache_made(project, a2alint, check, tmp_path):
    keep = tmp_path / "notes"
    write(keep / "todo.txt", "mine\n")
    run = a2alint("clean", "--cache-dir", str(keep))
    assert run.exit_code == 2 and "not removed" in run.stderr
    assert (keep / "todo.txt").read_text() == "mine\n"
    write(project / "bad.py", FIXABLE)
    check("--cache-dir", "mine", "bad.py")
    assert a2alint("clean", "--cache-dir", "mine").stdout == "Removed mine/\n"
    assert not (project / "mine").exists()


def test_the_language_server_places_its_cache_by_the_same_rule(configured, monkeypatch, tmp_path):
    """The server's root is its workspace folder: a subfolder of the project here."""
    registry = load_rules()
    workspace = Workspace(Linter(registry), SettingsResolver(registry, cwd=configured / "src"))
    assert workspace.cache.directory.parent == configured / ".a2alint_cache"
    monkeypatch.setenv(CACHE_DIR_VARIABLE, str(tmp_path / "variable-cache"))
    workspace = Workspace(Linter(registry), SettingsResolver(registry, cwd=configured / "src"))
    assert workspace.cache.directory.parent == tmp_path / "variable-cache"


# --- a cache git tracks ---------------------------------------------------------------------------

requires_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def git(folder: Path, *args: str) -> str:
    environment = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    done = subprocess.run(["git", "-C", str(folder), *args], capture_output=True, text=True, env=environment, check=True)
    return done.stdout


def _index_version(repository: Path) -> int:
    return struct.unpack(">4sI", (repository / ".git" / "index").read_bytes()[:8])[1]


@pytest.fixture
def repository(project: Path) -> Path:
    """A git work tree with ``bad.py`` committed and its cache made (and ignored, as it is)."""
    git(project, "init", "-q")
    write(project / "bad.py", FIXABLE)
    git(project, "add", "bad.py")
    return project


def _commit_the_cache(repository: Path, check) -> None:
    check("bad.py")
    git(repository, "add", "--force", ".a2alint_cache")


@requires_git
@pytest.mark.parametrize("version", [2, 3, 4])
def test_a_cache_git_tracks_is_not_used_and_said_once(repository, check, parsed, version):
    _commit_the_cache(repository, check)
    if version == 3:  # git writes format 3 only for entries with extended flags
        git(repository, "update-index", "--skip-worktree", "bad.py")
    git(repository, "update-index", "--index-version", str(version))
    assert _index_version(repository) == version
    before = {path: path.stat().st_mtime_ns for path in _findings_in(repository / ".a2alint_cache")}
    parsed.clear()
    run = check("--format", "json", "bad.py")
    assert run.codes() == ["AC107"]
    assert parsed == ["bad.py"], "the tracked cache was read"
    assert run.stderr.count("is tracked by git") == 1
    assert "git rm -r --cached .a2alint_cache" in run.stderr
    assert {path: path.stat().st_mtime_ns for path in _findings_in(repository / ".a2alint_cache")} == before


@requires_git
@pytest.mark.parametrize("version", ["2", "4"])
def test_a_cache_tracked_in_a_split_index_is_seen(repository, check, version):
    """A split index keeps most entries in a shared index file beside it."""
    _commit_the_cache(repository, check)
    git(repository, "update-index", "--index-version", version)
    git(repository, "update-index", "--split-index")
    (shared,) = (repository / ".git").glob("sharedindex.*")
    assert tracked_in_git(repository / ".a2alint_cache") == ".a2alint_cache"
    # untracked as the warning says: the shared index keeps the entries, marked deleted
    git(repository, "-c", "splitIndex.maxPercentChange=100", "rm", "-r", "-q", "--cached", ".a2alint_cache")
    assert shared.exists() and "a2alint_cache" not in git(repository, "ls-files")
    assert tracked_in_git(repository / ".a2alint_cache") is None


@requires_git
def test_a_cache_tracked_in_a_sha256_repository_is_seen(project, check):
    try:
        git(project, "init", "-q", "--object-format=sha256")
    except subprocess.CalledProcessError:
        pytest.skip("this git makes no SHA-256 repositories")
    write(project / "bad.py", FIXABLE)
    _commit_the_cache(project, check)
    assert tracked_in_git(project / ".a2alint_cache") == ".a2alint_cache"


@requires_git
def test_a_cache_tracked_in_a_linked_work_tree_or_a_subfolder_is_seen(repository, check, monkeypatch, tmp_path):
    write(repository / "sub" / "bad.py", FIXABLE)
    monkeypatch.chdir(repository / "sub")
    check("bad.py")
    git(repository, "add", "--force", "sub")
    git(repository, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "cache")
    assert tracked_in_git(repository / "sub" / ".a2alint_cache") == "sub/.a2alint_cache"
    git(repository, "worktree", "add", "-q", str(tmp_path / "linked"))
    assert (tmp_path / "linked" / ".git").is_file()
    assert tracked_in_git(tmp_path / "linked" / "sub" / ".a2alint_cache") == "sub/.a2alint_cache"


@requires_git
def test_a_cache_in_a_folder_a_sparse_index_leaves_out_is_tracked(repository):
    """A sparse index keeps one entry for a folder outside the checkout: ``sub/``."""
    write(repository / "sub" / ".a2alint_cache" / "entry", "x\n")
    git(repository, "add", "--force", "sub")
    git(repository, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "cache")
    git(repository, "sparse-checkout", "set", "--cone", "--sparse-index", "elsewhere")
    assert "sub/" in git(repository, "ls-files", "--sparse").split()
    assert tracked_in_git(repository / "sub" / ".a2alint_cache") == "sub/.a2alint_cache"
    assert tracked_in_git(repository / ".a2alint_cache") is None


@requires_git
@pytest.mark.parametrize("version", ["2", "4"])
def test_an_untracked_cache_and_lookalike_paths_are_used(repository, check, parsed, version):
    """Tracked paths that only begin like the cache's, or a cache folder in a subfolder,
    are not the cache in use."""
    write(repository / ".a2alint_cache_notes.txt", "x\n")
    write(repository / "docs" / ".a2alint_cache" / "x.txt", "x\n")
    git(repository, "add", "--force", ".a2alint_cache_notes.txt", "docs")
    git(repository, "update-index", "--index-version", version)
    check("bad.py")
    run = check("--format", "json", "bad.py")
    assert run.codes() == ["AC107"] and "tracked" not in run.stderr
    assert parsed == ["bad.py"], "the second run was not served from the cache"


def test_a_damaged_index_is_not_a_crash(project, check):
    (project / ".git").mkdir()
    write(project / "bad.py", FIXABLE)
    for damage in (b"DIRC\x00\x00\x00\x02\xff\xff\xff\xff" + b"\x00" * 100, b"DIRC", b"not an index" * 100):
        (project / ".git" / "index").write_bytes(damage)
        assert check("bad.py").exit_code == 1
        assert tracked_in_git(project / ".a2alint_cache") is None
