"""How a2alint's time and memory grow with the project checked, in one table with ratios.

    python benchmarks/scale.py                  # the generated project at 500, 1,000, 2,000 modules
    python benchmarks/scale.py --quick          # at 125, 250, 500 modules
    python benchmarks/scale.py --stdlib         # this interpreter's Lib/, an A2A import added to each module
    python benchmarks/scale.py --path DIR       # the .py files of DIR (copied, in sorted order)

The project checked at full size and at a quarter and a half of it: by default the A2A
project of ``trees.generate_a2a_project`` (a package whose modules import each other),
generated at each size; with ``--stdlib`` or ``--path``, the first modules of that tree
(sorted by path, the folders kept), with ``--stdlib`` an A2A import appended to each
module as a big project of real code would have it. Each size is checked as one project
(``a2alint check --no-cache --output-format json-lines .`` from its root) with one job
and with two, in turns, each run its own process:

- wall: seconds, the median of the repetitions;
- cpu: the user and system seconds of the run and its processes (the median): on a
  machine shared with other work, a steadier measure of the work done than wall time;
- peak MB: the largest resident set of any one process of the run (the run's own
  ``ru_maxrss``, which on Linux is the largest of it and its reaped children);
- sum MB (two jobs): the peak resident sets of the run's processes added up, each read
  from ``/proc/<pid>/status`` (``VmHWM``) every 20 ms while it runs: pages a worker
  shares with the process it was forked from count in both, so this is an upper bound of
  what the machine holds, and a peak reached in the last 20 ms of a process is missed.

Then the ratios: time and memory per module at each size (linear when the full size's
time is about 4x the quarter's: told by cpu seconds, steadier than wall), and what two
jobs gain over one (wall seconds). Whether the two runs
report the same findings (their json-lines output, byte for byte) is checked at each size.
On a shared machine the times vary from run to run: compare the ratios and medians.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from run import ENV, tool
from trees import generate_a2a_project

#: The import appended to each module of a tree that is not A2A code already.
A2A_IMPORT = "\nfrom a2a.client import A2ACardResolver  # appended by benchmarks/scale.py\n"
SKIPPED_DIRS = {"site-packages", "dist-packages", "__pycache__", ".git", ".venv", "venv"}


@dataclass
class Run:
    seconds: float
    cpu: float
    peak_mb: float
    sum_mb: float
    output: bytes


def descendants(pid: int) -> list[int]:
    """``pid`` and the processes below it, from ``/proc``."""
    found, frontier = [], [pid]
    while frontier:
        current = frontier.pop()
        found.append(current)
        try:
            frontier += [int(c) for c in Path(f"/proc/{current}/task/{current}/children").read_text().split()]
        except OSError:
            pass
    return found


def high_water_mb(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def measure(command: list[str], cwd: Path) -> Run:
    """One run of ``command``: wall seconds, its peak resident set, the sum of its processes'."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out:
        process = subprocess.Popen(command, cwd=cwd, stdout=out, stderr=subprocess.PIPE, env=ENV)
        peaks: dict[int, float] = {}
        while True:
            for pid in descendants(process.pid):
                mb = high_water_mb(pid)
                if mb is not None:
                    peaks[pid] = max(mb, peaks.get(pid, 0.0))
            waited, status, usage = os.wait4(process.pid, os.WNOHANG)
            if waited:
                break
            time.sleep(0.02)
        seconds = time.perf_counter() - start
        if os.waitstatus_to_exitcode(status) not in (0, 1):
            raise SystemExit(f"a2alint failed in {cwd}: {process.stderr.read().decode()[-2000:]}")
        out.seek(0)
        output = out.read()
    peak = usage.ru_maxrss / 1024  # Linux: KB, the largest of the process and its reaped children
    cpu = usage.ru_utime + usage.ru_stime  # (its reaped children's included)
    return Run(seconds, cpu, peak, max(sum(peaks.values()), peak), output)


