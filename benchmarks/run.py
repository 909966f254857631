"""a2alint's speed and memory against its peers, in one table with ratios.

    python benchmarks/run.py            # full run (Fixit on a sample: it takes minutes)
    python benchmarks/run.py --quick    # fewer repetitions, a smaller Fixit sample

Cases (see the performance issue for the targets):
  1. a large real tree with few A2A files: this interpreter's standard library (tests
     excluded): a2alint cold and warm, a bare ``libcst.parse_module`` of every file,
     Fixit 2 (``fixit lint``, on a sample, extrapolated) and ``ruff check`` for reference;
  2. an all-A2A tree generated from the corpus, the examples and the rule examples
     (520 modules): a2alint with 1 job and with every CPU, against a bare parse, and
     warm (every file a cache hit: in tree 1 the prefilter settles nearly every file
     before the cache is asked, so warm and cold differ little there);
  3. the pre-commit case: three changed A2A files, against interpreter start-up;
  4. the all-A2A code laid out as one project (500 modules of a package that import
     each other, ``trees.generate_a2a_project``): a2alint with 1 job against a bare
     parse and against ``--fix --unsafe-fixes`` (each run on the project as generated);
     pre-commit on 3 changed files of it with a warm cache (the rest of the project
     read from the cache), against interpreter start-up, with ``--only-named``
     and as the hook runs by default (with the modules whose findings rest on them); and the language
     server's didChange-to-diagnostics latency for its 1,000-line module
     (``lsp_latency.py``, when the lsp extra is installed).

Every row runs as its own process: wall seconds are the median of the repetitions,
peak memory is the largest resident set of that process (a pool's workers included).
The two sides of each ratio run in turns (one, the other, one...), so that a shared
machine whose speed drifts during the run slows both alike.
Peers that are not installed are skipped. Fixit 2.2.1 needs click < 8.2, so give the
peers a virtualenv of their own and point ``--peers`` at its ``bin``:

    python -m venv /tmp/peers && /tmp/peers/bin/pip install fixit==2.2.1 ruff==0.17.6
    python benchmarks/run.py --peers /tmp/peers/bin
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from trees import generate_a2a_project, generate_a2a_tree

ROOT = Path(__file__).resolve().parents[1]
EXCLUDED_DIRS = {"test", "tests", "idle_test", "site-packages", "__pycache__", "build", "dist", "venv", ".venv"}
#: Python's default: bytecode is written and reused. With PYTHONDONTWRITEBYTECODE set (as on
#: some CI machines) an editable install would compile a2alint's modules on every run,
#: which no installed copy does (pip compiles them at install time).
ENV = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
BARE_PARSE = "import sys, libcst\nfor name in open(sys.argv[1]).read().split('\\n'):\n    libcst.parse_module(open(name, 'rb').read())\n"


@dataclass
class Row:
    case: str
    tool: str
    files: int
    seconds: float
    peak_mb: float
    note: str = ""

    @property
    def rate(self) -> float:
        return self.files / self.seconds if self.seconds else float("inf")


def measure(command: list[str], cwd: Path, repeat: int, before=None) -> tuple[float, float]:
    """Median wall seconds and the peak resident set (MB) of ``command``."""
    times, peaks = [], []
    for _ in range(repeat):
        if before:
            before()
        start = time.perf_counter()
        process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=ENV)
        _, status, usage = os.wait4(process.pid, 0)
        times.append(time.perf_counter() - start)
        peaks.append(usage.ru_maxrss / 1024)  # Linux: the largest of the process and its reaped children
        if os.waitstatus_to_exitcode(status) not in (0, 1):
            raise SystemExit(f"{command[0]} failed: {process.stderr.read().decode()[-2000:]}")
    return statistics.median(times), max(peaks)


def measure_turns(commands: list[list[str]], cwd: Path, repeat: int, before=None) -> list[tuple[float, float]]:
    """:func:`measure` of each of ``commands``, taken in turns (one run of each, then again);
    ``before`` runs before the first command's runs only."""
    runs: list[list[tuple[float, float]]] = [[] for _ in commands]
    for _ in range(repeat):
        for index, command in enumerate(commands):
            runs[index].append(measure(command, cwd, 1, before if index == 0 else None))
    return [(statistics.median(t for t, _ in r), max(p for _, p in r)) for r in runs]


