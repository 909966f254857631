"""What the cache reads back: entries checked against the schema the engine writes, even
when signed; facts unpickled into the model's classes only; never a FIFO, a device or a
symbolic link, never more than a bounded number of bytes.

A signed entry is written here with this user's key, as a2alint itself (or someone who
holds the key) would: an entry with a bad signature is a miss before any of this."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import pickle
import shutil
from pathlib import Path

import pytest

import a2alint.cache as cache_module
import a2alint.runner as runner_module
from a2alint.cache import Cache
from a2alint.registry import load_rules
from conftest import FIXABLE, run_installed, write

PROJECTS = Path(__file__).parent / "corpus" / "projects"
UNCACHED = ("--no-cache", "--select", "AC107", "--format", "json", "bad.py")
CACHED = UNCACHED[1:]


def sign(entry: Path, payload: bytes) -> None:
    """Write ``payload`` to the cache entry file ``entry``, signed with this user's key."""
    secret = (Path(os.environ["XDG_CACHE_HOME"]) / "a2alint" / "cache-key").read_bytes()
    key, kind = entry.parent.name + entry.stem, entry.suffix[1:]
    signature = hmac.new(secret, key.encode() + b"\0" + kind.encode() + b"\0" + payload, hashlib.sha256).digest()
    entry.write_bytes(signature + payload)


def entries(project: Path, kind: str) -> list[Path]:
    return sorted((project / ".a2alint_cache").rglob(f"*.{kind}"))


@pytest.fixture
def cached_finding(project, check) -> tuple[Path, dict]:
    """``bad.py`` checked once: its findings entry, and what that entry holds."""
    write(project / "bad.py", FIXABLE)
    check(*CACHED)
    (entry,) = entries(project, "json")
    return entry, json.loads(entry.read_bytes()[32:])


def _set(field: str, value):
    return lambda finding: finding.update({field: value})


MALFORMED = {
    "line as a string": _set("line", "6"),
    "line as a boolean": _set("line", True),
    "line zero": _set("line", 0),
    "column as a float": _set("column", 27.0),
    "unknown code": _set("code", "AC999"),
    "code as a list": _set("code", ["AC107"]),
    "unknown severity": _set("severity", "fatal"),
    "another rule's name": _set("rule", "made-up-name"),
    "message missing": lambda finding: finding.pop("message"),
    "unknown field with a huge string": _set("padding", "x" * 4_000_000),
    "huge message": _set("message", "x" * 1_000_000),
    "terminal escapes in the message": _set("message", "\x1b[2J\x1b]0;owned\x07all clear"),
    "a CSI in the suggestion": _set("suggestion", "run \x9b31m this"),
    "a control character in the path": _set("path", "bad.py\rother.py"),
    "related place of the wrong shape": _set("related", [{"path": 1, "line": 1, "column": 1, "label": ""}]),
    "related not a list": _set("related", "bad.py"),
    "code flow past the related places": _set("code_flow", [0, 3]),
    "fix of unknown applicability": lambda finding: finding["fix"].update(applicability="always"),
    "fix edit with an escape": lambda finding: finding["fix"]["edits"][0].update(content="\x1b[31m"),
    "fix description without a fix": lambda finding: finding.update(fix=None),
}


@pytest.mark.parametrize("damage", MALFORMED.values(), ids=MALFORMED.keys())
def test_a_signed_entry_that_breaks_the_schema_is_a_miss(cached_finding, check, damage):
    entry, held = cached_finding
    damage(held["diagnostics"][0])
    sign(entry, json.dumps(held).encode())
    run = check(*CACHED)
    assert run.exit_code == 1
    assert run.json()["diagnostics"] == check(*UNCACHED).json()["diagnostics"]


