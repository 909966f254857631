"""The same project, the same findings: a module's findings do not depend on how deep the
project's modules hand values to each other (within reason), on the job count, or on which
files were named (pre-commit's one file is analysed with the project around it)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from a2alint import control, runner
from a2alint.config import Settings
from a2alint.registry import load_rules
from a2alint.runner import Linter, check_files


#: A host that delegates over A2A and, while the task runs, looks at the peer's card again:
#: ``{send}`` streams the task, ``{fetch}`` is the card looked at again.
HOST = '''\
import httpx
from a2a.client import A2ACardResolver, ClientConfig, ClientFactory
from a2a.types import Message, Part, Role, TaskIdParams, TextPart

from {helpers}


class Delegate:
    def __init__(self, url: str, http: httpx.AsyncClient):
        self.http = http
        self.cards = A2ACardResolver(http, url)

    async def ask(self, text: str):
        card = await self.cards.get_agent_card()
        client = ClientFactory(ClientConfig(httpx_client=self.http)).create(card)
        message = Message(role=Role.user, message_id="q", parts=[Part(root=TextPart(text=text))])
        async for task, _ in {send}:
            now = {fetch}
            if "summarise" not in [s.id for s in now.skills]:
                await client.cancel_task(TaskIdParams(id=task.id))
                return None
        return message
'''


#: A module of the chain: it hands the card on to the next ones (or back, at the end).
HOP = '''\
from a2a.types import AgentCard
{imports}


def forward(card: AgentCard) -> AgentCard:
{body}
'''


def write_chain(root: Path, length: int, extra_links: int = 0, entries: tuple[int, ...] = (0,), seed: int = 28) -> list[str]:
    """``hops/h1.py`` ... ``hops/h<length>.py``, each handing the card to the next (and to
    ``extra_links`` later ones chosen at random), and an entry module ``entry_<k>.py`` for
    each ``k`` of ``entries`` that starts at ``h<k+1>``. The entry modules' names."""
    rng = random.Random(seed)
    (root / "pyproject.toml").write_text("[tool.a2alint]\n")
    hops = root / "hops"
    hops.mkdir()
    (hops / "__init__.py").write_text("")
    for index in range(1, length + 1):
        later = list(range(index + 1, length + 1))
        nexts = sorted({index + 1, *rng.sample(later[1:], min(extra_links, len(later) - 1))}) if later else []
        imports = "".join(f"from hops import h{n}\n" for n in nexts)
        calls = [f"    card = h{n}.forward(card)\n" for n in nexts]
        (hops / f"h{index}.py").write_text(HOP.format(imports=imports, body="".join(calls) + "    return card"))
    names = []
    for start in entries:
        name = f"entry_{start}.py"
        hop = f"h{start + 1}"
        fetch = f"{hop}.forward(await self.cards.get_agent_card())"  # hands it on down the chain
        (root / name).write_text(HOST.format(helpers=f"hops import {hop}", send="client.send_message(message)", fetch=fetch))
        names.append(name)
    return names


def findings(root: Path, named: list[str] | None = None, jobs: int = 1, order: int = 1) -> dict[str, list[tuple[str, int]]]:
    """The findings of a check of ``root`` (of the files ``named`` in it, with the project
    around them, as a command line that names them): code and line, by file."""
    settings = Settings(root=root)
    every = [(str(p.relative_to(root)), p, settings) for p in sorted(root.rglob("*.py"))[::order]]
    files = [e for e in every if e[0] in named] if named else every
    context = [e for e in every if e not in files]
    results = check_files(Linter(load_rules()), files, jobs=jobs, context=context, dependents=bool(named))
    return {r.display: sorted((d.code, d.line) for d in r.diagnostics) for r in results if r.diagnostics}


EXPECTED = [("AC101", 18), ("AC102", 20), ("AC103", 17), ("AC104", 18)]


def test_a_card_handed_down_a_long_chain_of_modules_keeps_the_entry_module_s_findings(tmp_path):
    """Questions about what ``forward`` returns ask the next module's, and so on down the
    chain: at 118 modules they nested past the interpreter's recursion limit and the entry
    module's findings were one AC002."""
    short, long = tmp_path / "short", tmp_path / "long"
    short.mkdir(), long.mkdir()
    write_chain(short, 3)
    write_chain(long, 300)
    assert findings(short) == {"entry_0.py": EXPECTED}
    assert findings(long) == {"entry_0.py": EXPECTED}


def test_a_module_s_findings_do_not_depend_on_the_order_jobs_or_files_named(tmp_path):
    """Entry modules along a chain with links that skip ahead: how deep a question about
    one nests depended on what the modules checked before it had left answered, so which
    of them got AC002 changed with the order the files were checked in, the job count, and
    which files were named."""
    entries = write_chain(tmp_path, 160, extra_links=2, entries=(0, 40, 100))
    whole = findings(tmp_path)
    assert whole == {name: EXPECTED for name in entries}
    assert findings(tmp_path, order=-1) == whole
    for name in entries:
        assert findings(tmp_path, [name]) == {name: whole[name]}


def test_a_pool_finds_what_one_process_finds(tmp_path):
    entries = write_chain(tmp_path, 160, extra_links=2, entries=(0, 40, 100))
    assert findings(tmp_path, jobs=2) == {name: EXPECTED for name in entries}


