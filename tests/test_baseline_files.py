"""The baseline file itself: written through a symbolic link, by concurrent writers, on a full
disk without leaving anything behind; read only from a regular file of a sane size, whatever
``--baseline`` names (a FIFO, ``/dev/zero``, JSON nested past any sense)."""

from __future__ import annotations

import errno
import json
import os
import threading

import pytest

import a2alint.baseline as baseline_module
from conftest import UNFIXABLE, write


@pytest.fixture
def legacy(project):
    return write(project / "legacy.py", UNFIXABLE)


def _recorded(path) -> list[tuple[str, int]]:
    return [(f["path"], f["line"]) for f in json.loads(path.read_text())["findings"]]


# --- writing ---------------------------------------------------------------------------------------


def test_write_baseline_through_a_symbolic_link_writes_its_target(project, check, legacy):
    target = project / "shared" / "baseline.json"
    target.parent.mkdir()
    target.write_text("{}")
    (project / "baseline.json").symlink_to("shared/baseline.json")
    run = check("--write-baseline", "baseline.json", "legacy.py")
    assert (run.exit_code, run.stderr) == (0, "")
    assert os.readlink(project / "baseline.json") == "shared/baseline.json"
    assert _recorded(target) == [("legacy.py", 2)], "paths count from the link's folder, where it is read from"
    assert check("--baseline", "baseline.json", "legacy.py").exit_code == 0


def test_concurrent_baseline_writers_each_write_a_whole_baseline(project, check, legacy, monkeypatch):
    """A second writer runs to its end while the first is between writing its temporary file
    and renaming it: neither takes the other's temporary file."""
    write(project / "other.py", UNFIXABLE + UNFIXABLE.replace("def f", "def g"))
    real = os.replace
    interleaved: list[int] = []

    def replace(source, target):
        monkeypatch.setattr(os, "replace", real)  # the second writer renames as usual
        interleaved.append(check("--no-cache", "--write-baseline", "baseline.json", "other.py").exit_code)
        return real(source, target)

    monkeypatch.setattr(os, "replace", replace)
    run = check("--no-cache", "--write-baseline", "baseline.json", "legacy.py")
    assert interleaved == [0]
    assert (run.exit_code, run.stderr) == (0, "")
    assert _recorded(project / "baseline.json") == [("legacy.py", 2)]
    assert sorted(p.name for p in project.iterdir()) == ["baseline.json", "legacy.py", "other.py"]


@pytest.mark.parametrize("failing", ["replace", "fsync"])
def test_a_baseline_that_cannot_be_written_leaves_nothing_behind(project, check, legacy, monkeypatch, failing):
    (project / "baseline.json").write_text('{"version": 1, "findings": []}\n')

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, failing, full)
    run = check("--no-cache", "--write-baseline", "baseline.json", "legacy.py")
    assert run.exit_code == 2
    assert "a2alint: error: baseline.json: cannot write the baseline: No space left on device" in run.stderr
    assert (project / "baseline.json").read_text() == '{"version": 1, "findings": []}\n'
    assert sorted(p.name for p in project.iterdir()) == ["baseline.json", "legacy.py"]


def test_a_new_baseline_is_readable_as_a_file_the_user_creates(project, check, legacy):
    previous = os.umask(0o022)
    try:
        assert check("--write-baseline", "baseline.json", "legacy.py").exit_code == 0
    finally:
        os.umask(previous)
    assert (project / "baseline.json").stat().st_mode & 0o777 == 0o644


# --- reading ---------------------------------------------------------------------------------------


def test_a_baseline_nested_past_any_sense_is_one_message(project, check, legacy):
    (project / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    run = check("--baseline", "deep.json", "legacy.py")
    assert run.exit_code == 2
    assert run.stderr == "a2alint: error: baseline deep.json: nested too deeply to be a baseline\n"


def test_a_device_as_baseline_is_refused_without_reading_it(project, check, legacy):
    run = check("--baseline", "/dev/zero", "legacy.py")
    assert run.exit_code == 2
    assert run.stderr == "a2alint: error: baseline /dev/zero: not a regular file\n"


def test_a_fifo_as_baseline_is_refused_without_waiting_for_a_writer(project, check, legacy):
    fifo = project / "baseline.json"
    os.mkfifo(fifo)
    unblock = threading.Timer(10, lambda: os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)))
    unblock.start()  # should the read wait for a writer, this one comes (and goes) after 10 s
    try:
        run = check("--baseline", "baseline.json", "legacy.py")
    finally:
        unblock.cancel()
    assert run.exit_code == 2
    assert run.stderr == "a2alint: error: baseline baseline.json: not a regular file\n"


def test_a_baseline_larger_than_64_mib_is_refused_without_reading_it(project, check, legacy):
    assert baseline_module.MAX_BASELINE_BYTES == 64 * 1024 * 1024
    with open(project / "huge.json", "wb") as stream:
        stream.truncate(baseline_module.MAX_BASELINE_BYTES + 1)  # sparse: takes no room
    run = check("--baseline", "huge.json", "legacy.py")
    assert run.exit_code == 2
    assert run.stderr == "a2alint: error: baseline huge.json: larger than 64 MiB, more than a baseline holds\n"