@pytest.mark.parametrize(
    "payload",
    [
        b'{"depends": "", "diagnostics": [null]}',
        b'{"depends": 1, "diagnostics": []}',
        b'{"depends": "", "diagnostics": %s}' % (b"[" * 200_000 + b"]" * 200_000),
    ],
    ids=["a null finding", "depends not text", "nested past the recursion limit"],
)
def test_a_signed_entry_of_the_wrong_shape_is_a_miss(cached_finding, check, payload):
    entry, _ = cached_finding
    sign(entry, payload)
    assert check(*CACHED).json()["diagnostics"] == check(*UNCACHED).json()["diagnostics"]


def test_a_valid_entry_is_still_served(cached_finding, check, monkeypatch):
    """The schema accepts everything the engine writes: a fix with its description, related places."""
    entry, held = cached_finding
    assert held["diagnostics"][0]["fix"] and "fix_description" in held["diagnostics"][0]
    monkeypatch.setattr(runner_module.Linter, "prepare", lambda *a, **k: pytest.fail("parsed again"))
    assert check(*CACHED).codes() == ["AC107"]


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


# --- facts ----------------------------------------------------------------------------------------


class Calls:
    """Pickles as a call of ``function`` with ``args``: what a forged facts entry could hold."""

    def __init__(self, function, *args) -> None:
        self.function, self.args = function, args

    def __reduce__(self):
        return self.function, self.args




@pytest.mark.parametrize(
    "payload",
    [
        pickle.dumps({"is_a2a": True}),
        pickle.dumps(Calls(bytearray, 1 << 40)),
        pickle.dumps(Calls(eval, "(lambda: [0] * (1 << 40))()")),
        b"\x80\x05\x8e" + (1 << 60).to_bytes(8, "little"),  # 2**60 bytes said to follow: none do
        b"\x80\x05garbage",
    ],
    ids=["not a model", "allocates without bound", "runs code", "truncated", "corrupt"],
)
def test_a_signed_facts_entry_that_is_not_a_model_is_a_miss(tmp_path, payload):
    cache = Cache(tmp_path / "cache", load_rules())
    assert cache.secret  # the key to sign with
    key = Cache.key(b"import a2a\n", "m.py", "settings")
    entry = cache.directory / key[:2] / f"{key[2:]}.facts"
    entry.parent.mkdir(parents=True)
    sign(entry, payload)
    assert cache.get_facts(key) is None


def test_a_forged_facts_entry_runs_nothing_in_a_project_run(tmp_path):
    """The rest of the project comes from the cache when one file is named (and changed):
    every facts entry replaced by a signed pickle that would make a folder is a miss."""
    project = tmp_path / "bad_ttl_card_cache"
    shutil.copytree(PROJECTS / "bad_ttl_card_cache", project)
    (project / ".git").mkdir()
    run_installed("check", "--format", "json", ".", cwd=project)
    marker = tmp_path / "ran"
    for entry in entries(project, "facts"):
        sign(entry, pickle.dumps(Calls(os.mkdir, str(marker))))
    remote = "src/quotebot/remote.py"
    with open(project / remote, "a", encoding="utf-8") as stream:
        stream.write("\n# edited\n")
    warm = run_installed("check", "--format", "json", remote, cwd=project)
    assert not marker.exists()
    assert json.loads(warm.stdout) == json.loads(run_installed("check", "--no-cache", "--format", "json", remote, cwd=project).stdout)


def test_facts_read_back_are_the_model(tmp_path):
    from a2alint.config import Settings
    from a2alint.runner import Linter

    source = b"import a2a\nasync def f(resolver):\n    return await resolver.get_agent_card()\n"
    prepared = Linter(load_rules()).prepare(source, "m.py", tmp_path / "m.py", Settings(root=tmp_path), matters=True)
    cache = Cache(tmp_path / "cache", load_rules())
    key = Cache.key(source, "m.py", "settings")
    cache.put_facts(key, prepared.model)
    model = Cache(tmp_path / "cache", load_rules()).get_facts(key)
    assert model.path == prepared.model.path and len(model.scopes) == len(prepared.model.scopes)
