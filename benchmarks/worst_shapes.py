"""The shapes that once made the analysis super-linear, timed: each must stay in
proportion to its size (or end in one AC002 in bounded time), never hang.

    python benchmarks/worst_shapes.py

Each row is ``a2alint check --no-cache`` on one generated file in its own process,
beside a bare ``libcst.parse_module`` of the same file (medians of 3 runs). The last row
checks the examples under a ``[tool.a2alint.api]`` of 100,000 declared functions (once
70 s: every call was matched against each pattern in turn), beside the same check without it.
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from a2alint.rules.ac002_too_complex import elif_chain, helpers_calling_helpers

def returns_chain(count: int) -> str:
    """A router: ``count`` ``elif`` branches that each return (every exit is guarded by all
    the tests before it: 6.6 s at 1,000 branches, 61 s at 3,000, before AC106 asked each
    test once; at 8,500 the parser overflowed the main thread's stack)."""
    lines = ["import a2a", "", "", "def route(x):", "    if x == 0:", "        return 0"]
    for i in range(1, count):
        lines += [f"    elif x == {i}:", f"        return {i}"]
    return "\n".join(lines) + "\n"


def assigns_chain(count: int) -> str:
    """``count`` ``elif`` branches that each assign, after a send: each fact's control path
    is as deep as the chain (4,000 branches took 1.8 GB while each path held a pair per
    frame of its own, 8,500 about 57 s; ``returns_chain(8500)`` 107 s and 10 GB, its exits'
    guards read whole for each)."""
    lines = ["from a2a.client import A2ACardResolver", "", "", "async def route(client, x):", "    if x == 0:", "        await client.send_message(x)"]
    for i in range(1, count):
        lines += [f"    elif x == {i}:", f"        y = {i}"]
    return "\n".join(lines) + "\n"


SHAPES = {
    "elif chain, 300 fetch+send branches": elif_chain(300),
    "elif chain, 3,000 returning branches": returns_chain(3000),
    "elif chain, 8,500 returning branches": returns_chain(8500),
    "elif chain, 8,500 assigning branches": assigns_chain(8500),
    "helpers awaiting helpers, 120 x fan 40": helpers_calling_helpers(120, 40),
    "helpers awaiting helpers, 160 x fan 40": helpers_calling_helpers(160, 40),
}
A2ALINT = Path(sys.executable).with_name("a2alint")
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
DECLARED = 100_000


def timed(command: list[str], cwd: Path) -> tuple[float, str]:
    times, out = [], ""
    for _ in range(3):
        start = time.perf_counter()
        done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=600)
        times.append(time.perf_counter() - start)
        out = done.stdout
    return statistics.median(times), out


def main() -> None:
    print(f"{'shape':<42} {'lines':>6} {'a2alint s':>10} {'parse s':>8}  findings")
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        for name, text in SHAPES.items():
            path = work / "shape.py"
            path.write_text(text, encoding="utf-8")
            seconds, out = timed([str(A2ALINT), "check", "--no-cache", "--exit-zero", "--output-format", "concise", "-q", path.name], work)
            parse, _ = timed([sys.executable, "-c", f"import libcst; libcst.parse_module(open({str(path)!r}).read())"], work)
            codes = sorted({line.split()[1] for line in out.splitlines() if line.strip()})
            print(f"{name:<42} {text.count(chr(10)):>6} {seconds:>10.2f} {parse:>8.2f}  {', '.join(codes) or '-'}")
        declared_api(work)


def declared_api(work: Path) -> None:
    """The examples checked with and without a huge declared API (``parse s``: without)."""
    project = work / "declared"
    shutil.copytree(EXAMPLES, project)
    command = [str(A2ALINT), "check", "--no-cache", "--exit-zero", "--output-format", "concise", "-q", "."]
    plain, expected = timed(command, project)
    patterns = ", ".join(f'"vendor{i}.client.Peer.call_{i}"' for i in range(DECLARED))
    (project / "pyproject.toml").write_text(f"[tool.a2alint.api]\nsend = [{patterns}]\n", encoding="utf-8")
    seconds, out = timed(command, project)
    same = "same findings" if out == expected else "FINDINGS DIFFER"
    print(f"{f'examples, {DECLARED:,} declared functions':<42} {'':>6} {seconds:>10.2f} {plain:>8.2f}  {same}")


if __name__ == "__main__":
    main()
