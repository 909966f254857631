"""The ``a2alint`` command: ``check``, ``rule``, ``clean`` (and ``server`` with the lsp extra)."""

from __future__ import annotations

import difflib
import errno
import gc
import io
import json
import os
import shlex
import shutil
import sys
import traceback
from pathlib import Path
from typing import TYPE_CHECKING, Callable

import click

from a2alint import __version__, reporters
from a2alint.cache import CACHE_DIR_VARIABLE, Cache, cache_folder, clean as clean_cache
from a2alint.config import ConfigError, Layer, Overrides, SelectionError, SettingsResolver, config_options, describe
from a2alint.discovery import discover, excluded, project_context, project_root
from a2alint.globs import made_absolute, unreadable_pattern
from a2alint.paths import resolved
from a2alint.registry import RegistryError, RulePage, load_rules, markdown_table, refuse_plugins_from, rule_pages, severity_label

# The engine (and libcst, a third of a second to import) is imported by the functions of
# ``check`` that use it: ``--version`` and ``rule`` answer without it.
if TYPE_CHECKING:
    from a2alint.fixes import Change
    from a2alint.runner import FileResult, Linter


def _codes(values: tuple[str, ...], option: str) -> tuple[str, ...] | None:
    """``--select AC1,AC2 --select AC3`` -> ``("AC1", "AC2", "AC3")``. An empty selector
    (``--select ""``, ``--select AC1,``) is a usage error, as in ruff: it would select or
    drop nothing, silently."""
    if not values:
        return None
    codes = [code.strip().upper() for value in values for code in value.split(",")]
    if "" in codes:
        raise click.UsageError(f"{option}: empty rule selector in {', '.join(repr(v) for v in values)}")
    return tuple(codes)


#: The exit code of a run interrupted (Ctrl-C, or a plug-in raising KeyboardInterrupt): the
#: shell's for SIGINT, never 1 (which means findings, and click would give).
INTERRUPTED = 130


class _Program(click.Group):
    """The ``a2alint`` command group: an interrupt ends the run with :data:`INTERRUPTED`."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            click.echo("a2alint: interrupted", err=True)
            sys.exit(INTERRUPTED)


@click.group(cls=_Program, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="a2alint", message="%(prog)s %(version)s")
def main() -> None:
    """a2alint: find A2A client code that re-fetches Agent Cards after submission, cancels on
    skill absence, sends without freezing the card's contract, or lets a card decide task state."""
    try:
        os.getcwd()
    except FileNotFoundError:  # every command reads config, paths or its cache from here
        _fail("the current directory no longer exists; cd into one that does")


def _registry(checked: tuple[str, ...] = ()) -> dict:
    """Every rule, or exit 2 naming the plug-in that cannot be registered (or would be
    imported from inside the paths ``checked``)."""
    refuse_plugins_from(checked)
    try:
        return load_rules()
    except RegistryError as error:
        _fail(str(error))


#: Set by :func:`run` when the process ends as soon as the command does.
_LEAVING_AT_ONCE = False


def run(hard_exit: bool = True) -> None:
    """The ``a2alint`` program: :func:`main`, then leave. A crash is exit 2 with its
    traceback, never 1 (which means findings). ``hard_exit``: leave at once, without
    tearing down what a run built (every module's facts, and a collection of their
    cycles at exit), which costs a large project a noticeable share of the run and frees
    nothing anyone waits for; mypy leaves the same way. Output is flushed first, and a
    write that fails then is exit 2."""
    global _LEAVING_AT_ONCE
    _LEAVING_AT_ONCE = hard_exit
    _standard_streams()
    try:
        main(prog_name="a2alint")
        code = 0
    except SystemExit as leaving:
        code = leaving.code if isinstance(leaving.code, int) else (0 if leaving.code is None else 1)
        if not isinstance(leaving.code, (int, type(None))):
            print(leaving.code, file=sys.stderr)
    except Exception:  # an internal error: say so, and not with the code for findings
        traceback.print_exc()
        print("a2alint: internal error (the traceback above); please report it", file=sys.stderr)
        code = 2
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except ValueError:  # closed already (the language server's stdout, at its exit)
            pass
        except OSError:
            code = 2
    if not hard_exit:
        sys.exit(code)
    os._exit(code)