def python_files(root: Path) -> list[Path]:
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in EXCLUDED_DIRS and not d.startswith("."))
        found += [Path(folder) / f for f in sorted(files) if f.endswith(".py")]
    return found


def tool(name: str, folder: str | None = None) -> str | None:
    for candidate in ([Path(folder) / name] if folder else []) + [Path(sys.executable).with_name(name)]:
        if candidate.exists():
            return str(candidate)
    return shutil.which(name)


def bare_parse(files: list[Path], work: Path) -> list[str]:
    """The command that parses ``files`` with libcst and does nothing else."""
    listing = work / f"files-{len(files)}.txt"
    listing.write_text("\n".join(str(f) for f in files))
    return [sys.executable, "-c", BARE_PARSE, str(listing)]


def lsp_latency(project: Path, module: Path, edits: int) -> float | None:
    """Median didChange-to-diagnostics seconds of the language server on ``module``."""
    try:
        import asyncio

        import lsp_latency as lsp
    except ImportError:  # no lsp extra
        return None
    return statistics.median(asyncio.run(lsp.measure(project, module, edits))["change"])


def parse_one(module: Path, repeat: int = 7) -> float:
    """Median seconds of one bare libcst parse of ``module``, in this process."""
    import libcst

    data = module.read_bytes()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        libcst.parse_module(data)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer repetitions and a smaller Fixit sample")
    parser.add_argument("--fixit-sample", type=int, default=None, help="files of tree 1 Fixit lints (default 150, quick 40)")
    parser.add_argument("--peers", help="folder holding the fixit and ruff executables")
    args = parser.parse_args()
    repeat = 1 if args.quick else 3
    sample_size = args.fixit_sample or (40 if args.quick else 150)
    a2alint = tool("a2alint")
    if a2alint is None:
        raise SystemExit("a2alint is not installed: pip install .")
    rows: list[Row] = []
    work = Path(tempfile.mkdtemp(prefix="a2alint-bench-"))
    try:
        # One run untimed, so that every timed run finds a2alint's bytecode as a user's would.
        subprocess.run([a2alint, "check", "--isolated", "--no-cache", "--exit-zero", "-q", str(ROOT / "examples")],
                       cwd=work, env=ENV, capture_output=True, check=True)
        # 1. The standard library.
        # A copy: the interpreter may live in a git work tree that ignores it (pyenv does),
        # and every tool must see the same files.
        stdlib = work / "stdlib"
        for source in python_files(Path(sysconfig.get_paths()["stdlib"])):
            target = stdlib / source.relative_to(sysconfig.get_paths()["stdlib"])
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
        files = python_files(stdlib)
        exclude = ",".join(sorted(EXCLUDED_DIRS))
        check = [a2alint, "check", "--isolated", "--exit-zero", "-q", "--extend-exclude", exclude, str(stdlib)]
        cache_dir = work / "tree1"
        cache_dir.mkdir()
        clear = lambda: shutil.rmtree(cache_dir / ".a2alint_cache", ignore_errors=True)  # noqa: E731
        (seconds, peak), parsed = measure_turns([check, bare_parse(files, work)], cache_dir, repeat, before=clear)
        rows.append(Row("1 stdlib", "a2alint cold", len(files), seconds, peak))
        seconds, peak = measure(check, cache_dir, max(repeat, 3))
        rows.append(Row("1 stdlib", "a2alint warm", len(files), seconds, peak))
        rows.append(Row("1 stdlib", "bare libcst parse", len(files), *parsed))
        fixit = tool("fixit", args.peers)
        if fixit:
            sample = random.Random(7).sample(files, min(sample_size, len(files)))
            sample_dir = work / "fixit-sample"
            for index, path in enumerate(sample):
                (sample_dir / f"{index:04}_{path.name}").parent.mkdir(exist_ok=True)
                shutil.copy(path, sample_dir / f"{index:04}_{path.name}")
            seconds, peak = measure([fixit, "lint", str(sample_dir)], work, 1)
            rows.append(Row("1 stdlib", "fixit lint", len(files), seconds * len(files) / len(sample), peak,
                            f"{len(sample)} files sampled, time extrapolated"))
        ruff = tool("ruff", args.peers)
        if ruff:
            seconds, peak = measure([ruff, "check", "--no-cache", "--exit-zero", "-q", "--exclude", exclude, str(stdlib)], work, repeat)
            rows.append(Row("1 stdlib", "ruff check", len(files), seconds, peak))

        # 2. An all-A2A tree.
        tree = generate_a2a_tree(work / "tree2")
        one = [a2alint, "check", "--isolated", "--no-cache", "--exit-zero", "-q"]
        cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
        single, many, parsed = measure_turns(
            [[*one, "--jobs", "1", str(work / "tree2")], [*one, "--jobs", str(cpus), str(work / "tree2")], bare_parse(tree, work)],
            work, repeat,
        )
        rows.append(Row("2 all-A2A", "a2alint 1 job", len(tree), *single))
        rows.append(Row("2 all-A2A", f"a2alint {cpus} jobs", len(tree), *many))
        rows.append(Row("2 all-A2A", "bare libcst parse", len(tree), *parsed))
        # Where the cache earns its keep: every file parses, and none changed since the last run.
        cached = [a2alint, "check", "--isolated", "--exit-zero", "-q", str(work / "tree2")]
        subprocess.run(cached, cwd=work, env=ENV, capture_output=True, check=True)
        seconds, peak = measure(cached, work, max(repeat, 3))
        rows.append(Row("2 all-A2A", "a2alint warm", len(tree), seconds, peak, "every file a cache hit"))

        # 3. Pre-commit: three changed files.
        changed = [str(p) for p in tree[:3]]
        (seconds, peak), started = measure_turns(
            [[a2alint, "check", "--isolated", "--no-cache", "--force-exclude", *changed], [sys.executable, "-c", "pass"]], work, max(repeat, 5)
        )
        rows.append(Row("3 pre-commit", "a2alint 3 files", 3, seconds, peak))
        rows.append(Row("3 pre-commit", "python start-up", 0, *started))

        # 4. One project of modules that import each other.
        project = work / "project"
        modules = generate_a2a_project(project)
        pristine = work / "pristine"
        shutil.copytree(project, pristine)

        def restore() -> None:  # --fix edits the project: every turn checks and fixes the same files
            shutil.rmtree(project)
            shutil.copytree(pristine, project)

        check = [a2alint, "check", "--no-cache", "--exit-zero", "-q", "--jobs", "1", "."]
        (seconds, peak), parsed, fixed = measure_turns(
            [check, bare_parse(modules, work), [*check, "--fix", "--unsafe-fixes"]], project, repeat, before=restore
        )
        restore()
        rows.append(Row("4 project", "a2alint 1 job", len(modules), seconds, peak))
        rows.append(Row("4 project", "bare libcst parse", len(modules), *parsed))
        rows.append(Row("4 project", "a2alint --fix 1 job", len(modules), *fixed, "--unsafe-fixes"))
        subprocess.run([a2alint, "check", "--exit-zero", "-q", "."], cwd=project, env=ENV, capture_output=True, check=True)
        changed = modules[1:4]
        edits = iter(range(1_000_000))

        def change() -> None:  # pre-commit runs on files that differ from what the cache holds
            for path in changed:
                path.write_text(path.read_text() + f"\n# edit {next(edits)}\n")

        named = [str(p.relative_to(project)) for p in changed]
        hook = [a2alint, "check", "--force-exclude", "--only-named", *named]
        seconds, peak = measure(hook, project, max(repeat, 5), before=change)
        rows.append(Row("4 project", "a2alint 3 changed", 3, seconds, peak, "--only-named, warm cache, the rest of the project from it"))
        seconds, peak = measure([a2alint, "check", "--force-exclude", *named], project, max(repeat, 3), before=change)
        rows.append(Row("4 project", "a2alint 3 changed + dependents", 3, seconds, peak, "the hook's default: the modules whose findings rest on them too"))
        latency = lsp_latency(project, modules[0], 5 if args.quick else 20)
        if latency is not None:
            rows.append(Row("4 project", "lsp didChange", 1, latency, 0, f"median, {modules[0].name}"))
            rows.append(Row("4 project", "bare parse, 1 module", 1, parse_one(modules[0]), 0, modules[0].name))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    report(rows)


