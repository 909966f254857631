"""Checking one file: read, prefilter, parse once, build the model, run the rules.

Everything a file can do wrong (unreadable, binary, not UTF-8, too large, a
syntax error, nesting too deep for the parser) becomes one ``AC000``
diagnostic; a rule that crashes becomes an internal error for that rule and
file while the other rules and files go on.
"""

from __future__ import annotations

import ast
import gc
import io
import os
import tokenize
import traceback
import warnings
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

import libcst as cst

from a2alint import apimodel
from a2alint.config import Settings
from a2alint.diagnostics import Diagnostic, Edit, Fix, Position, Related
from a2alint.fixes import apply_edits, parses, select_fixes, split_lines
from a2alint.model import ModuleModel, build_model
from a2alint.nesting import Nesting
from a2alint.positions import Positions
from a2alint.flow import Flow
from a2alint.project import Project
from a2alint.values import Analysis
from a2alint.rule import Rule
from a2alint.suppressions import SKIP_FILE, find_noqa

#: Larger files are one AC000: libcst needs 5 to 15 seconds and up to 1 GB of memory per MiB of Python.
MAX_BYTES = 1024 * 1024
MAX_FIX_PASSES = 10
UNPARSABLE = "AC000"
UNUSED_NOQA = "AC001"


@dataclass
class FileResult:
    display: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    #: Internal errors (a crashing rule); they make the run exit 2.
    errors: list[str] = field(default_factory=list)
    original: str | None = None
    fixed: str | None = None  # the text after fixes, when they changed it
    encoding: str = "utf-8"
    data: bytes = b""
    fixes_applied: int = 0