class _ClosedStream(io.TextIOBase):
    """What a process started with a standard stream closed (``>&-``) has in its place:
    writing to it fails as writing to a closed descriptor does, so the report says it
    could not be written (exit 2) instead of passing for a run that printed nothing."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "the stream is closed")

    def flush(self) -> None:
        pass


def _standard_streams() -> None:
    """Standard streams a report can be written to: a closed one fails each write (see
    :class:`_ClosedStream`), and a character its encoding lacks (a file name under
    ``PYTHONIOENCODING=ascii``) is written as a backslash escape, as Python writes
    standard error, instead of ending the run."""
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if stream is None:
            setattr(sys, name, _ClosedStream())
        elif isinstance(stream, io.TextIOWrapper) and stream.errors == "strict":
            stream.reconfigure(errors="backslashreplace")



class _CheckCommand(click.Command):
    """``check``, whose ``--add-noqa`` takes a reason only as ``--add-noqa=REASON``, as
    ruff's does: a path after a bare ``--add-noqa`` stays a path."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        end = args.index("--") if "--" in args else len(args)
        return super().parse_args(ctx, [f"{a}=" if a == "--add-noqa" and i < end else a for i, a in enumerate(args)])


@main.command(cls=_CheckCommand)
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--select", multiple=True, help="Rule codes or prefixes to enable (replaces the config's), e.g. AC1,AC201, or ALL.")
@click.option("--extend-select", multiple=True, help="Rule codes or prefixes to enable on top of the selection.")
@click.option("--ignore", multiple=True, help="Rule codes or prefixes to disable.")
@click.option("--preview/--no-preview", default=None, help="Also run rules marked preview.")
@click.option(
    "--output-format", "--format", "output_format", type=click.Choice(reporters.FORMATS),
    help="How findings are written: text (the default, or the config's output-format), concise (one line each), "
    "full (with the code), grouped (by file), or a report format.",
)
@click.option(
    "--color", type=click.Choice(reporters.COLORS), default="auto", show_default=True,
    help="Colour text output: auto (on a terminal; FORCE_COLOR and NO_COLOR decide too), always, never.",
)
@click.option("-o", "--output-file", type=click.Path(dir_okay=False, writable=True), help="Write the report here instead of stdout.")
@click.option("--statistics", is_flag=True, help="Print a count per rule code instead of each finding.")
@click.option("--fix", is_flag=True, help="Apply safe fixes.")
@click.option(
    "--fix-only", is_flag=True,
    help="Apply fixes and report no finding; exit 0 unless --exit-non-zero-on-fix and a fix was applied. Implies --fix.",
)
@click.option("--show-fixes", is_flag=True, help="After --fix, list the fixes applied per file; otherwise show each finding's fix.")
@click.option("--unsafe-fixes", is_flag=True, help="With --fix or --diff, also apply unsafe fixes.")
@click.option("--diff", is_flag=True, help="Print the fixes as a unified diff and write nothing.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when there are findings.")
@click.option("--exit-non-zero-on-fix", is_flag=True, help="With --fix, exit 1 when a fix was applied, even if no finding is left.")
@click.option("-q", "--quiet", is_flag=True, help="Print findings only, no summary.")
@click.option("--no-cache", is_flag=True, help="Neither read nor write the cache.")
@click.option("--cache-dir", type=click.Path(file_okay=False), help=f"The cache's folder (default: ${CACHE_DIR_VARIABLE}, else .a2alint_cache/ in the project root).")
@click.option("-j", "--jobs", type=click.IntRange(min=0), default=0, help="Processes to check files in (default 0: one per CPU).")
@click.option(
    "--config", "config_values", multiple=True, metavar="FILE|KEY=VALUE",
    help="Use this config file for every path; or, repeatable, a setting as a TOML line in [tool.a2alint] "
    "(e.g. 'select=[\"AC1\"]', 'rules.CODE.option=3'), over every config file.",
)
@click.option("--show-settings", is_flag=True, help="Print the settings of the first path, and the config files and options they come from; check nothing.")
@click.option("--isolated", is_flag=True, help="Ignore every config file.")
@click.option("--stdin-filename", help="The path of the source read from '-' (for config and messages).")
@click.option(
    "--force-exclude/--no-force-exclude", default=None,
    help="Apply exclusions to paths named on the command line too (over the config's force-exclude).",
)
@click.option(
    "--only-named", is_flag=True,
    help="Report on the files named only; not on the modules of their project whose findings rest on them.",
)
@click.option("--extend-exclude", multiple=True, help="More glob patterns to exclude.")
@click.option("--show-files", is_flag=True, help="Print the files that would be checked, one per line, and check nothing.")
@click.option("--report-unused-noqa", is_flag=True, help="Report '# noqa' codes that suppressed nothing (AC001).")
@click.option("--ignore-noqa", is_flag=True, help="Report every finding, whatever '# noqa' comments say.")
@click.option(
    "--per-file-ignores", multiple=True, metavar="PATTERN:CODES",
    help="Ignore rule codes or prefixes (comma-separated) in the files a glob matches, relative to the current "
    "directory; repeatable, on top of the config's per-file-ignores.",
)
@click.option("--baseline", "baseline_file", type=click.Path(dir_okay=False), help="Hide the findings recorded in this baseline file; new ones still count.")
@click.option("--write-baseline", "write_baseline_file", type=click.Path(dir_okay=False), help="Record every current finding in this baseline file, and exit 0.")
@click.option(
    "--add-noqa", "add_noqa_reason", metavar="[=REASON]", default=None,
    help="Add '# noqa: CODE' comments for every current finding; with =REASON, '# noqa: CODE REASON'.",
)
@click.option("-v", "--verbose", is_flag=True, help="Show tracebacks of internal errors, and the calls a module's imports keep a2alint from reading.")
def check(
    paths: tuple[str, ...],
    select: tuple[str, ...],
    extend_select: tuple[str, ...],
    ignore: tuple[str, ...],
    preview: bool | None,
    output_format: str | None,
    color: str,
    output_file: str | None,
    statistics: bool,
    fix: bool,
    fix_only: bool,
    show_fixes: bool,
    unsafe_fixes: bool,
    diff: bool,
    exit_zero: bool,
    exit_non_zero_on_fix: bool,
    quiet: bool,
    no_cache: bool,
    cache_dir: str | None,
    jobs: int,
    config_values: tuple[str, ...],
    show_settings: bool,
    isolated: bool,
    stdin_filename: str | None,
    force_exclude: bool | None,
    only_named: bool,
    extend_exclude: tuple[str, ...],
    show_files: bool,
    report_unused_noqa: bool,
    ignore_noqa: bool,
    per_file_ignores: tuple[str, ...],
    baseline_file: str | None,
    write_baseline_file: str | None,
    add_noqa_reason: str | None,
    verbose: bool,
) -> None:
    """Check PATHS (files or directories; default '.'; '-' reads stdin)."""
    from a2alint.baseline import Baseline, BaselineError, lines_reader, write as write_baseline
    from a2alint.runner import MAX_BYTES, FileResult, Linter, check_files

    # The project's facts live until the run ends and then the process does: a collection
    # of their cycles after the check (seconds for a large project) would free nothing the
    # run still needs, so the cyclic collector stays off for the command.
    # Turned on again, it would collect at once, walking every module's syntax tree: a
    # program that leaves at once (``run``) leaves it off.
    if gc.isenabled():
        gc.disable()
        if not _LEAVING_AT_ONCE:
            click.get_current_context().call_on_close(gc.enable)
    if stdin_filename and not paths:
        paths = ("-",)  # like ruff: naming the stdin source implies reading it
    registry = _registry(tuple(path for path in paths or (".",) if path != "-"))
    cwd = Path.cwd()
    fix = fix or fix_only
    try:
        config_file, tables = config_options(config_values)
        tables += _per_file_ignores(per_file_ignores, cwd)
        overrides = Overrides(
            layer=Layer(
                select=_codes(select, "--select"),
                extend_select=_codes(extend_select, "--extend-select") or (),
                ignore=_codes(ignore, "--ignore") or (),
            ),
            preview=preview,
            extend_exclude=_patterns(extend_exclude, "--extend-exclude"),
            force_exclude=force_exclude,
            tables=tables,
        )
        resolver = SettingsResolver(registry, overrides, config_file, isolated, cwd)
        # Unknown selectors on the command line are a usage error, before any file is read.
        here = resolver.for_path(cwd)
        here.enabled_codes(registry)
        output_format = output_format or here.output_format or "text"  # the option wins, as in ruff
        if show_settings:
            _show_settings(resolver, registry, paths, stdin_filename)
    except SelectionError as error:
        raise click.UsageError(str(error)) from None
    except ConfigError as error:
        _fail(str(error))
    from a2alint.suppressions import reason_problem

    add_noqa_comments = add_noqa_reason is not None
    if add_noqa_reason and reason_problem(add_noqa_reason):
        raise click.UsageError(f"--add-noqa: {reason_problem(add_noqa_reason)}")
    fix_mode = ("unsafe" if unsafe_fixes else "safe") if (fix or diff) else None
    linter = Linter(registry, report_unused_noqa=report_unused_noqa, ignore_noqa=ignore_noqa, verbose=verbose)
    # (the cache holds findings with the noqa comments applied: --ignore-noqa does without it)
    cache = None if no_cache or fix_mode or ignore_noqa else Cache(cache_folder(resolver, cache_dir), registry)
    if cache is not None and verbose:
        cache.serves_findings = False
    if exit_zero and exit_non_zero_on_fix:
        raise click.UsageError("--exit-zero and --exit-non-zero-on-fix ask for opposite exit codes: give one of them")
    if (add_noqa_comments or write_baseline_file) and fix_mode:
        raise click.UsageError("--add-noqa and --write-baseline take the findings as they are: not with --fix or --diff")
    if add_noqa_comments and (write_baseline_file or paths == ("-",)):
        raise click.UsageError("--add-noqa writes the files it checks: not with --write-baseline or stdin")
    if statistics and output_format not in reporters.STATISTICS_FORMATS:
        raise click.UsageError(
            f"--statistics is written as {'/'.join(reporters.STATISTICS_FORMATS)}, not {output_format}: "
            "a count per code is not a report of findings"
        )
    for option, target in (("--output-file", output_file), ("--write-baseline", write_baseline_file)):
        if target and Path(target).suffix in (".py", ".pyi"):
            _fail(f"{option} {target}: would overwrite Python source; give the report another name")
    try:
        known = Baseline.load(Path(baseline_file)) if baseline_file else None
    except BaselineError as error:
        _fail(str(error))

    results: list[FileResult] = []
    work: list = []
    context: list = []
    problems = []
    located: dict[str, Path] = {}  # display path -> the file's real path
    try:
        if show_files:
            _show_files(*discover(list(paths) or ["."], resolver))
        if paths == ("-",) and stdin_filename and _force_excluded(resolver.cwd / stdin_filename, resolver):
            results.append(FileResult(stdin_filename, data=sys.stdin.buffer.read(MAX_BYTES + 1)))  # passed through as it is
            files = []
        elif paths == ("-",):
            results.append(_check_stdin(linter, resolver, stdin_filename, fix_mode, cache))
            files = [results[-1].display]
        else:
            found, problems = discover(list(paths) or ["."], resolver)
            checked = {resolved(path) for _, path in found}
            for option, target in (("--output-file", output_file), ("--write-baseline", write_baseline_file)):
                if target and resolved(Path(target)) in checked:
                    _fail(f"{option} {target}: is one of the files being checked")
            work = [(display, path, resolver.for_path(path)) for display, path in found]
            context = _context(found, paths, resolver)
            # files named (pre-commit's changed files) bring in the modules whose findings rest
            # on them; a folder named is checked as it is, what is below it
            dependents = bool(paths) and not only_named and all(os.path.isfile(resolver.cwd / p) for p in paths)
            results.extend(check_files(linter, work, fix_mode, cache, jobs, context, dependents=dependents))
            located = dict(found) | {display: path for display, path, _ in context}
            files = [result.display for result in results]  # (with the modules whose findings rest on them)
    except ConfigError as error:
        _fail(str(error))

    _tell(problems)
    if not files and not problems and not quiet and paths != ("-",):
        click.echo("a2alint: warning: no Python files found under the given paths", err=True)
    errors = [e for r in results for e in r.errors]
    for error in errors:
        click.echo(f"a2alint: {error}", err=True)
    for warning in (w for r in results for w in r.warnings):
        click.echo(f"a2alint: {warning}", err=True)

    failed = bool(errors) or any(p.fatal for p in problems)
    if add_noqa_comments:
        left = _add_noqa(linter, results, located, lambda changed: _check_again(linter, changed, work, context), add_noqa_reason or "")
        sys.exit(2 if failed else 1 if left and not exit_zero else 0)
    fixed_count = 0
    if fix_mode:
        fixed_count = _apply(results, paths == ("-",), diff, located)
    applied = {r.display: r.fixes_applied for r in results if r.fixed is not None and show_fixes and not diff}
    diagnostics = reporters.sorted_diagnostics(d for r in results for d in r.diagnostics)
    lines_of = lines_reader(results, located)
    if write_baseline_file:
        try:
            count = write_baseline(Path(write_baseline_file), diagnostics, lines_of, cwd)
        except OSError as error:
            _fail(f"{write_baseline_file}: cannot write the baseline: {error.strerror}")
        click.echo(f"Recorded {count} finding{'' if count == 1 else 's'} in {write_baseline_file}.")
        sys.exit(2 if failed else 0)
    if known is not None:
        diagnostics, hidden = known.hide(diagnostics, lines_of, cwd)
        if hidden and not quiet:
            click.echo(f"a2alint: {hidden} finding{'' if hidden == 1 else 's'} hidden by the baseline {baseline_file}", err=True)

    try:
        if output_file:
            Path(output_file).parent.mkdir(parents=True, exist_ok=True)
        stream = open(output_file, "w", encoding="utf-8") if output_file else None
    except OSError as error:
        _fail(f"{output_file}: cannot write the report: {error.strerror}")
    out = stream or (sys.stderr if paths == ("-",) and fix and not diff else sys.stdout)
    try:
        if fix_only and not diff:  # the fixes, and no finding
            if not quiet and output_format in ("text", "concise", "full", "grouped"):
                reporters.write_fixes(diagnostics, out, fixed_count, applied, unsafe_fixes)
        elif statistics:
            reporters.write_statistics(
                diagnostics, out, output_format, files=len(files), fixed=fixed_count, quiet=quiet, unsafe_fixes=unsafe_fixes
            )
        elif not diff:  # the diff is the whole output: a report after it would break its format
            # no all-clear when a path named could not be checked (`check nope/`): its error says so
            silent = quiet or (any(p.fatal for p in problems) and not diagnostics)
            # as ruff's: a report file is coloured only when asked, whatever FORCE_COLOR says
            report_color = "never" if stream and color == "auto" else color
            reporters.write(
                output_format, diagnostics, out, files=files, lines_of=lines_of, registry=registry, cwd=cwd,
                fixed=fixed_count, quiet=silent, color=report_color, unsafe_fixes=unsafe_fixes,
                show_fixes=show_fixes, applied=applied,
            )
        out.flush()
        if stream:
            stream.close()
    except OSError as error:  # a full disk, a closed pipe: one message, and not the code for findings
        _fail(f"{output_file or 'the output'}: cannot write the report: {error.strerror or error}")
    if errors or any(p.fatal for p in problems):
        sys.exit(2)
    if diff:
        sys.exit(1 if any(r.fixed is not None for r in results) and not exit_zero else 0)
    if fix_only:
        sys.exit(1 if exit_non_zero_on_fix and fixed_count else 0)
    sys.exit(1 if (diagnostics or (exit_non_zero_on_fix and fixed_count)) and not exit_zero else 0)


def _per_file_ignores(values: tuple[str, ...], cwd: Path) -> tuple[tuple[str, dict], ...]:
    """``--per-file-ignores PATTERN:CODES`` as the ``per-file-ignores`` table of a
    ``--config`` setting, read as the config key is; each pattern relative to ``cwd``."""
    table: dict[str, list[str]] = {}
    for value in values:
        pattern, _, codes = value.rpartition(":")
        if not pattern.strip():
            raise click.UsageError(f"--per-file-ignores: expected PATTERN:CODES (e.g. 'tests/*.py:AC1'), got {value!r}")
        table.setdefault(made_absolute(pattern, cwd), []).extend(_codes((codes,), "--per-file-ignores") or ())
    shown = " ".join(f"--per-file-ignores {shlex.quote(value)}" for value in values)
    return ((shown, {"per-file-ignores": table}),) if table else ()


def _force_excluded(path: Path, resolver: SettingsResolver) -> bool:
    """Whether ``path`` (the name the stdin source is given) is excluded, and the settings of
    its folder (as for a path named, see :func:`discover`) apply excludes to it."""
    return resolver.for_path(path.parent).force_exclude and excluded(path, resolver)


def _show_settings(
    resolver: SettingsResolver, registry: dict[str, type], paths: tuple[str, ...], stdin_filename: str | None
) -> None:
    """``--show-settings``: the settings of the first path (of the stdin source, by the
    name it is given), and exit 0."""
    first = (paths or (".",))[0]
    if first == "-":
        first = stdin_filename or "."
    click.echo(f"Settings for {first}")
    click.echo(describe(resolver.for_path(Path(first)), registry, _roots(resolver, Path(first))))
    sys.exit(0)


def _roots(resolver: SettingsResolver, path: Path) -> tuple[Path, ...]:
    """The folders a check of ``path`` looks for its project's imports in: those of the
    project around it (as a check of a file there reads it), else of what it names."""
    from a2alint.runner import Scans

    named = resolver.cwd / path
    root = project_root(named, resolver)
    shown = [str(root)] if root is not None else [str(named)] if os.path.exists(named) else []
    found = discover(shown, resolver)[0] if shown else []
    entries = {resolved(file): (display, file, resolver.for_path(file)) for display, file in found}
    return Scans().index(entries).roots if entries else ()


def _show_files(found: list[tuple[str, Path]], problems: list) -> None:
    """``--show-files``: what a check of the same paths would read, sorted, and the exit
    it would have for a path that is not there (2); nothing is checked."""
    _tell(problems)
    for display in sorted(display for display, _ in found):
        click.echo(reporters.shown_path(display))
    sys.exit(2 if any(p.fatal for p in problems) else 0)


def _tell(problems: list) -> None:
    """The paths that could not be walked, one message each, on stderr."""
    for problem in problems:
        click.echo(f"a2alint: {reporters.shown_path(problem.path)}: {problem.message}", err=True)


def _fail(message: str) -> None:
    click.echo(f"a2alint: error: {message}", err=True)
    sys.exit(2)


def _context(found: list[tuple[str, Path]], paths: tuple[str, ...], resolver: SettingsResolver) -> list:
    """The rest of the project of the paths named below its root (pre-commit names only
    the changed files; a check may start in a sub-folder): what their analysis may read,
    not what is reported on."""
    seen = {resolved(path) for _, path in found}
    texts = [str(path) for path in seen]
    named = []
    for given in paths or (".",):  # those that gave a file to check
        path = resolved(resolver.cwd / given)
        inside = str(path) + os.sep
        if path in seen or any(text.startswith(inside) for text in texts):
            named.append(path)
    return [(d, p, resolver.for_path(p)) for d, p in project_context(named, resolver) if resolved(p) not in seen]


def _check_stdin(
    linter: Linter, resolver: SettingsResolver, stdin_filename: str | None, fix_mode: str | None, cache: Cache | None
) -> FileResult:
    """The source piped in, checked as the file it names would be: with the rest of that
    file's project, when it has one. No more of it is read than a file may hold (the
    rest, for ``--fix``, is passed through by :func:`_apply`)."""
    from a2alint.runner import MAX_BYTES

    data = sys.stdin.buffer.read(MAX_BYTES + 1)
    display = stdin_filename or "-"
    path = Path(stdin_filename) if stdin_filename else Path.cwd() / "-"
    if stdin_filename:
        try:
            return _check_stdin_as(linter, resolver, data, display, path, fix_mode, cache)
        except OSError as error:  # a name longer than the system allows: checked, without its place
            click.echo(f"a2alint: {display}: {error.strerror or error}; checked with the settings of the current folder", err=True)
            path = Path.cwd() / "-"
    return linter.check_bytes(data, display, path, resolver.for_path(path), fix_mode)


def _check_stdin_as(
    linter: Linter, resolver: SettingsResolver, data: bytes, display: str, path: Path, fix_mode: str | None, cache: Cache | None
) -> FileResult:
    from a2alint.runner import check_files, read_source

    piped = resolved(path)
    context = [(d, p, resolver.for_path(p)) for d, p in project_context([path], resolver)]

    def read(file: Path) -> bytes:
        return data if resolved(file) == piped else read_source(file, resolver.for_path(file).max_file_size)

    result = check_files(linter, [(display, path, resolver.for_path(path))], fix_mode, cache, 1, context, read)[0]
    if fix_mode and result.fixed is None:
        result.data = data  # passed through as it came (a notebook was checked as its joined cells)
    return result


def _write_stdout(data: bytes) -> None:
    """Source for an editor that piped it in: in the encoding it came in, not stdout's."""
    sys.stdout.flush()
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def _real_path(result: FileResult, located: dict[str, Path]) -> Path:
    """The file ``result`` is about (its display path may show a name that is not UTF-8 otherwise)."""
    return resolved(located.get(result.display, Path(result.display)))


def _apply(results: list[FileResult], stdin: bool, diff: bool, located: dict[str, Path]) -> int:
    """Write (or, with --diff, print) every fixed file; the number of findings fixed. A file
    that cannot be written keeps the findings it had in its project, so they still count."""
    from a2alint.fixes import split_lines
    from a2alint.runner import MAX_BYTES

    fixed = 0
    for result in results:
        if result.fixed is None:
            if stdin and not diff:
                _write_stdout(result.data)  # unchanged, byte for byte (even when it could not be decoded)
                if len(result.data) > MAX_BYTES:  # too large to check: the rest of it, unread until now
                    shutil.copyfileobj(sys.stdin.buffer, sys.stdout.buffer)
                    sys.stdout.buffer.flush()
            continue
        if diff:
            sys.stdout.writelines(
                difflib.unified_diff(
                    split_lines(result.original or ""),
                    split_lines(result.fixed),
                    fromfile=f"a/{result.display}",
                    tofile=f"b/{result.display}",
                )
            )
        else:
            path = None if stdin else _real_path(result, located)
            reason = _write_edited(path, result.data, result.original or "", result.changes, result.encoding)
            if reason:
                click.echo(f"a2alint: {result.display}: not fixed: {reason}", err=True)
                result.diagnostics, result.fixed = result.unfixed, None
                continue
        fixed += len(result.fixes_applied)
    return fixed


def _write_edited(path: Path | None, data: bytes, original: str, changes: list[Change], encoding: str) -> str | None:
    """Write the file read as ``data`` (``original`` in ``encoding``) with ``changes`` made to
    its text, to ``path`` (for none, to stdout: as it came when it cannot be changed); why it
    was not, if not."""
    from a2alint.fixes import StaleFileError, UnwritableEditError, splice_bytes, write_atomically

    reason = None
    try:
        edited = splice_bytes(data, original, changes, encoding)
        if path is not None:
            write_atomically(path, edited, data)
    except StaleFileError:
        reason = "changed on disk while checking"
    except UnwritableEditError as error:
        edited, reason = data, str(error)
    except OSError as error:
        reason = error.strerror or str(error)
    if path is None:
        _write_stdout(edited)
    return reason


def _patterns(values: tuple[str, ...], option: str) -> tuple[str, ...]:
    """The path patterns of a repeatable, comma-separated ``option``; one git cannot read
    is a usage error."""
    patterns = tuple(p for v in values for p in v.split(",") if p)
    unreadable = unreadable_pattern(patterns)
    if unreadable is not None:
        raise click.UsageError(f"{option}: {unreadable!r} is not a path pattern (git would match nothing with it)")
    return patterns


def _check_again(linter: Linter, changed: list[FileResult], work: list, context: list) -> list[FileResult]:
    """``changed`` checked again from their files, in the project they were checked in."""
    from a2alint.runner import check_files

    names = {result.display for result in changed}
    again = [item for item in work if item[0] in names]
    return check_files(linter, again, jobs=1, context=[item for item in work if item[0] not in names] + context)


def _add_noqa(
    linter: Linter, results: list[FileResult], located: dict[str, Path], recheck: Callable[[list[FileResult]], list[FileResult]],
    reason: str,
) -> int:
    """Add a ``# noqa: CODE`` (then ``reason``) for every finding the check reported, in
    the project it was checked in, as a fix is written (verified to parse, written
    atomically unless the file changed meanwhile); the number of findings left without
    one. A file that changed since it was checked is checked again first (``recheck``:
    in the same project)."""
    from a2alint.fixes import parses
    from a2alint.notebooks import is_notebook
    from a2alint.runner import decoded, read_source
    from a2alint.suppressions import NOT_SUPPRESSIBLE, add_noqa

    added = files = left = 0
    current: dict[str, bytes] = {}
    for result in results:
        if any(d.code not in NOT_SUPPRESSIBLE for d in result.diagnostics):
            try:
                current[result.display] = read_source(_real_path(result, located), len(result.data) + 1)
            except OSError as error:
                click.echo(f"a2alint: {result.display}: no noqa added: {error.strerror}", err=True)
        left += sum(d.code in NOT_SUPPRESSIBLE or result.display not in current for d in result.diagnostics)
    changed = [r for r in results if r.display in current and current[r.display] != r.data]
    fresh = {r.display: r for r in (recheck(changed) if changed else [])}
    for result in results:
        if result.display not in current:
            continue
        if is_notebook(_real_path(result, located)):
            click.echo(f"a2alint: {result.display}: no noqa added: noqa comments are not added to notebooks yet", err=True)
            left += sum(d.code not in NOT_SUPPRESSIBLE for d in result.diagnostics)
            continue
        result = fresh.get(result.display, result)
        wanted: dict[int, set[str]] = {}
        for diagnostic in result.diagnostics:
            if diagnostic.code not in NOT_SUPPRESSIBLE:
                wanted.setdefault(diagnostic.line, set()).add(diagnostic.code)
        if not wanted:
            continue
        try:
            text, encoding = (result.original, result.encoding) if result.original is not None else decoded(result.data)
        except (SyntaxError, LookupError, UnicodeDecodeError):  # (a file that cannot be decoded has no other finding)
            continue
        commented, count, skipped = add_noqa(text, wanted, reason)
        for line, why in skipped:
            click.echo(f"a2alint: {result.display}:{line}: no noqa added: {why}", err=True)
            left += len(wanted[line])
        if not count:
            continue
        if parses(commented.text):
            failure = _write_edited(_real_path(result, located), result.data, text, commented.changes, encoding)
        else:
            failure = "the comments would stop it parsing"
        if failure:
            click.echo(f"a2alint: {result.display}: no noqa added: {failure}", err=True)
            left += count
            continue
        added, files = added + count, files + 1
    click.echo(f"Added {added} noqa code{'' if added == 1 else 's'} to {files} file{'' if files == 1 else 's'}.")
    if left:
        click.echo(f"a2alint: {left} finding{' was' if left == 1 else 's were'} left without a noqa: the check still reports {'it' if left == 1 else 'them'}", err=True)
    return left


@main.command()
@click.argument("code", required=False)
@click.option("--all", "show_all", is_flag=True, help="List every rule.")
@click.option(
    "--output-format", "--format", "output_format", type=click.Choice(["text", "json", "markdown"]), default="text",
    show_default=True, help="json: the fields of `ruff rule --output-format json`; markdown: the table of --all.",
)
def rule(code: str | None, show_all: bool, output_format: str) -> None:
    """Print the documentation of rule CODE, or list every rule with --all."""
    try:
        rules = rule_pages()
    except RegistryError as error:
        _fail(str(error))

    def fields(described) -> dict:
        return {
            "code": described.code, "name": described.name, "severity": described.severity,
            "preview": described.preview, "opt_in": described.opt_in, "summary": described.summary(),
        }

    if show_all or code is None:
        if output_format == "json":
            click.echo(json.dumps([fields(r) for r in rules.values()], indent=2))
        elif output_format == "markdown":
            click.echo(markdown_table(rules), nl=False)
        else:
            rows = [(r.code, r.name, severity_label(r), r.summary()) for r in rules.values()]
            widths = [max(len(row[column]) for row in rows) for column in range(3)]
            for *aligned, summary in rows:
                click.echo("  ".join(text.ljust(width) for text, width in zip(aligned, widths)) + f"  {summary}")
        return
    found = rules.get(code.upper())
    if found is None:
        raise click.UsageError(f"unknown rule code: {code}")
    if output_format == "json":
        linter = "a2alint" if isinstance(found, RulePage) else found.__module__.split(".")[0]  # a plug-in: its package
        availability = {"None": "not", "Sometimes": "sometimes", "Always": "always"}[found.fix_availability]
        explained = {"linter": linter, "explanation": found.documentation(), "fix": f"Fix is {availability} available."}
        click.echo(json.dumps({**fields(found), **explained}, indent=2))
        return
    click.echo(f"# {found.code} {found.name} ({severity_label(found)})\n")
    click.echo(found.documentation())


@main.command()
@click.option("--cache-dir", type=click.Path(file_okay=False), help="The cache's folder, if check was given one.")
def clean(cache_dir: str | None) -> None:
    """Remove the cache 'check' uses when run from here."""
    folder = cache_folder(SettingsResolver(_registry()), cache_dir)
    shown = os.path.relpath(folder) if folder.is_relative_to(Path.cwd()) else str(folder)
    try:
        removed = clean_cache(folder)
    except ValueError as error:
        _fail(str(error))
    click.echo(f"Removed {shown}/" if removed else f"No {shown}/ here")


@main.command()
def server() -> None:
    """Run the language server on stdin/stdout (needs: pip install 'a2alint[lsp]')."""
    try:
        from pygls.lsp.server import LanguageServer  # noqa: F401  (pygls 2.x)
    except ImportError:
        click.echo("a2alint: error: the language server needs pygls 2; install it with: pip install 'a2alint[lsp]'", err=True)
        sys.exit(2)
    from a2alint.server import serve

    _registry()  # a plug-in that cannot be registered: refused here, not inside the server
    serve()