def report(rows: list[Row]) -> None:
    print(f"{'case':<13} {'tool':<20} {'files':>6} {'wall s':>8} {'files/s':>9} {'peak MB':>8}  note")
    for r in rows:
        rate = f"{r.rate:9.0f}" if r.files else f"{'':>9}"
        print(f"{r.case:<13} {r.tool:<20} {r.files:>6} {r.seconds:8.2f} {rate} {r.peak_mb:8.0f}  {r.note}")
    get = {(r.case, r.tool): r for r in rows}
    cold, warm = get[("1 stdlib", "a2alint cold")], get[("1 stdlib", "a2alint warm")]
    parse1 = get[("1 stdlib", "bare libcst parse")]
    one = get[("2 all-A2A", "a2alint 1 job")]
    many = next(r for r in rows if r.case == "2 all-A2A" and r.tool.endswith("jobs"))
    parse2 = get[("2 all-A2A", "bare libcst parse")]
    hook, startup = get[("3 pre-commit", "a2alint 3 files")], get[("3 pre-commit", "python start-up")]
    checks = [
        ("tree 1 cold: >= 20x faster than a bare parse", parse1.seconds / cold.seconds, 20, ">="),
        ("tree 1 warm: under 0.5 s", warm.seconds, 0.5, "<"),
        ("tree 1: peak memory under 300 MB", max(cold.peak_mb, warm.peak_mb), 300, "<"),
        ("tree 2: 1 job at most 2.5x a bare parse", one.seconds / parse2.seconds, 2.5, "<="),
        (f"tree 2: {many.tool} >= 1.6x faster than 1 job", one.seconds / many.seconds, 1.6, ">="),
        ("pre-commit: under 0.3 s beyond interpreter start-up", hook.seconds - startup.seconds, 0.3, "<"),
    ]
    project, parse4 = get[("4 project", "a2alint 1 job")], get[("4 project", "bare libcst parse")]
    changed = get[("4 project", "a2alint 3 changed")]
    dependents = get[("4 project", "a2alint 3 changed + dependents")]
    checks += [
        ("project: 1 job at most 2.5x a bare parse", project.seconds / parse4.seconds, 2.5, "<="),
        ("project: --fix --unsafe-fixes at most 1.2x a check", get[("4 project", "a2alint --fix 1 job")].seconds / project.seconds, 1.2, "<="),
        ("project pre-commit --only-named, warm: < 0.5 s beyond start-up", changed.seconds - startup.seconds, 0.5, "<"),
        ("project pre-commit + dependents: at most a whole check", dependents.seconds / project.seconds, 1.0, "<="),
    ]
    if ("4 project", "lsp didChange") in get:
        latency, one = get[("4 project", "lsp didChange")].seconds, get[("4 project", "bare parse, 1 module")].seconds
        checks.append(("project lsp: median didChange under 250 ms", latency * 1000, 250, "<"))
        print(f"\nfor scale: the lsp's median didChange is {latency / one:.1f}x a bare parse of the module ({one * 1000:.0f} ms)")
    if ("1 stdlib", "fixit lint") in get:
        checks.insert(1, ("tree 1 cold: >= 100x faster than fixit lint", get[("1 stdlib", "fixit lint")].seconds / cold.seconds, 100, ">="))
    if ("1 stdlib", "ruff check") in get:
        print(f"\nfor reference: a2alint cold / ruff = {cold.seconds / get[('1 stdlib', 'ruff check')].seconds:.1f}x")
    print(f"\n{'target':<64} measured   goal    met")
    for label, value, goal, op in checks:
        met = {"<": value < goal, "<=": value <= goal, ">=": value >= goal}[op]
        print(f"{label:<64} {value:8.2f}   {op}{goal:<5}  {'yes' if met else 'NO'}")


if __name__ == "__main__":
    main()
