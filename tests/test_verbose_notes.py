"""``--verbose`` names, once per module, the A2A-looking call the name fallback does not
read because the module imports no A2A package (README: "What a2alint cannot see"), and
the remedy, ``[tool.a2alint.api]``, makes the rules read it."""

from __future__ import annotations

from click.testing import CliRunner

from a2alint.cli import check
from conftest import write

RELAY = '''
"""Hands a job to a peer through the team's own transport object."""


async def relay(transport, message):
    reply = await transport.send_message(message)
    await transport.cancel_task(reply.id)
    return reply
'''

#: A module the prefilter keeps (it reads a card), reached through a project helper.
WIRED = {
    "pkg/__init__.py": "",
    "pkg/peers.py": '''
from a2a.client import A2ACardResolver


async def card_of(http, url):
    return await A2ACardResolver(http, url).get_agent_card()
''',
    "pkg/jobs.py": '''
from pkg.peers import card_of


class Jobs:
    def __init__(self, link):
        self.link = link

    async def start(self, http, url, message):
        card = await card_of(http, url)
        return await self.link.send_message(message, card.url)
''',
}


def _write(root, files: dict[str, str]) -> None:
    for name, text in files.items():
        write(root / name, text)


def _notes(result) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.startswith("a2alint: note:")]


def test_a_module_the_prefilter_rules_out_is_named_once(tmp_path, monkeypatch):
    _write(tmp_path, {"pyproject.toml": "[tool.a2alint]\n", "app/__init__.py": "", "app/relay.py": RELAY})
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(check, ["--no-cache", "-v", "."])
    assert result.exit_code == 0, result.output
    assert _notes(result) == [
        "a2alint: note: app/relay.py:6:29: .send_message() is not read as an A2A call: the module imports no A2A package "
        "and the receiver's type is out of sight; declare its API in [tool.a2alint.api] (README: What a2alint cannot see)"
    ]


def test_a_parsed_module_outside_a2a_imports_is_named_at_its_call(tmp_path, monkeypatch):
    _write(tmp_path, {"pyproject.toml": "[tool.a2alint]\n", **WIRED})
    monkeypatch.chdir(tmp_path)
    notes = _notes(CliRunner().invoke(check, ["--no-cache", "-v", "."]))
    assert len(notes) == 1 and notes[0].startswith("a2alint: note: pkg/jobs.py:11:22: .send_message() is not read")


def test_without_verbose_or_with_the_api_declared_nothing_is_said(tmp_path, monkeypatch):
    _write(tmp_path, {"pyproject.toml": "[tool.a2alint]\n", "app/__init__.py": "", "app/relay.py": RELAY})
    monkeypatch.chdir(tmp_path)
    assert _notes(CliRunner().invoke(check, ["--no-cache", "."])) == []
    (tmp_path / "pyproject.toml").write_text('[tool.a2alint.api]\nsend = ["*.send_message"]\ncancel = ["*.cancel_task"]\n')
    declared = CliRunner().invoke(check, ["--no-cache", "-v", "."])
    assert _notes(declared) == [] and "AC103" in declared.stdout


def test_a_module_that_imports_a2a_reads_the_name_and_says_nothing(tmp_path, monkeypatch):
    _write(tmp_path, {"app.py": "import a2a.client\n" + RELAY})
    monkeypatch.chdir(tmp_path)
    assert _notes(CliRunner().invoke(check, ["--no-cache", "-v", "."])) == []


def test_a_warm_cache_still_says_it(tmp_path, monkeypatch):
    _write(tmp_path, {"pyproject.toml": "[tool.a2alint]\n", **WIRED})
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("A2ALINT_CACHE_DIR", str(tmp_path / "cache"))
    first = _notes(CliRunner().invoke(check, ["-v", "."]))
    assert first and _notes(CliRunner().invoke(check, ["-v", "."])) == first