def test_a_file_given_up_on_leaves_no_half_made_answer_to_the_next(tmp_path, monkeypatch):
    """With a budget too small for a chain of 160 modules, the entry at its head is given
    up on (AC002). The answers its questions had made so far were kept, and the entry
    module checked next, 100 modules down the same chain, lost its AC101 and AC102 without
    a word: a file is reported whole or given up on, never cut short."""
    monkeypatch.setattr(runner, "budget", lambda: control.budget(600))
    write_chain(tmp_path, 160, extra_links=2, entries=(0, 40, 100))
    for order in (1, -1):
        for name, found in findings(tmp_path, order=order).items():
            assert found in (EXPECTED, [("AC002", 1)]), name


#: Two clients whose send is wrapped in a helper of ``relay``, which may hand it on down
#: more helpers (``{hop}``): the a2a-sdk's client, and JSON-RPC posted with httpx.
SDK_CLIENT = HOST.format(helpers="relay import r1", send="r1.send(client, message)", fetch="await self.cards.get_agent_card()")
SDK_HOP = "async def send(client, message):\n    async for event in {hop}(client, message):\n        yield event\n"
SDK_SEND = SDK_HOP.format(hop="client.send_message").replace("(client, message):\n        yield", "(message):\n        yield")
RAW_CLIENT = '''\
import httpx

from relay import r1

CARD_PATH = "/.well-known/agent-card.json"


async def translate(base: str, text: str):
    async with httpx.AsyncClient() as http:
        card = (await http.get(base + CARD_PATH)).json()
        async for event in r1.submit(http, card["url"], text):
            task_id = event["result"]["id"]
            fresh = (await http.get(base + CARD_PATH)).json()
            if "translate" not in [s["id"] for s in fresh["skills"]]:
                cancel = {"jsonrpc": "2.0", "id": 2, "method": "tasks/cancel", "params": {"id": task_id}}
                await http.post(card["url"], json=cancel)
                return None
        return card
'''
RAW_HOP = "async def submit(http, url, text):\n    async for event in {hop}(http, url, text):\n        yield event\n"
RAW_SEND = '''\
import json


async def submit(http, url, text):
    message = {"role": "user", "messageId": "t", "parts": [{"kind": "text", "text": text}]}
    body = {"jsonrpc": "2.0", "id": 1, "method": "message/stream", "params": {"message": message}}
    async with http.stream("POST", url, json=body) as response:
        async for line in response.aiter_lines():
            if line.startswith("data:"):
                yield json.loads(line[5:])
'''


def write_relayed_send(root: Path, client: str, hop: str, send: str, helpers: int) -> None:
    root.mkdir()
    (root / "pyproject.toml").write_text("[tool.a2alint]\n")
    (root / "relay").mkdir()
    (root / "relay" / "__init__.py").write_text("")
    (root / "client.py").write_text(client)
    name = hop.split("def ")[1].split("(")[0]
    for index in range(1, helpers):
        (root / "relay" / f"r{index}.py").write_text(f"from relay import r{index + 1}\n\n\n" + hop.format(hop=f"r{index + 1}.{name}"))
    (root / "relay" / f"r{helpers}.py").write_text(send)


@pytest.mark.parametrize("client, hop, send", [(SDK_CLIENT, SDK_HOP, SDK_SEND), (RAW_CLIENT, RAW_HOP, RAW_SEND)], ids=["sdk", "jsonrpc"])
def test_a_send_out_of_reach_adds_no_finding(tmp_path, client, hop, send):
    """Past a few helpers the send is out of the analysis' reach, and the task the loop
    cancels comes from a helper run after the first fetch: no evidence that the task
    existed before that fetch (it was an AC101 there). What is out of reach may be lost
    (AC103 here), never replaced by a finding the near chain does not have."""
    near = tmp_path / "near"
    write_relayed_send(near, client, hop, send, 1)
    found = set(findings(near)["client.py"])
    for helpers in (5, 8):
        far = tmp_path / f"far{helpers}"
        write_relayed_send(far, client, hop, send, helpers)
        assert set(findings(far)["client.py"]) <= found, helpers


PROJECTS = Path(__file__).parent / "corpus" / "projects"


def _reported(root: Path, files: list[Path]) -> list[tuple]:
    """Everything a check of ``files`` (in that order, one process) reports: places,
    messages, suggestions and notes."""
    settings = Settings(root=root)
    results = check_files(Linter(load_rules()), [(str(p.relative_to(root)), p, settings) for p in files], jobs=1)
    return sorted(
        (r.display, d.line, d.column, d.code, d.message, d.suggestion, tuple((n.path, n.line, n.column, n.label) for n in d.related))
        for r in results for d in r.diagnostics
    )


@pytest.mark.parametrize("project", sorted(p for p in PROJECTS.iterdir() if p.name.startswith("bad_")), ids=lambda p: p.name)
def test_what_a_finding_says_does_not_depend_on_which_module_was_checked_first(project):
    """A module keeps only its facts once its own check is over: a finding of a module
    checked later that rests on it must say what it says when that module still has its
    tree (a send in it was skipped as 'the fact itself' when both had no node)."""
    files = sorted(project.rglob("*.py"))
    assert _reported(project, files) == _reported(project, files[::-1])
