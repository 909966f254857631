"""The hook in ``.pre-commit-hooks.yaml``, proved with the real ``pre-commit try-repo``.

pre-commit installs the hook repository (a committed copy of this project's working
tree) into its own virtualenv from PyPI, so this test needs network access to PyPI and
takes tens of seconds; it is skipped when ``pre-commit`` or ``git`` is missing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import CLEAN, FIXABLE, write
from test_dependents import FOLLOW, PEERS_FETCHING

PROJECT = Path(__file__).resolve().parents[1]
HOOK_FILES = ("pyproject.toml", "README.md", ".pre-commit-hooks.yaml", "lint", "rules")
PRE_COMMIT = shutil.which("pre-commit", path=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")

pytestmark = pytest.mark.skipif(
    PRE_COMMIT is None or shutil.which("git") is None, reason="needs the pre-commit and git executables"
)


def _git(folder: Path, *args: str, env: dict) -> None:
    subprocess.run(["git", *args], cwd=folder, env=env, check=True, capture_output=True)


def _commit(folder: Path, env: dict) -> Path:
    """Make ``folder`` a git repository with everything in it committed."""
    _git(folder, "init", "-q", env=env)
    _git(folder, "add", ".", env=env)
    _git(folder, "commit", "-q", "-m", "snapshot", env=env)
    return folder


def _committed_repo(folder: Path, files: dict[str, str], env: dict) -> Path:
    for name, text in files.items():
        write(folder / name, text)
    return _commit(folder, env)


@pytest.fixture(scope="module")
def hook_env(tmp_path_factory) -> dict:
    home = tmp_path_factory.mktemp("pre-commit-home")
    identity = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid"}
    return {
        **{name: value for name, value in os.environ.items() if name != "FORCE_COLOR"},
        **identity,
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.invalid",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "PRE_COMMIT_HOME": str(home),
        "NO_COLOR": "1",
    }


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory, hook_env) -> Path:
    """A git repository holding this project's working tree (hook file included), committed."""
    folder = tmp_path_factory.mktemp("hook-repo") / "a2alint"
    folder.mkdir()
    for name in HOOK_FILES:
        source = PROJECT / name
        if source.is_dir():
            shutil.copytree(source, folder / name, ignore=shutil.ignore_patterns("__pycache__"))
        elif source.is_file():
            shutil.copy2(source, folder / name)
    if not (folder / "README.md").exists():  # the build needs it; its content is not what this test proves
        write(folder / "README.md", "# a2alint\n")
    return _commit(folder, hook_env)


def _try_repo(
    hook_repo: Path, checked: Path, env: dict, hook: str = "a2alint", files: tuple[str, ...] = ()
) -> subprocess.CompletedProcess:
    """Run ``hook`` as pre-commit would on ``files`` (changed files), or on every file."""
    chosen = ["--files", *files] if files else ["--all-files"]
    return subprocess.run(
        [PRE_COMMIT, "try-repo", str(hook_repo), hook, *chosen, "--color", "never"],
        cwd=checked, env=env, capture_output=True, text=True, timeout=600,
    )


def test_hook_fails_on_a_bad_file_and_prints_the_finding(tmp_path, hook_repo, hook_env):
    checked = _committed_repo(tmp_path / "app", {"bad.py": FIXABLE, "good.py": CLEAN}, hook_env)
    done = _try_repo(hook_repo, checked, hook_env)
    assert done.returncode != 0, done.stdout + done.stderr
    assert "bad.py:6:27: AC107" in done.stdout
    assert "good.py:" not in done.stdout
    assert "Traceback" not in done.stdout + done.stderr


def test_hook_passes_on_a_good_file(tmp_path, hook_repo, hook_env):
    checked = _committed_repo(tmp_path / "app", {"good.py": CLEAN, "notes.txt": FIXABLE}, hook_env)
    done = _try_repo(hook_repo, checked, hook_env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Passed" in done.stdout


def test_hook_reports_the_finding_a_changed_file_makes_in_a_module_that_imports_it(tmp_path, hook_repo, hook_env):
    checked = _committed_repo(tmp_path / "app", {"peers.py": PEERS_FETCHING, "follow.py": FOLLOW}, hook_env)
    done = _try_repo(hook_repo, checked, hook_env, files=("peers.py",))
    assert done.returncode != 0, done.stdout + done.stderr
    assert "follow.py:9:15: AC102" in done.stdout


def test_the_project_hook_checks_every_file_whichever_changed(tmp_path, hook_repo, hook_env):
    checked = _committed_repo(tmp_path / "app", {"bad.py": FIXABLE, "good.py": CLEAN}, hook_env)
    done = _try_repo(hook_repo, checked, hook_env, hook="a2alint-project", files=("good.py",))
    assert done.returncode != 0, done.stdout + done.stderr
    assert "bad.py:6:27: AC107" in done.stdout
    assert "Traceback" not in done.stdout + done.stderr
