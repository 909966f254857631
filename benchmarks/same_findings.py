"""The same project, the same findings: an entry module's findings along chains of modules
that hand a card on, checked whole with one and two jobs and as the one file named.

    python benchmarks/same_findings.py

The projects are those of ``tests/test_same_findings.py``: a chain of N modules each
handing the card to the next (the entry module at its head), and a chain of 160 with links
that skip ahead and entry modules at 0, 40 and 100. Each cell is the entry module's codes
as ``a2alint check --no-cache`` reports them, and the seconds the check took.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from test_same_findings import write_chain  # noqa: E402

A2ALINT = Path(sys.executable).with_name("a2alint")


def check(root: Path, *args: str) -> tuple[dict[str, str], float]:
    """The codes found in each file of ``root`` (``a2alint check`` of ``args`` run there)."""
    start = time.perf_counter()
    run = subprocess.run(
        [str(A2ALINT), "check", "--no-cache", "--output-format", "json-lines", *args],
        cwd=root, capture_output=True, text=True,
    )
    seconds = time.perf_counter() - start
    codes: dict[str, list[str]] = {}
    for line in run.stdout.splitlines():
        found = json.loads(line)
        codes.setdefault(found["path"], []).append(found["code"])
    return {path: " ".join(sorted(found)) for path, found in codes.items()}, seconds


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        print("| modules in the chain | entry_0.py, -j 1 | s |")
        print("| --- | --- | --- |")
        for length in (100, 117, 118, 300, 1000, 3000):
            root = Path(folder) / f"chain{length}"
            root.mkdir()
            write_chain(root, length)
            codes, seconds = check(root, "-j", "1", ".")
            print(f"| {length:,} | {codes.get('entry_0.py', '')} | {seconds:.1f} |")
        root = Path(folder) / "skipping"
        root.mkdir()
        entries = write_chain(root, 160, extra_links=2, entries=(0, 40, 100))
        runs = {"-j 1": check(root, "-j", "1", ".")[0], "-j 2": check(root, "-j", "2", ".")[0]}
        runs["one file"] = {name: check(root, name)[0].get(name, "") for name in entries}
        print()
        print("| entry module | " + " | ".join(runs) + " |")
        print("| --- |" + " --- |" * len(runs))
        for name in entries:
            print(f"| {name} | " + " | ".join(found.get(name, "") for found in runs.values()) + " |")


if __name__ == "__main__":
    main()
