"""Where the cache lives: the project root, ``--cache-dir``, ``$A2ALINT_CACHE_DIR``."""

from __future__ import annotations

from pathlib import Path

import pytest

import a2alint.runner as runner_module
from a2alint.cache import CACHE_DIR_VARIABLE
from a2alint.config import SettingsResolver
from a2alint.registry import load_rules
from a2alint.runner import Linter
from a2alint.workspace import Workspace
from conftest import FIXABLE, write

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