class Linter:
    """Lints files and source text under the settings each path resolves to."""

    def __init__(
        self,
        registry: dict[str, type[Rule]],
        *,
        report_unused_noqa: bool = False,
        prefilter: bool = True,
        verbose: bool = False,
    ) -> None:
        self.registry = registry
        self.report_unused_noqa = report_unused_noqa
        self.prefilter = prefilter
        self.verbose = verbose
        self._enabled: dict[int, frozenset[str]] = {}

    def enabled(self, settings: Settings, path: Path | None = None) -> frozenset[str]:
        key = id(settings)
        if key not in self._enabled:
            codes = set(settings.enabled_codes(self.registry))
            if self.report_unused_noqa:
                codes.add(UNUSED_NOQA)
            self._enabled[key] = frozenset(codes)
        codes = self._enabled[key]
        if path is not None:
            ignored = settings.ignored_for(path)
            if ignored:
                codes = frozenset(c for c in codes if not any(s == "ALL" or c.startswith(s) for s in ignored))
        return codes

    # -- one file --
    def check_bytes(
        self, data: bytes, display: str, path: Path, settings: Settings, fix: str | None = None
    ) -> FileResult:
        """Lint ``data`` (the bytes of ``path``); ``fix`` is ``None``, ``"safe"`` or ``"unsafe"``."""
        result = FileResult(display, data=data)
        enabled = self.enabled(settings, path)
        if b"a2alint" in data and SKIP_FILE.search(data):  # the regex is slow; the word is rare
            return result
        if b"\x00" in data:
            return self._unparsable(result, enabled, 1, 1, "file contains NUL bytes; is it a binary file?")
        if len(data) > MAX_BYTES:
            limit = f"{MAX_BYTES // 1024 // 1024} MiB"
            return self._unparsable(result, enabled, 1, 1, f"file is too large to check (more than {limit}); exclude generated files")
        try:
            encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
            text = data.decode(encoding)
        except (SyntaxError, LookupError, UnicodeDecodeError) as error:
            return self._unparsable(result, enabled, *_undecodable(data, error))
        result.encoding, result.original = encoding, text
        if self.prefilter and not apimodel.may_matter(data, settings):
            if UNUSED_NOQA in enabled and b"noqa" in data.lower():  # no finding here, so every a2alint noqa is unused
                result.diagnostics = self._suppress([], find_noqa(text), display, enabled)
            return result
        nesting = Nesting.of(text)
        if nesting.refusal:
            return self._unparsable(result, enabled, *nesting.refusal)
        return nesting.run(self._lint_and_fix, result, text, settings, enabled, fix)

    def _lint_and_fix(self, result: FileResult, text: str, settings: Settings, enabled: frozenset[str], fix: str | None) -> FileResult:
        """Lint (and fix) ``text``; a failure of the engine itself, outside any rule, is an
        internal error for this file (or, from recursion, an ``AC000``), never a traceback."""
        try:
            with _collector_paused():
                result.diagnostics, result.errors = self.lint_text(text, result.display, settings, enabled)
                if fix and any(d.fix for d in result.diagnostics):
                    self._fix(result, settings, enabled, unsafe=fix == "unsafe")
        except Exception as error:
            result.fixed, result.fixes_applied = None, 0  # all of the fixes or none of them
            if isinstance(error, RecursionError):
                result.diagnostics, result.errors = [], []
                return self._unparsable(result, enabled, 1, 1, "nested too deeply to analyse")
            detail = traceback.format_exc() if self.verbose else f"{type(error).__name__}: {error}"
            result.errors.append(
                f"internal error on {result.display}: {detail}\n"
                "  please report this as a bug, with the file if you can share it"
            )
        return result

    def _unparsable(self, result: FileResult, enabled: frozenset[str], line: int, column: int, message: str) -> FileResult:
        if UNPARSABLE in enabled:
            result.diagnostics.append(self._engine_diagnostic(UNPARSABLE, result.display, line, column, message))
        return result

    def _engine_diagnostic(self, code: str, display: str, line: int, column: int, message: str, end: int | None = None) -> Diagnostic:
        rule = self.registry[code]
        return Diagnostic(
            display, line, column, line, end or column, code, rule.name, rule.severity, message,
            suggestion=getattr(rule, "suggestion", None),
        )

    def _fix(self, result: FileResult, settings: Settings, enabled: frozenset[str], unsafe: bool) -> None:
        text = result.original or ""
        diagnostics = result.diagnostics
        for _ in range(MAX_FIX_PASSES):
            chosen = select_fixes(diagnostics, unsafe)
            if not chosen:
                break
            candidate = apply_edits(text, [edit for d in chosen for edit in d.fix.edits])  # type: ignore[union-attr]
            if candidate == text or not parses(candidate):
                break
            text = candidate
            result.fixes_applied += len(chosen)
            diagnostics, result.errors = self.lint_text(text, result.display, settings, enabled)
        if text != result.original:
            result.fixed = text
            result.diagnostics = diagnostics

    # -- source text --
    def lint_text(
        self, text: str, display: str, settings: Settings, enabled: frozenset[str]
    ) -> tuple[list[Diagnostic], list[str]]:
        """Diagnostics for ``text`` after suppressions, and internal errors."""
        try:
            module = cst.parse_module(text)
        except cst.ParserSyntaxError as error:
            line, column, message = _syntax_error(text, error)
            return self._unparsable(FileResult(display), enabled, line, column, message).diagnostics, []
        except RecursionError:
            return self._unparsable(FileResult(display), enabled, 1, 1, "nested too deeply to parse").diagnostics, []
        except Exception as error:  # the native parser's other refusals
            return self._unparsable(FileResult(display), enabled, 1, 1, f"cannot parse: {error}").diagnostics, []
        try:
            model = build_model(module, display)
            apimodel.annotate(model, settings.api)
            if model.flow is None:
                model.flow = Flow(model, Analysis(Project.of(model, Path(display)), settings.api))
        except RecursionError:
            return self._unparsable(FileResult(display), enabled, 1, 1, "nested too deeply to analyse").diagnostics, []
        reports = []
        errors = []
        for code in sorted(enabled):
            rule_class = self.registry[code]
            if rule_class.engine or (rule_class.requires_a2a and not model.is_a2a):
                continue
            rule = rule_class(settings.rule_options.get(code))
            try:
                rule.check(model)
            except Exception as error:
                detail = traceback.format_exc() if self.verbose else f"{type(error).__name__}: {error}"
                errors.append(
                    f"internal error in {code} ({rule_class.name}) on {display}: {detail}\n"
                    "  please report this as a bug, with the file if you can share it"
                )
                continue
            reports += [(rule_class, report) for report in rule.reports]
        noqa = find_noqa(text) if reports or UNUSED_NOQA in enabled else {}
        if not reports and not noqa:
            return [], errors
        diagnostics = self._diagnostics(model, text, display, reports) if reports else []
        return self._suppress(diagnostics, noqa, display, enabled), errors

    def _diagnostics(self, model: ModuleModel, text: str, display: str, reports: list) -> list[Diagnostic]:
        """Diagnostics for the rules' reports: every place they name (a node of this
        module, or a fact of another one) located, notes sorted by place."""
        module = model.module
        flow = model.flow
        local: list[cst.CSTNode] = []
        foreign: dict[int, Related] = {}
        for _, report in reports:
            for target in report.places():
                node = flow.local_node(target) if flow is not None else target
                if node is not None:
                    local.append(node)
                elif id(target) not in foreign:
                    foreign[id(target)] = flow.locate_elsewhere(target)
        spans = {id(node) for _, r in reports for node in (r.node, r.fix.old if r.fix else None) if node is not None}
        positions = Positions(model, text).get(local, spans)

        def where(target) -> tuple[str, int, int]:
            node = flow.local_node(target) if flow is not None else target
            if node is not None:
                start = positions[node].start
                return display, start.line, start.column + 1
            found = foreign[id(target)]
            return found.path, found.line, found.column

        seen = set()
        diagnostics = []
        for rule, report in reports:
            span = positions[report.node]
            fix = None
            if report.fix is not None:
                old = positions[report.fix.old]
                edit = Edit(
                    Position(old.start.line, old.start.column + 1),
                    Position(old.end.line, old.end.column + 1),
                    module.code_for_node(report.fix.new),
                )
                fix = Fix(report.fix.applicability, (edit,), report.fix.description)
            placed = [(where(n.node), n) for n in report.notes]
            placed.sort(key=lambda item: (item[0][0] != display, item[0]))
            related = tuple(Related(path, line, column, n.label) for (path, line, column), n in placed)
            same = (lambda t: id(flow.local_node(t) or t)) if flow is not None else id
            steps = {same(n.node): index for index, (_, n) in reversed(list(enumerate(placed, start=1)))}
            steps[same(report.node)] = 0
            code_flow = tuple(steps[same(node)] for node in report.flow if same(node) in steps)
            suggestion = report.suggestion_text(lambda target: _line_text(where(target), display))
            diagnostic = Diagnostic(
                display, span.start.line, span.start.column + 1, span.end.line, span.end.column + 1,
                rule.code, rule.name, rule.severity, report.message, suggestion, fix, related, code_flow,
            )
            key = (diagnostic.line, diagnostic.column, diagnostic.code)
            if key not in seen:  # one finding per place and rule
                seen.add(key)
                diagnostics.append(diagnostic)
        return diagnostics

    def _suppress(self, diagnostics: list[Diagnostic], noqa: dict, display: str, enabled: frozenset[str]) -> list[Diagnostic]:
        kept = []
        for diagnostic in diagnostics:
            comment = noqa.get(diagnostic.line)
            if comment is not None and comment.covers(diagnostic.code):
                comment.used.add(diagnostic.code)
            else:
                kept.append(diagnostic)
        if UNUSED_NOQA in enabled:
            kept += self._unused(noqa, display)
        return sorted(kept, key=Diagnostic.sort_key)

    def _unused(self, noqa: dict, display: str) -> list[Diagnostic]:
        """``AC001`` for a2alint codes (or ``# a2alint: noqa``) that suppressed nothing."""
        found = []
        for comment in noqa.values():
            if comment.codes is None:
                unused = [] if comment.used or not comment.ours else ["all a2alint codes"]
            else:
                unused = sorted(c for c in comment.codes if c in self.registry and c not in comment.used)
            if unused:
                message = f"unused suppression: {', '.join(unused)}"
                found.append(
                    self._engine_diagnostic(UNUSED_NOQA, display, comment.line, comment.column, message, comment.end_column)
                )
        return found


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off while one file is analysed. The file's syntax tree
    has no cycles (it is freed as soon as the file is done) but is tens of thousands of
    objects that every collection during the analysis would walk again: an eighth of a
    run over many A2A files. What cycles the analysis leaves are collected after it."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _line_text(place: tuple[str, int, int], display: str) -> str:
    """How a suggestion names a line: ``48`` in the same file, ``contracts.py:18`` in another."""
    path, line, _ = place
    return str(line) if path == display else f"{path}:{line}"


