"""How long an editor waits for a2alint's diagnostics after a keystroke.

Starts ``a2alint server`` (the real process, over stdio, driven by pygls' own
language client) on a generated project of 500 A2A modules that import each other
(``trees.generate_a2a_project``), opens its ~1,000-line host module, then sends N
``didChange`` edits one after another and measures, for each, the time from
sending the change to receiving the ``publishDiagnostics`` of that version. The
module is checked as part of its project: its importers and imports are read (from
the cache a first ``a2alint check`` of the project filled, as in a developer's
tree). The server's debounce is set to 0 through ``initializationOptions`` so the
numbers are the server's own latency, not the wait an editor is given to finish
typing. For scale, it also times the engine alone on the same texts, in this
process (``Workspace.check``, what the server runs in its thread pool).

    python benchmarks/lsp_latency.py [--edits 20] [--modules 500]

Needs the lsp extra (``pip install 'a2alint[lsp]'``).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient
from trees import generate_a2a_project


async def measure(project: Path, path: Path, edits: int) -> dict[str, list[float] | int]:
    text = path.read_text()
    client = LanguageClient("a2alint-benchmark", "1")
    waiting: dict[int, asyncio.Future] = {}
    counts: dict[int, int] = {}

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def published(params: types.PublishDiagnosticsParams) -> None:
        if params.uri != path.as_uri():
            return
        counts[params.version] = len(params.diagnostics)
        future = waiting.get(params.version)
        if future is not None and not future.done():
            future.set_result(time.perf_counter())

    async def wait(version: int, sent: float) -> float:
        return (await asyncio.wait_for(waiting[version], 120)) - sent

    uri = path.as_uri()
    await client.start_io(sys.executable, "-m", "a2alint", "server", cwd=str(project))
    started = time.perf_counter()
    await client.initialize_async(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(),
            root_uri=project.as_uri(),
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


def engine_alone(project: Path, path: Path, texts: list[str]) -> list[float]:
    """The same versions of the module, checked in this process by what the server calls."""
    from a2alint.config import SettingsResolver
    from a2alint.registry import load_rules
    from a2alint.runner import Linter
    from a2alint.workspace import Workspace

    registry = load_rules()
    resolver = SettingsResolver(registry, cwd=project)
    workspace = Workspace(Linter(registry), resolver)
    settings = resolver.for_path(path)
    workspace.check(str(path), path, path.read_text(), settings)  # as the server's didOpen
    times = []
    for text in texts:
        started = time.perf_counter()
        workspace.check(str(path), path, text, settings)
        times.append(time.perf_counter() - started)
    return times


def row(name: str, values: list[float]) -> str:
    ms = sorted(v * 1000 for v in values)
    p90 = ms[min(len(ms) - 1, int(len(ms) * 0.9))]
    return f"| {name:<38} | {len(ms):>4} | {statistics.median(ms):>9.1f} | {p90:>9.1f} | {ms[0]:>9.1f} | {ms[-1]:>9.1f} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edits", type=int, default=20, help="didChange edits to time (default 20)")
    parser.add_argument("--modules", type=int, default=500, help="modules in the generated project (default 500)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="a2alint-lsp-") as folder:
        project = Path(folder)
        host = generate_a2a_project(project, args.modules)[0]
        # A developer's tree: the project was checked once, so its facts are in the cache.
        subprocess.run([sys.executable, "-m", "a2alint", "check", "--exit-zero", "-q", "."], cwd=project, check=True,
                       capture_output=True)
        result = asyncio.run(measure(project, host, args.edits))
        engine = engine_alone(project, host, result["texts"])
        lines = host.read_text().count(chr(10))
    print(f"project: {args.modules} modules that import each other; the module: {lines} lines; server debounce: 0 s")
    print(f"findings: {result['findings_first']} after didOpen, {result['findings_last']} after the last edit")
    print()
    print(f"| {'measure':<38} | {'n':>4} | {'median ms':>9} | {'p90 ms':>9} | {'min ms':>9} | {'max ms':>9} |")
    print(f"|{'-' * 40}|{'-' * 6}|{'-' * 11}|{'-' * 11}|{'-' * 11}|{'-' * 11}|")
    print(row("start + initialize", result["ready"]))
    print(row("didOpen -> publishDiagnostics", result["open"]))
    print(row("didChange -> publishDiagnostics", result["change"]))
    print(row("engine alone, same texts", engine))
    print()
    change, alone = statistics.median(result["change"]), statistics.median(engine)
    print(f"median didChange -> publishDiagnostics: {change * 1000:.1f} ms ({(change - alone) * 1000:+.1f} ms over the engine alone)")


if __name__ == "__main__":
    main()
