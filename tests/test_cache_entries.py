"""Where the cache reads from: never a FIFO, a device or a symbolic link, never more than
a bounded number of bytes."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

import a2alint.cache as cache_module
import a2alint.runner as runner_module
from conftest import FIXABLE, run_installed, write

UNCACHED = ("--no-cache", "--select", "AC107", "--format", "json", "bad.py")
CACHED = UNCACHED[1:]


def entries(project: Path, kind: str) -> list[Path]:
    return sorted((project / ".a2alint_cache").rglob(f"*.{kind}"))


@pytest.fixture
def cached_finding(project, check) -> tuple[Path, dict]:
    """``bad.py`` checked once: its findings entry, and what that entry holds."""
    write(project / "bad.py", FIXABLE)
    check(*CACHED)
    (entry,) = entries(project, "json")
    return entry, json.loads(entry.read_bytes()[32:])


# --- where an entry is read from ----------------------------------------------------------------


@pytest.fixture
def parsed(monkeypatch) -> list[str]:
    """The display paths of the files parsed from now on."""
    found: list[str] = []
    prepare = runner_module.Linter.prepare
    monkeypatch.setattr(runner_module.Linter, "prepare", lambda self, data, display, *a, **k: found.append(display) or prepare(self, data, display, *a, **k))
    return found


def test_an_entry_behind_a_symbolic_link_is_not_followed(cached_finding, check, project, parsed):
    """Even to a genuine entry: a link in the cache points wherever its maker chose."""
    entry, _ = cached_finding
    elsewhere = shutil.move(entry, project / "elsewhere.json")
    entry.symlink_to(elsewhere)
    assert check(*CACHED).codes() == ["AC107"]
    assert parsed == ["bad.py"], "the linked entry was served"


@pytest.mark.parametrize("target", ["/dev/zero", "/dev/null"])
def test_an_entry_linked_to_a_device_is_a_miss(cached_finding, check, target):
    entry, _ = cached_finding
    entry.unlink()
    entry.symlink_to(target)
    assert check(*CACHED).codes() == ["AC107"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_in_place_of_an_entry_is_a_miss_not_a_hang(cached_finding, project):
    entry, _ = cached_finding
    entry.unlink()
    os.mkfifo(entry)
    run = run_installed("check", *CACHED, cwd=project)  # times out if it waits for a writer
    assert run.exit_code == 1 and '"AC107"' in run.stdout


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_in_place_of_the_signing_key_runs_without_the_cache(project, tmp_path):
    home = tmp_path / "home"
    (home / "a2alint").mkdir(parents=True)
    os.mkfifo(home / "a2alint" / "cache-key")
    write(project / "bad.py", FIXABLE)
    run = run_installed("check", *CACHED, cwd=project, env={"XDG_CACHE_HOME": str(home)})
    assert run.exit_code == 1 and '"AC107"' in run.stdout
    assert not entries(project, "json")


def test_an_entry_larger_than_the_bound_is_not_read(cached_finding, check, monkeypatch, parsed):
    entry, _ = cached_finding
    monkeypatch.setattr(cache_module, "MAX_ENTRY_BYTES", entry.stat().st_size - 1)
    assert check(*CACHED).codes() == ["AC107"]
    assert parsed == ["bad.py"]