def _syntax_error(text: str, error: cst.ParserSyntaxError) -> tuple[int, int, str]:
    """Where the syntax error is, and why. libcst's native parser reports the token after
    the one at fault (often the next line) and its tokenizer errors carry no position, so
    CPython's parser (parsing only, nothing is run) locates it when it rejects the text too.
    When CPython accepts it, the limit is libcst's, and the message says so."""
    line, column, message = error.raw_line, error.raw_column + 1, f"syntax error: {error.message}"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SyntaxWarnings are the interpreter's business, not ours
            compile(text, "<a2alint>", "exec", ast.PyCF_ONLY_AST)
    except SyntaxError as located:
        if located.lineno:
            line, column, message = located.lineno, located.offset or 1, f"syntax error: {located.msg}"
    except (ValueError, RecursionError, MemoryError):
        pass
    else:
        message = f"cannot parse: Python accepts this file but a2alint's parser does not ({error.message}); please report this as a bug"
    return (*_inside(text, line, column), message)


def _inside(text: str, line: int, column: int) -> tuple[int, int]:
    """``line`` and ``column`` moved onto the nearest character of ``text`` (or just after
    the end of its line): parsers report some errors past the end of the file."""
    lines = split_lines(text) or [""]
    line = min(max(line, 1), len(lines))
    content = lines[line - 1].rstrip("\r\n")
    return line, min(max(column, 1), len(content) + 1)


