"""Input the system itself limits: piped sources larger than a file may be, names and
paths longer than the system allows. Each is a clear message and the run goes on."""

from __future__ import annotations

import io
import os
import sys

from a2alint.runner import MAX_BYTES
from conftest import CLEAN, UNFIXABLE, run_installed, write

HUGE = ("import a2a\n" + "x = 1\n" * (MAX_BYTES // 3)).encode()


def test_a_huge_piped_source_is_one_finding_and_passes_through_fix_whole(project):
    assert len(HUGE) > MAX_BYTES * 1.5
    checked = run_installed("check", "--no-cache", "--stdin-filename", "big.py", "-", cwd=project, input=HUGE)
    assert checked.exit_code == 1
    assert "AC000" in checked.stdout and "too large" in checked.stdout
    fixed = run_installed("check", "--no-cache", "--fix", "--stdin-filename", "big.py", "-", cwd=project, input=HUGE, stdout=-1)
    assert fixed.exit_code == 1


def test_the_piped_source_passes_through_fix_byte_for_byte(project, tmp_path):
    out = tmp_path / "out.py"
    with open(out, "wb") as stream:
        run_installed("check", "--no-cache", "--fix", "--stdin-filename", "big.py", "-", cwd=project, input=HUGE, stdout=stream)
    assert out.read_bytes() == HUGE


def test_stdin_is_never_read_whole(check, monkeypatch):
    """Only as much as a file may hold is read before checking (2.5 GB piped in must not be
    held in memory): a read without a size would take it all."""
    asked: list[int] = []

    class Bounded(io.BytesIO):
        def read(self, size: int | None = -1) -> bytes:
            asked.append(-1 if size is None else size)
            return super().read(size)

    stream = Bounded(HUGE)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(stream))
    from a2alint import cli
    from a2alint.runner import Linter

    result = cli._check_stdin(Linter(cli.load_rules()), cli.SettingsResolver(cli.load_rules()), "big.py", None, None)
    assert asked and all(0 <= size <= MAX_BYTES + 1 for size in asked), asked
    assert [d.code for d in result.diagnostics] == ["AC000"]


def test_a_stdin_filename_longer_than_the_system_allows_is_checked_with_a_message(project):
    name = "a" * 300 + ".py"
    clean = run_installed("check", "--no-cache", "--stdin-filename", name, "-", cwd=project, input=CLEAN.encode())
    assert clean.exit_code == 0, clean.stderr
    assert "File name too long" in clean.stderr and "Traceback" not in clean.stderr
    found = run_installed("check", "--no-cache", "--stdin-filename", name, "-", cwd=project, input=UNFIXABLE.encode())
    assert found.exit_code == 1 and "AC107" in found.stdout, found.stderr


def test_a_tree_deeper_than_path_max_is_a_message_and_the_rest_is_checked(project):
    write(project / "bad.py", UNFIXABLE)
    here = os.getcwd()
    try:
        os.chdir(project)
        for _ in range(25):  # 25 x 201 bytes: past PATH_MAX (4096), made one folder at a time
            os.mkdir("d" * 200)
            os.chdir("d" * 200)
        with open("deep.py", "w", encoding="utf-8") as stream:
            stream.write(UNFIXABLE)
    finally:
        os.chdir(here)
    run = run_installed("check", "--no-cache", ".", cwd=project)
    assert "Traceback" not in run.stderr, run.stderr[-2000:]
    assert "too long" in run.stderr
    assert run.exit_code == 1 and "bad.py" in run.stdout
