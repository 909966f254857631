"""How long an editor waits for a2alint's diagnostics after a keystroke.

Starts ``a2alint server`` (the real process, over stdio, driven by pygls' own
language client), opens a generated ~1,000-line A2A client module, then sends
N ``didChange`` edits one after another and measures, for each, the time from
sending the change to receiving the ``publishDiagnostics`` of that version.
The server's debounce is set to 0 through ``initializationOptions`` so the
numbers are the server's own latency, not the wait an editor is given to
finish typing. For scale, it also times the engine alone on the same texts,
in this process (``check_text``, what the server runs in its thread pool).

    python benchmarks/lsp_latency.py [--edits 20] [--functions 40]

Needs the lsp extra (``pip install 'a2alint[lsp]'``).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

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


def module(functions: int) -> str:
    sort = (", sort_keys=True", ", sort_keys=True", "")
    return HEADER + "".join(PEER.format(n=n, sort=sort[n % 3]) for n in range(functions))


async def measure(text: str, edits: int) -> dict[str, list[float] | int]:
    client = LanguageClient("a2alint-benchmark", "1")
    waiting: dict[int, asyncio.Future] = {}
    counts: dict[int, int] = {}

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def published(params: types.PublishDiagnosticsParams) -> None:
        counts[params.version] = len(params.diagnostics)
        future = waiting.get(params.version)
        if future is not None and not future.done():
            future.set_result(time.perf_counter())

    async def wait(version: int, sent: float) -> float:
        return (await asyncio.wait_for(waiting[version], 30)) - sent

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "host_agent.py"
        uri = path.as_uri()
        await client.start_io(sys.executable, "-m", "a2alint", "server", cwd=folder)
        started = time.perf_counter()
        await client.initialize_async(
            types.InitializeParams(
                capabilities=types.ClientCapabilities(),
                root_uri=Path(folder).as_uri(),
                initialization_options={"debounce": 0},
            )
        )
        client.initialized(types.InitializedParams())
        ready = time.perf_counter() - started

        loop = asyncio.get_running_loop()
        waiting[1] = loop.create_future()
        sent = time.perf_counter()
        client.text_document_did_open(
            types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "python", 1, text))
        )
        first = await wait(1, sent)

        # Each edit toggles sort_keys=True on one json.dumps line: the findings change every time.
        lines = text.splitlines()
        dumps = [i for i, line in enumerate(lines) if "json.dumps(contract" in line]
        latencies = []
        texts = []  # each version's text, for the engine-alone timing
        for step in range(edits):
            version = step + 2
            row = dumps[step % len(dumps)]
            line = lines[row]
            start = line.index("json.dumps(contract") + len("json.dumps(contract")
            if line[start:].startswith(", sort_keys=True"):
                change = types.Range(types.Position(row, start), types.Position(row, start + len(", sort_keys=True")))
                new, lines[row] = "", line[:start] + line[start + len(", sort_keys=True"):]
            else:
                change = types.Range(types.Position(row, start), types.Position(row, start))
                new, lines[row] = ", sort_keys=True", line[:start] + ", sort_keys=True" + line[start:]
            waiting[version] = loop.create_future()
            sent = time.perf_counter()
            client.text_document_did_change(
                types.DidChangeTextDocumentParams(
                    types.VersionedTextDocumentIdentifier(version=version, uri=uri),
                    [types.TextDocumentContentChangePartial(range=change, text=new)],
                )
            )
            latencies.append(await wait(version, sent))
            texts.append("\n".join(lines) + "\n")

        await client.shutdown_async(None)
        client.exit(None)
        await client.stop()
        return {
            "ready": [ready],
            "open": [first],
            "change": latencies,
            "findings_first": counts[1],
            "findings_last": counts[edits + 1],
            "texts": texts,
        }


def engine_alone(texts: list[str]) -> list[float]:
    """The same versions of the module, linted in this process by the function the server calls."""
    from a2alint.config import Settings
    from a2alint.registry import load_rules
    from a2alint.runner import Linter, check_text

    linter = Linter(load_rules())
    settings = Settings(root=Path.cwd())
    path = Path.cwd() / "host_agent.py"
    times = []
    for text in texts:
        started = time.perf_counter()
        check_text(linter, text, str(path), path, settings)
        times.append(time.perf_counter() - started)
    return times


def row(name: str, values: list[float]) -> str:
    ms = sorted(v * 1000 for v in values)
    p90 = ms[min(len(ms) - 1, int(len(ms) * 0.9))]
    return f"| {name:<38} | {len(ms):>4} | {statistics.median(ms):>9.1f} | {p90:>9.1f} | {ms[0]:>9.1f} | {ms[-1]:>9.1f} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edits", type=int, default=20, help="didChange edits to time (default 20)")
    parser.add_argument("--functions", type=int, default=40, help="peer blocks of ~25 lines in the module (default 40)")
    args = parser.parse_args()

    text = module(args.functions)
    result = asyncio.run(measure(text, args.edits))
    engine = engine_alone(result["texts"])
    print(f"module: {text.count(chr(10))} lines, {len(text):,} bytes; server debounce: 0 s (initializationOptions)")
    print(f"findings: {result['findings_first']} after didOpen, {result['findings_last']} after the last edit")
    print()
    print(f"| {'measure':<38} | {'n':>4} | {'median ms':>9} | {'p90 ms':>9} | {'min ms':>9} | {'max ms':>9} |")
    print(f"|{'-' * 40}|{'-' * 6}|{'-' * 11}|{'-' * 11}|{'-' * 11}|{'-' * 11}|")
    print(row("start + initialize", result["ready"]))
    print(row("didOpen -> publishDiagnostics", result["open"]))
    print(row("didChange -> publishDiagnostics", result["change"]))
    print(row("engine alone, same texts (check_text)", engine))
    print()
    change, alone = statistics.median(result["change"]), statistics.median(engine)
    print(f"median didChange -> publishDiagnostics: {change * 1000:.1f} ms ({(change - alone) * 1000:+.1f} ms over the engine alone)")


if __name__ == "__main__":
    main()
