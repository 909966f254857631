"""Stamps: a warm run on a few files of a project (pre-commit) reads no other file that has
not changed, and a file that has changed is always read again, whatever its times say.

The project is the TTL one of the corpus: ``remote.py`` holds the TTL cache that is
reported, ``client.py`` the card GET its finding rests on; ``cli.py`` and the package's
``__init__.py`` take no part in the finding, but a question about who calls what reads
their words. A module of text helpers that imports none of it is added.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

import a2alint.cache as cache_module
import a2alint.runner as runner_module
from a2alint.cache import Cache
from a2alint.cli import main

PROJECT = Path(__file__).parent / "corpus" / "projects" / "bad_ttl_card_cache"
REMOTE, CLIENT = "src/quotebot/remote.py", "src/quotebot/client.py"
OTHERS = ("src/quotebot/cli.py", "src/quotebot/__init__.py")
UNRELATED = "src/quotebot/wording.py"


@pytest.fixture
def project(tmp_path: Path, monkeypatch) -> Path:
    copy = tmp_path / "quotebot"
    shutil.copytree(PROJECT, copy)
    (copy / ".git").mkdir()
    (copy / UNRELATED).write_text('def plural(word: str, count: int) -> str:\n    return word if count == 1 else word + "s"\n', encoding="utf-8")
    monkeypatch.chdir(copy)
    return copy


def check(*paths: str) -> dict:
    result = CliRunner().invoke(main, ["check", "--format", "json", *paths])
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)


@pytest.fixture
def reads(monkeypatch) -> list[str]:
    """The files the run reads, relative to the project (the current directory)."""
    found: list[str] = []
    read_source = runner_module.read_source

    def counting(path, *args):
        found.append(Path(os.path.relpath(path)).as_posix())
        return read_source(path, *args)

    monkeypatch.setattr(runner_module, "read_source", counting)
    return found


def the_ttl_note(report: dict) -> tuple[str, int]:
    [finding] = [d for d in report["diagnostics"] if d["code"] == "AC104"]
    [note] = [(n["path"], n["line"]) for n in finding["related"] if n["path"] == CLIENT]
    return note


def append(path: Path, text: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


def test_a_warm_run_on_one_file_reads_only_what_its_findings_need(project, reads, monkeypatch):
    monkeypatch.setattr(cache_module, "RACY_NS", 0)  # the copies are new: vouch for them at once
    cold = check(".")
    assert sorted(set(reads)) == sorted([REMOTE, CLIENT, UNRELATED, *OTHERS])
    append(project / REMOTE, "\n# edited\n")
    reads.clear()
    warm = check(REMOTE)
    # remote.py is checked, client.py read to place the note that points into it; the
    # module no question reaches is not read at all
    assert REMOTE in reads and CLIENT in reads and UNRELATED not in reads, reads
    assert the_ttl_note(warm) == the_ttl_note(cold)


def test_a_file_changed_behind_the_same_size_and_modification_time_is_read_again(project, monkeypatch):
    monkeypatch.setattr(cache_module, "RACY_NS", 0)
    assert [d["code"] for d in check(".")["diagnostics"]] == ["AC104"]
    client = project / CLIENT
    old = client.stat()
    text = client.read_text(encoding="utf-8")
    # The same size, in place (the same inode), and no longer a card GET: no TTL finding.
    client.write_text(text.replace("agent-card.json", "agent-list.json"), encoding="utf-8")
    os.utime(client, ns=(old.st_atime_ns, old.st_mtime_ns))  # as `cp -p` or an unpacked archive leave it
    now = client.stat()
    assert (now.st_size, now.st_mtime_ns, now.st_ino) == (old.st_size, old.st_mtime_ns, old.st_ino)
    append(project / REMOTE, "\n# edited\n")
    assert check(REMOTE)["diagnostics"] == []


def test_a_file_written_in_the_last_two_seconds_is_not_vouched_for(project):
    check(".")  # every file was copied just now
    stamps = Cache(project / ".a2alint_cache", {}).stamps()
    assert stamps.known == {}
    for name in (REMOTE, CLIENT, UNRELATED, *OTHERS):
        assert stamps.vouched(project / name, 1 << 20) is None


def test_stamps_that_do_not_verify_are_not_used(project, reads, monkeypatch):
    monkeypatch.setattr(cache_module, "RACY_NS", 0)
    check(".")
    [entry] = list((project / ".a2alint_cache").rglob("*.stamps"))
    data = bytearray(entry.read_bytes())
    data[-1] ^= 1
    entry.write_bytes(bytes(data))
    append(project / REMOTE, "\n# edited\n")
    reads.clear()
    check(REMOTE)
    assert UNRELATED in reads


def test_a_run_that_changes_nothing_does_not_write_the_stamps_again(project, monkeypatch):
    monkeypatch.setattr(cache_module, "RACY_NS", 0)
    check(".")
    written = []
    write = Cache._write
    monkeypatch.setattr(Cache, "_write", lambda self, key, kind, payload: (written.append(kind), write(self, key, kind, payload)))
    check(".")
    assert "stamps" not in written