def copy_tree(source: Path, target: Path, modules: int, append: str) -> None:
    """The first ``modules`` .py files of ``source`` (sorted by path) copied into ``target``,
    each with ``append`` at its end, under a ``pyproject.toml`` that makes it a project."""
    files = []
    for folder, dirs, names in os.walk(source):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS and not d.startswith("."))
        files += [Path(folder) / n for n in sorted(names) if n.endswith(".py")]
    target.mkdir(parents=True)
    (target / "pyproject.toml").write_text('[project]\nname = "scaled"\nversion = "0"\n\n[tool.a2alint]\n')
    for path in files[:modules]:
        copy = target / path.relative_to(source)
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_bytes(path.read_bytes() + append.encode())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="full size 500 modules, one repetition")
    parser.add_argument("--modules", type=int, help="modules at full size (default 2,000; quick 500)")
    parser.add_argument("--repeat", type=int, help="runs of each command (default 3; quick 1)")
    shape = parser.add_mutually_exclusive_group()
    shape.add_argument("--stdlib", action="store_true", help="this interpreter's Lib/ with an A2A import in each module")
    shape.add_argument("--path", type=Path, help="a tree of .py files to take the modules from")
    args = parser.parse_args()
    full = args.modules or (500 if args.quick else 2000)
    repeat = args.repeat or (1 if args.quick else 3)
    a2alint = tool("a2alint")
    if a2alint is None:
        raise SystemExit("a2alint is not installed: pip install .")
    work = Path(tempfile.mkdtemp(prefix="a2alint-scale-"))
    rows = []
    try:
        for label, size in (("quarter", full // 4), ("half", full // 2), ("full", full)):
            project = work / label
            if args.stdlib:
                copy_tree(Path(sysconfig.get_paths()["stdlib"]), project, size, A2A_IMPORT)
            elif args.path:
                copy_tree(args.path.resolve(), project, size, "")
            else:
                generate_a2a_project(project, modules=size)
            modules = sum(1 for _ in project.rglob("*.py"))
            check = [a2alint, "check", "--no-cache", "--exit-zero", "--output-format", "json-lines"]
            runs: dict[int, list[Run]] = {1: [], 2: []}
            for _ in range(repeat):
                for jobs in (1, 2):
                    runs[jobs].append(measure([*check, "--jobs", str(jobs), "."], project))
            rows.append((label, modules, runs))
            shutil.rmtree(project, ignore_errors=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    report(rows)


def report(rows) -> None:
    def median(runs: list[Run], field: str) -> float:
        return statistics.median(getattr(r, field) for r in runs)

    print(f"{'size':<8} {'modules':>7} {'-j1 wall':>9} {'-j1 cpu':>8} {'-j1 MB':>7} {'-j2 wall':>9} {'-j2 cpu':>8} {'-j2 MB':>7} "
          f"{'-j2 sum MB':>10} {'cpu s/100':>9} {'MB/100':>7} {'speed-up':>8}  same findings")
    for label, modules, runs in rows:
        one, two = runs[1], runs[2]
        same = all(r.output == one[0].output for r in one + two)
        findings = one[0].output.count(b"\n")
        print(f"{label:<8} {modules:>7} {median(one, 'seconds'):9.1f} {median(one, 'cpu'):8.1f} {max(r.peak_mb for r in one):7.0f} "
              f"{median(two, 'seconds'):9.1f} {median(two, 'cpu'):8.1f} {max(r.peak_mb for r in two):7.0f} {max(r.sum_mb for r in two):10.0f} "
              f"{100 * median(one, 'cpu') / modules:9.2f} {100 * max(r.peak_mb for r in one) / modules:7.1f} "
              f"{median(one, 'seconds') / median(two, 'seconds'):7.2f}x  {'yes' if same else 'NO'} ({findings} findings)")
    (_, quarter_modules, quarter), (_, half_modules, half), (_, full_modules, full) = rows
    growth = median(full[1], "cpu") / median(quarter[1], "cpu")
    print(f"\n-j1 cpu time, full / quarter: {growth:.2f}x for {full_modules / quarter_modules:.2f}x the modules "
          f"(half / quarter: {median(half[1], 'cpu') / median(quarter[1], 'cpu'):.2f}x; wall full / quarter: "
          f"{median(full[1], 'seconds') / median(quarter[1], 'seconds'):.2f}x)")
    peak = max(r.peak_mb for r in full[1] + full[2])
    checks = [
        (f"peak RSS per process at {full_modules} modules (MB)", peak, 1024, "<"),
        ("-j 2 speed-up over -j 1 at full size", median(full[1], "seconds") / median(full[2], "seconds"), 1.6, ">="),
        ("-j 1 time linear: (full / quarter cpu time) / (full / quarter modules)", growth * quarter_modules / full_modules, 1.25, "<="),
    ]
    print(f"\n{'target':<68} measured   goal    met")
    for label, value, goal, op in checks:
        met = {"<": value < goal, "<=": value <= goal, ">=": value >= goal}[op]
        print(f"{label:<68} {value:8.2f}   {op}{goal:<5}  {'yes' if met else 'NO'}")


if __name__ == "__main__":
    sys.exit(main())
