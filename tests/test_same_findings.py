"""The same project, the same findings: a module's findings do not depend on how deep the
project's modules hand values to each other (within reason), on the job count, or on which
files were named (pre-commit's one file is analysed with the project around it)."""

from __future__ import annotations

import random
from pathlib import Path

from a2alint import control, runner
from a2alint.config import Settings
from a2alint.registry import load_rules
from a2alint.runner import Linter, check_files


#: A host that delegates over A2A and, while the task runs, looks at the peer's card again
#: through a project helper (``hops.h1.forward``), which hands it on down the chain.
ENTRY = '''\
import httpx
from a2a.client import A2ACardResolver, ClientConfig, ClientFactory
from a2a.types import Message, Part, Role, TaskIdParams, TextPart

from hops import {first}


class Delegate:
    def __init__(self, url: str, http: httpx.AsyncClient):
        self.http = http
        self.cards = A2ACardResolver(http, url)

    async def ask(self, text: str):
        card = await self.cards.get_agent_card()
        client = ClientFactory(ClientConfig(httpx_client=self.http)).create(card)
        message = Message(role=Role.user, message_id="q", parts=[Part(root=TextPart(text=text))])
        async for task, _ in client.send_message(message):
            now = {first}.forward(await self.cards.get_agent_card())
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
        (root / name).write_text(ENTRY.format(first=f"h{start + 1}"))
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