def _undecodable(data: bytes, error: Exception) -> tuple[int, int, str]:
    """Where and why ``data`` cannot be decoded, in words a user can act on."""
    if not isinstance(error, UnicodeDecodeError):  # from the coding line, or bytes in the first two lines
        try:
            data.decode("utf-8")
            return 1, 1, f"cannot decode the file: {getattr(error, 'msg', None) or error}"
        except UnicodeDecodeError as not_utf8:
            error = not_utf8
    line_start = data.rfind(b"\n", 0, error.start) + 1
    line, column = data[: error.start].count(b"\n") + 1, error.start - line_start + 1
    return line, column, (
        f"cannot decode the file as {error.encoding}: byte 0x{data[error.start]:02x} at line {line} "
        f"({error.reason}); save it as UTF-8 or declare its encoding with a coding line "
        "such as '# -*- coding: latin-1 -*-'"
    )


def read_source(path: Path) -> bytes:
    """The bytes of the file at ``path``, but no more than ``MAX_BYTES + 1`` of them:
    enough to tell that a file is too large without reading a huge one into memory."""
    with open(path, "rb") as stream:
        return stream.read(MAX_BYTES + 1)


def read_and_check(
    linter: Linter, display: str, path: Path, settings: Settings, fix: str | None = None, cache=None,
    data: bytes | None = None,
) -> FileResult:
    """Check the file at ``path`` (whose bytes may already be read); an unreadable file is one ``AC000``."""
    try:
        data = read_source(path) if data is None else data
    except OSError as error:
        result = FileResult(display)
        reason = error.strerror or type(error).__name__
        return linter._unparsable(result, linter.enabled(settings, path), 1, 1, f"cannot read the file: {reason}")
    key = None
    if cache is not None and fix is None and (not linter.prefilter or apimodel.may_matter(data, settings)):
        key = cache.key(data, display, settings.fingerprint(linter.enabled(settings, path)))
        cached = cache.get(key)
        if cached is not None:
            return FileResult(display, cached, data=data)
    result = linter.check_bytes(data, display, path, settings, fix)
    if key is not None and not result.errors:
        cache.put(key, result.diagnostics)
    return result


class WorkerDied(Exception):
    """A process of the pool died while checking (out of memory, a crash in native code)."""


