"""The generated trees the benchmarks run on: all A2A client code, built from the
corpus, the examples and the rule examples (so they hold real findings), and a
~1,000-line host module of the kind an editor has open."""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

HEADER = '''"""Generated A2A host agent: resolves peers, pins their contracts, delegates tasks."""

from __future__ import annotations

import hashlib
import json
import uuid

import httpx
from a2a.client import A2ACardResolver, ClientConfig, ClientFactory
from a2a.types import Message, Part, Role, TextPart

CONTRACT_FIELDS = ("protocol_version", "security_schemes", "security")
'''

#: One peer's worth of client code (~25 lines); ``{n}`` makes each copy's names unique.
#: Every third copy dumps the contract without ``sort_keys=True`` (an AC107 finding).
PEER = '''

async def resolve_peer_{n}(http: httpx.AsyncClient, base_url: str):
    resolver = A2ACardResolver(http, base_url)
    card = await resolver.get_agent_card()
    contract = {{name: getattr(card, name) for name in CONTRACT_FIELDS}}
    blob = json.dumps(contract{sort})
    digest = hashlib.sha256(blob.encode()).hexdigest()
    return card, digest


async def delegate_{n}(base_url: str, text: str) -> list:
    async with httpx.AsyncClient(timeout=30) as http:
        card, digest = await resolve_peer_{n}(http, base_url)
        factory = ClientFactory(ClientConfig(httpx_client=http, streaming=False))
        client = factory.create(card)
        message = Message(
            role=Role.user,
            message_id=uuid.uuid4().hex,
            parts=[Part(root=TextPart(text=text))],
            metadata={{"contract": digest, "peer": {n}}},
        )
        events = []
        async for event in client.send_message(message):
            events.append(event)
        return events
'''


def host_module(functions: int) -> str:
    sort = (", sort_keys=True", ", sort_keys=True", "")
    return HEADER + "".join(PEER.format(n=n, sort=sort[n % 3]) for n in range(functions))



def corpus_sources() -> tuple[list[str], list[str]]:
    """Whole client programs (the corpus, the examples), and the rules' example modules."""
    sys.path.insert(0, str(ROOT))
    from a2alint.registry import load_rules
    from a2alint.rule import example_sources

    programs = [p.read_text() for p in sorted((ROOT / "tests" / "corpus").glob("*.py"))]
    programs += [p.read_text() for p in sorted((ROOT / "examples").glob("*.py"))]
    snippets = [
        source
        for rule in load_rules().values()
        if not rule.engine
        for e in (*rule.VALID, *rule.INVALID)
        for source in example_sources(e)
    ]
    return programs, snippets


def generate_a2a_tree(target: Path, modules: int = 520) -> list[Path]:
    """Whole client programs each followed by two rule examples, as unrelated modules."""
    programs, snippets = corpus_sources()
    rng = random.Random(2026)
    target.mkdir(parents=True, exist_ok=True)
    paths = []
    for index in range(modules):
        body = programs[index % len(programs)] + "\n\n" + "\n\n".join(rng.sample(snippets, 2))
        path = target / f"client_{index:04}.py"
        path.write_text(body)
        paths.append(path)
    return paths


_FUNCTION = re.compile(r"^(?:async )?def ([a-z]\w*)\(", re.MULTILINE)


def generate_a2a_project(target: Path, modules: int = 500) -> list[Path]:
    """The same code laid out as one package (``fleet``, under a ``pyproject.toml`` that
    configures a2alint, so it is a project root) whose modules import each other: each
    imports a function from two others and calls it. ``fleet/m_0000.py`` is the host
    module an editor has open; the paths, that one first."""
    programs, snippets = corpus_sources()
    rng = random.Random(2027)
    package = target / "fleet"
    package.mkdir(parents=True, exist_ok=True)
    (target / "pyproject.toml").write_text('[project]\nname = "fleet"\nversion = "0"\n\n[tool.a2alint]\n')
    (package / "__init__.py").write_text('"""A fleet of A2A clients."""\n')
    bodies = [host_module(40)]
    for index in range(1, modules):
        bodies.append(programs[index % len(programs)] + "\n\n" + "\n\n".join(rng.sample(snippets, 2)))
    functions = [_FUNCTION.findall(body) for body in bodies]
    paths = []
    for index, body in enumerate(bodies):
        imports, relays = [], []
        for other in {(index + 1) % modules, rng.randrange(modules)} - {index}:
            if functions[other]:
                name = rng.choice(functions[other])
                imports.append(f"from fleet.m_{other:04} import {name} as peer_{other}")
                relays.append(f"\n\ndef relay_{other}(*args, **kwargs):\n    return peer_{other}(*args, **kwargs)\n")
        path = package / f"m_{index:04}.py"
        future, _, rest = body.partition("from __future__ import annotations\n")
        head = future + "from __future__ import annotations\n" if rest else ""
        path.write_text(head + "\n".join(imports) + "\n" + (rest or body) + "".join(relays))
        paths.append(path)
    return paths