#: Fewer files than this are checked in-process: a pool costs more than it saves.
MIN_FILES_PER_POOL = 24
_worker_linter: Linter | None = None


def _start_worker(report_unused_noqa: bool, prefilter: bool, verbose: bool) -> None:
    global _worker_linter
    from a2alint.registry import load_rules

    _worker_linter = Linter(load_rules(), report_unused_noqa=report_unused_noqa, prefilter=prefilter, verbose=verbose)


def _check_in_worker(job: tuple) -> FileResult:
    display, path, settings, fix, cache = job
    assert _worker_linter is not None
    result = read_and_check(_worker_linter, display, path, settings, fix, cache)
    if fix is None:  # the text is only needed to write fixes: do not ship it back
        result.data, result.original = b"", None
    return result


def available_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def check_files(
    linter: Linter,
    files: list[tuple[str, Path, Settings]],
    fix: str | None = None,
    cache=None,
    jobs: int = 0,
) -> list[FileResult]:
    """Check ``files`` (display path, path, settings); results in the same order.

    Files the prefilter rules out are settled here, on their bytes: in a large tree
    that is most of them, and ruling one out costs less than shipping it to a worker.
    The rest go to a process pool when there are enough of them and more than one job;
    a pre-commit run on a few files stays in this process."""
    results: list[FileResult | None] = [None] * len(files)
    pending = []
    for index, (display, path, settings) in enumerate(files):
        try:
            data = read_source(path)
        except OSError:
            data = None
        if data is None or (linter.prefilter and not apimodel.may_matter(data, settings)):
            results[index] = read_and_check(linter, display, path, settings, fix, cache, data)
        else:
            pending.append(index)
    jobs = jobs or available_cpus()
    if jobs == 1 or len(pending) < MIN_FILES_PER_POOL:
        for index in pending:
            results[index] = read_and_check(linter, *files[index], fix, cache)
    else:
        # Imported here: a run that needs no pool (a pre-commit hook's) does not pay for it.
        from concurrent.futures.process import BrokenProcessPool, ProcessPoolExecutor

        options = (linter.report_unused_noqa, linter.prefilter, linter.verbose)
        work = [(*files[index], fix, cache) for index in pending]
        try:
            with ProcessPoolExecutor(max_workers=jobs, initializer=_start_worker, initargs=options) as pool:
                chunk = max(1, len(work) // (jobs * 8))
                for index, result in zip(pending, pool.map(_check_in_worker, work, chunksize=chunk)):
                    results[index] = result
        except BrokenProcessPool as error:
            raise WorkerDied from error
    return results  # type: ignore[return-value]


def lint_source(
    source: str,
    path: str = "example.py",
    *,
    select: tuple[str, ...] | None = None,
    preview: bool | None = None,
    fix: str | None = None,
    settings: Settings | None = None,
    report_unused_noqa: bool = False,
    prefilter: bool = True,
) -> FileResult:
    """Lint ``source`` as if it were the file ``path``: the library entry point for tests and editors."""
    from a2alint.config import Layer, Overrides
    from a2alint.registry import load_rules

    registry = load_rules()
    base = settings or Settings(root=Path.cwd())
    settings = base.with_overrides(Overrides(layer=Layer(select=select), preview=preview))
    linter = Linter(registry, report_unused_noqa=report_unused_noqa, prefilter=prefilter)
    return linter.check_bytes(source.encode("utf-8"), path, Path(path), settings, fix)


def check_text(
    linter: Linter, text: str, display: str, path: Path, settings: Settings, fix: str | None = None
) -> FileResult:
    """Lint ``text`` (an editor's unsaved buffer of ``path``) exactly as :meth:`Linter.check_bytes`
    lints the file: the text is encoded as the file would be saved, in its declared encoding."""
    data = text.encode("utf-8")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        if encoding not in ("utf-8", "utf-8-sig"):
            data = text.encode(encoding)  # a coding cookie: the bytes the editor would write
    except (SyntaxError, LookupError, UnicodeEncodeError):
        pass  # check_bytes reports what the interpreter would refuse
    return linter.check_bytes(data, display, path, settings, fix)
