"""Checking one file: read, prefilter, parse once, build the model, run the rules.

Everything a file can do wrong (unreadable, binary, not UTF-8, too large, a
syntax error, nesting too deep for the parser) becomes one ``AC000``
diagnostic; a rule that crashes becomes an internal error for that rule and
file while the other rules and files go on.
"""

from __future__ import annotations

import ast
import contextlib
import gc
import hashlib
import io
import keyword
import os
import re
import sys
import tempfile
import tokenize
import traceback
import warnings
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterator, TypeVar

import libcst as cst

from a2alint import apimodel, notebooks
from a2alint.config import DEFAULT_MAX_FILE_SIZE, Layer, Overrides, Settings
from a2alint.cache import Scanned, digest
from a2alint.control import ANALYSIS_FRAMES, TooComplex, budget
from a2alint.deadline import OverTime, time_limit
from a2alint.diagnostics import Cell, Diagnostic, Edit, Fix, Position, Related
from a2alint.discovery import unconfigured_root
from a2alint.fixes import Change, EditedText, line_offsets, parsed, rendered, select_fixes, split_lines
from a2alint.model import ModuleModel, build_model
from a2alint.nesting import Nesting, on_caller, with_room
from a2alint.paths import resolved, size_text
from a2alint.positions import Positions
from a2alint.reporters import one_line
from a2alint.reparse import Buffer, Reparser
from a2alint.flow import Flow, LoopPlace
from a2alint.project import REACH, ImportGraph, ModuleIndex, Project, import_statements
from a2alint.values import Analysis
from a2alint.rule import Rule
from a2alint.suppressions import Noqa, find_noqa, skips_file, without_codes

#: Larger files are one AC000: libcst needs 5 to 15 seconds and up to 1 GB of memory per MiB of Python.
#: The most bytes a file read without settings may have (standard input, a note's line).
MAX_BYTES = DEFAULT_MAX_FILE_SIZE
MAX_FIX_PASSES = 10
#: The native parser, as a deep file is first tried with (see Nesting.survives).
PARSE = cst.parse_module
UNPARSABLE = "AC000"
UNUSED_NOQA = "AC001"
TOO_COMPLEX = "AC002"


class _Refused(Exception):
    """A file that cannot be parsed or modelled: its ``AC000`` diagnostics."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        super().__init__()
        self.diagnostics = diagnostics


@dataclass
class FileResult:
    display: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    #: Internal errors (a crashing rule); they make the run exit 2.
    errors: list[str] = field(default_factory=list)
    original: str | None = None
    fixed: str | None = None  # the text after fixes, when they changed it
    changes: list[Change] = field(default_factory=list)  # the fixes, as changes to ``original``
    #: The findings of ``original`` in its project, when fixes changed it: what stands if
    #: the fixed text cannot be written.
    unfixed: list[Diagnostic] = field(default_factory=list)
    encoding: str = "utf-8"
    data: bytes = b""
    #: The findings whose fixes were applied, pass after pass.
    fixes_applied: list[Diagnostic] = field(default_factory=list)
    #: What the user is told on stderr about this file, the exit code unchanged (with
    #: ``--verbose``, also :func:`unread_note`).
    warnings: list[str] = field(default_factory=list)


T = TypeVar("T")


@dataclass
class Prepared:
    """A file read and parsed, waiting for the project to be checked against."""

    result: FileResult
    path: Path
    settings: Settings
    enabled: frozenset[str]
    fix: str | None = None
    text: str | None = None
    nesting: Nesting | None = None
    model: ModuleModel | None = None
    #: An editor's buffer, parsed and modelled from its last version (see :mod:`a2alint.reparse`).
    buffer: Buffer | None = None
    #: The parsed text while it waits to be modelled (see :meth:`Linter.prepare`).
    tree: cst.Module | None = None


class Linter:
    """Lints files and source text under the settings each path resolves to."""

    def __init__(
        self,
        registry: dict[str, type[Rule]],
        *,
        report_unused_noqa: bool = False,
        ignore_noqa: bool = False,
        prefilter: bool = True,
        verbose: bool = False,
    ) -> None:
        self.registry = registry
        self.report_unused_noqa = report_unused_noqa
        #: ``--ignore-noqa``: every finding counts, whatever a noqa comment says.
        self.ignore_noqa = ignore_noqa
        self.prefilter = prefilter
        self.verbose = verbose
        #: id(settings) -> (those settings, their codes): kept with the settings, as a
        #: settings object made later (a config reloaded by the language server) can be
        #: given a freed one's id.
        self._enabled: dict[int, tuple[Settings, frozenset[str]]] = {}

    def enabled(self, settings: Settings, path: Path | None = None) -> frozenset[str]:
        known = self._enabled.get(id(settings))
        if known is None or known[0] is not settings:
            codes = set(settings.enabled_codes(self.registry))
            if self.report_unused_noqa:
                codes.add(UNUSED_NOQA)
            known = self._enabled[id(settings)] = (settings, frozenset(codes))
        codes = known[1]
        if path is not None:
            ignored = settings.ignored_for(path)
            if ignored:
                codes = frozenset(c for c in codes if not any(s == "ALL" or c.startswith(s) for s in ignored))
        return codes

    # -- one file, in two steps: read and parse, then check against the project --
    def prepare(
        self, data: bytes, display: str, path: Path, settings: Settings, fix: str | None = None, matters: bool = False,
        buffer: Buffer | None = None, build: bool = True, prefiltered: bool | None = None,
    ) -> "Prepared":
        """Read ``data`` (the bytes of ``path``) and parse it (from the ``buffer``'s last
        version, when it is an editor's). What it settles (a file that cannot be read,
        decoded or parsed, one the prefilter rules out unless it ``matters`` to the
        project's A2A code) is in the result; otherwise the model is ready to check.
        ``prefiltered``: what the prefilter said of ``data``, when the caller asked it.
        With ``build`` false the tree waits for :meth:`build` to be modelled: a run of
        many files parses them all, then models them all, then checks them, and each
        step keeps its own code and data in the processor's caches (interleaved, the
        same work took 11% longer on the benchmark's project)."""
        result = FileResult(display, data=data)
        enabled = self.enabled(settings, path)
        fix = None if notebooks.is_joined(data) else fix  # not applied to notebooks yet: see check_files
        prepared = Prepared(result, path, settings, enabled, fix, buffer=buffer)
        marked = skips_file(data, None)  # the comment's line; whether it is a comment is told once decoded
        too_large = len(data) > settings.max_file_size
        if marked and (b"\x00" in data or too_large):
            return prepared
        if too_large and self.prefilter and not matters and not apimodel.file_may_matter(path, data, settings):
            return prepared  # a generated table: a2alint has nothing to say about it, so it is not read whole
        if b"\x00" in data:
            self._unparsable(result, enabled, 1, 1, "file contains NUL bytes; is it a binary file?")
            return prepared
        if too_large:
            self._unparsable(
                result, enabled, 1, 1,
                f"file is too large to check (more than {size_text(settings.max_file_size)}, the max-file-size setting); exclude generated files",
            )
            return prepared
        try:
            text, encoding = decoded(data)
        except (SyntaxError, LookupError, UnicodeDecodeError) as error:
            if not marked:
                self._unparsable(result, enabled, *_undecodable(data, error))
            return prepared
        result.encoding, result.original = encoding, text
        if marked and skips_file(data, text):
            return prepared
        if self.prefilter and not matters and not (apimodel.may_matter(data, settings) if prefiltered is None else prefiltered):
            unread = apimodel.method_call_in(data) if self.verbose else None
            if unread is not None:
                result.warnings.append(unread_note(display, *unread))
            if UNUSED_NOQA not in enabled or b"noqa" not in data.lower():
                return prepared
            result.diagnostics = self._suppress([], find_noqa(text), text, display, enabled)  # no finding here: all unused
            if not (fix and any(d.fix for d in result.diagnostics)):
                return prepared
            enabled = prepared.enabled = frozenset({UNUSED_NOQA})  # no rule reports here: parsed to fix its noqa only
        nesting = buffer.nesting(text) if buffer is not None else Nesting.of(text)
        if nesting.refusal:
            self._unparsable(result, enabled, *nesting.refusal)
            return prepared
        if not nesting.survives(PARSE, text):
            self._unparsable(result, enabled, 1, 1, "a2alint's parser crashed on this file (nested too deeply for it); please report this as a bug")
            return prepared
        prepared.text, prepared.nesting = text, nesting
        prepared.tree = nesting.run(self._settled, self._tree_of, prepared, text, display, enabled, buffer)
        return self.build(prepared) if build else prepared

    def build(self, prepared: "Prepared") -> "Prepared":
        """Model the tree :meth:`prepare` parsed (once; then the tree is the model's)."""
        tree, prepared.tree = prepared.tree, None
        if tree is None or prepared.nesting is None:
            return prepared
        model = prepared.model = prepared.nesting.run(
            self._settled, self._model_from, prepared, tree, prepared.result.display, prepared.settings, prepared.enabled, prepared.buffer
        )
        if model is not None and prepared.buffer is None:  # (a buffer's are placed whole: its next version starts from them)
            model.tops = prepared.nesting.tops
        return prepared

    def _settled(self, step: Callable[..., T], prepared: "Prepared", *args) -> T | None:
        """``step(*args)`` (a parse or a model of the prepared text), or None with its
        ``AC000`` or internal error in the result."""
        try:
            with _collector_paused():
                return step(*args)
        except _Refused as refused:  # added to the AC001 of a file parsed only to fix its noqa
            prepared.result.diagnostics += refused.diagnostics
        except Exception as error:  # the engine itself failed on this file: said, never a traceback
            prepared.result.errors.append(self._internal_error(prepared.result.display, error))
        return None

    def _internal_error(self, display: str, error: Exception) -> str:
        detail = traceback.format_exc() if self.verbose else f"{type(error).__name__}: {error}"
        return f"internal error on {display}: {detail}\n  please report this as a bug, with the file if you can share it"

    def model_of(
        self, text: str, display: str, settings: Settings, enabled: frozenset[str],
        buffer: Buffer | None = None,
    ) -> ModuleModel:
        """Parse ``text`` once into its model; a file that cannot be parsed or modelled is
        refused with its ``AC000``."""
        return self._model_from(self._tree_of(text, display, enabled, buffer), display, settings, enabled, buffer)

    def _tree_of(self, text: str, display: str, enabled: frozenset[str], buffer: Buffer | None = None) -> cst.Module:
        """``text`` parsed (from the ``buffer``'s last version, when it is an editor's), or
        refused with its ``AC000``."""
        try:
            module = buffer.parse(text) if buffer is not None else cst.parse_module(text)
        except cst.ParserSyntaxError as error:
            line, column, message = _syntax_error(text, error)
            raise _Refused(self._unparsable(FileResult(display), enabled, line, column, message).diagnostics) from None
        except RecursionError:
            raise _Refused(self._unparsable(FileResult(display), enabled, 1, 1, "nested too deeply to parse").diagnostics) from None
        except Exception as error:  # the native parser's other refusals (its nodes' validation...)
            line, column, message = 1, 1, f"cannot parse: {error}"
            try:  # a file Python refuses too is a syntax error; one Python reads is libcst's limit
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    compile(text, "<a2alint>", "exec", ast.PyCF_ONLY_AST)
            except SyntaxError as located:
                if located.lineno:
                    line, column = _inside(text, located.lineno, located.offset or 1)
                    message = f"syntax error: {located.msg}"
            except (ValueError, RecursionError, MemoryError):
                pass
            else:
                message = f"cannot parse: Python accepts this file but a2alint's parser does not ({error}); please report this as a bug"
            raise _Refused(self._unparsable(FileResult(display), enabled, line, column, message).diagnostics) from None
        return module

    def _model_from(
        self, module: cst.Module, display: str, settings: Settings, enabled: frozenset[str], buffer: Buffer | None = None
    ) -> ModuleModel:
        """The model of a parsed ``module``, or a refusal with its ``AC000``."""
        try:
            model = buffer.build(module, display) if buffer is not None else build_model(module, display)
            apimodel.annotate(model, settings.api)
        except RecursionError:
            raise _Refused(self._unparsable(FileResult(display), enabled, 1, 1, "nested too deeply to analyse").diagnostics) from None
        return model

    def finish(self, prepared: "Prepared", analysis: Analysis) -> FileResult:
        """Check the prepared model against the project ``analysis`` sees (and fix it)."""
        if prepared.model is None or prepared.nesting is None:
            return prepared.result
        return with_room(max(ANALYSIS_FRAMES, prepared.nesting.frames), self._finish, prepared, analysis)

    def _finish(self, prepared: "Prepared", analysis: Analysis) -> FileResult:
        """A failure of the engine itself, outside any rule, is an internal error for this
        file (or, from recursion, an ``AC000``), never a traceback."""
        result, settings, enabled = prepared.result, prepared.settings, prepared.enabled
        try:
            with _collector_paused():
                result.diagnostics, result.errors = self.check_model(
                    prepared.model, prepared.text or "", result.display, settings, enabled, analysis
                )
                if prepared.fix and any(d.fix for d in result.diagnostics):
                    self._fix(result, prepared.path, settings, enabled, prepared.fix == "unsafe", analysis)
                unread = analysis.unread_by_name(prepared.model) if self.verbose else None
                if unread is not None:
                    start = Positions.of(prepared.model, prepared.text or "").get([unread.node])[unread.node].start
                    result.warnings.append(unread_note(result.display, start.line, start.column + 1, unread.method))
        except Exception as error:
            result.fixed, result.fixes_applied = None, []  # all of the fixes or none of them
            if isinstance(error, RecursionError):
                result.diagnostics, result.errors = [], []
                return self._unparsable(result, enabled, 1, 1, "nested too deeply to analyse")
            result.errors.append(self._internal_error(result.display, error))
        return result

    def check_bytes(
        self, data: bytes, display: str, path: Path, settings: Settings, fix: str | None = None,
        prefiltered: bool | None = None,
    ) -> FileResult:
        """Lint ``data`` (the bytes of ``path``) on its own, as a project of one module;
        ``fix`` is ``None``, ``"safe"`` or ``"unsafe"``; ``prefiltered``: see :meth:`prepare`."""
        prepared = self.prepare(data, display, path, settings, fix, prefiltered=prefiltered)
        if prepared.model is None:
            return prepared.result
        return self.finish(prepared, Analysis(Project.of(prepared.model, path), settings.api))

    def _unparsable(self, result: FileResult, enabled: frozenset[str], line: int, column: int, message: str) -> FileResult:
        if UNPARSABLE in enabled:
            result.diagnostics.append(self._engine_diagnostic(UNPARSABLE, result.display, line, column, message))
        return result

    def _engine_diagnostic(
        self, code: str, display: str, line: int, column: int, message: str, end: int | None = None, fix: Fix | None = None
    ) -> Diagnostic:
        rule = self.registry[code]
        return Diagnostic(
            display, line, column, line, end or column, code, rule.name, rule.severity, message,
            suggestion=getattr(rule, "suggestion", None), fix=fix,
        )

    def _fix(self, result: FileResult, path: Path, settings: Settings, enabled: frozenset[str], unsafe: bool, analysis: Analysis) -> None:
        edited = EditedText(result.original or "")
        diagnostics = result.diagnostics
        for _ in range(MAX_FIX_PASSES):
            chosen = select_fixes(diagnostics, unsafe)
            if not chosen:
                break
            candidate = edited.edited([edit for d in chosen for edit in d.fix.edits])  # type: ignore[union-attr]
            tree = parsed(candidate.text) if candidate.text != edited.text else None
            if tree is None:
                break
            edited = candidate
            result.fixes_applied += chosen
            diagnostics, result.errors = self.lint_text(edited.text, result.display, settings, enabled, analysis, path, tree)
        if edited.text != result.original:
            result.fixed, result.changes = edited.text, edited.changes
            result.unfixed, result.diagnostics = result.diagnostics, diagnostics

    # -- source text --
    def lint_text(
        self, text: str, display: str, settings: Settings, enabled: frozenset[str],
        analysis: Analysis | None = None, path: Path | None = None, tree: cst.Module | None = None,
    ) -> tuple[list[Diagnostic], list[str]]:
        """Diagnostics for ``text`` (parsed already: ``tree``) after suppressions, and internal
        errors: as the module at ``path`` of the project ``analysis`` sees (with this text in
        place of its own), or alone."""
        try:
            if tree is None:
                model = self.model_of(text, display, settings, enabled)
            else:
                model = self._model_from(tree, display, settings, enabled)
        except _Refused as refused:
            return refused.diagnostics, []
        path = path or Path(display)
        fresh = analysis.replaced(model, path) if analysis is not None else Analysis(Project.of(model, path), settings.api)
        try:
            return self.check_model(model, text, display, settings, enabled, fresh)
        finally:  # its answers are this text's only: freed now, not kept by a run without the collector
            fresh.release()

    def check_model(
        self, model: ModuleModel, text: str, display: str, settings: Settings, enabled: frozenset[str], analysis: Analysis
    ) -> tuple[list[Diagnostic], list[str]]:
        """Run the enabled rules on ``model`` with the project's flow analysis."""
        model.flow = Flow(model, analysis)
        reports = []
        errors = []
        diagnostics = []
        try:
            with budget():
                for code in sorted(enabled):
                    rule_class = self.registry[code]
                    if rule_class.engine or (rule_class.requires_a2a and not (model.is_a2a or model.in_project)):
                        continue
                    rule = rule_class(settings.rule_options.get(code))
                    try:
                        if rule_class.__module__.startswith(BUILT_IN_RULES):
                            rule.check(model)
                        else:
                            _check_contained(rule, model)
                    except TooComplex:
                        raise
                    except RecursionError:  # questions nested past the interpreter's limit
                        raise TooComplex(None, deep=True) from None
                    except (Exception, SystemExit, OverTime) as error:  # a plug-in's sys.exit() too: never a silent pass
                        if isinstance(error, OverTime):
                            detail = f"its check() ran past the time limit of {PLUGIN_CHECK_SECONDS:g} s a plug-in rule has per file, and was stopped"
                        else:
                            detail = traceback.format_exc() if self.verbose else f"{type(error).__name__}: {error}"
                        errors.append(
                            f"internal error in {code} ({rule_class.name}) on {display}: {detail}\n"
                            "  please report this as a bug, with the file if you can share it"
                        )
                        continue
                    reports += [(rule_class, report) for report in rule.reports]
        except TooComplex as spent:  # no finding of a half-analysed file is trusted
            reports = []
            analysis.forget()
            if TOO_COMPLEX in enabled:
                diagnostics.append(self._too_complex(model, text, display, spent))
        noqa = find_noqa(text) if reports or diagnostics or UNUSED_NOQA in enabled else {}
        if not reports and not diagnostics and not noqa:
            return [], errors
        if reports:
            diagnostics = self._diagnostics(model, text, display, reports)
        return self._suppress(diagnostics, noqa, text, display, enabled), errors

    def _too_complex(self, model: ModuleModel, text: str, display: str, spent: TooComplex) -> Diagnostic:
        """``AC002`` for a file whose analysis spent its budget: at the function of this
        module it was in, else on the first line."""
        scope = spent.scope
        line, column, where = 1, 1, ""
        if scope is not None and scope.is_function:
            if any(s is scope for s in model.scopes):
                start = Positions.of(model, text).get([scope.node])[scope.node].start
                line, column = start.line, start.column + 1
            where = f" (in {scope.qualname}())"
        if spent.deep:
            message = "too complex to analyse: its questions through the project nest deeper than Python allows; no finding of this file is reported"
        else:
            message = f"too complex to analyse within a2alint's budget{where}: no finding of this file is reported"
        return self._engine_diagnostic(TOO_COMPLEX, display, line, column, message)

    def _diagnostics(self, model: ModuleModel, text: str, display: str, reports: list) -> list[Diagnostic]:
        """Diagnostics for the rules' reports: every place they name (a node of this
        module, or a fact of another one) located, notes sorted by place."""
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
        fixed = [node for _, r in reports if r.fix is not None for node in (r.fix.old, *(i.node for i in r.fix.inserts))]
        spans = {id(node) for node in (*(r.node for _, r in reports), *fixed)}
        positions = Positions.of(model, text).get([*local, *fixed], spans)
        cells = notebooks.Cells(text.encode("utf-8", "surrogatepass")) if notebooks.is_notebook(display) else None

        def where(target) -> tuple[str, int, int, Cell | None]:
            node = flow.local_node(target) if flow is not None else target
            if node is not None:
                start = positions[node].start
                return display, start.line, start.column + 1, cells.at(start.line) if cells is not None else None
            found = foreign[id(target)]
            return found.path, found.line, found.column, found.cell

        seen = set()
        diagnostics = []
        for rule, report in reports:
            span = positions[report.node]
            fix = None
            code = rendered(model, report.fix.old, report.fix.new) if report.fix is not None else None
            if code is not None:  # (None: the fix cannot be written without moving lines)
                old = positions[report.fix.old]
                edits = [Edit(Position(old.start.line, old.start.column + 1), Position(old.end.line, old.end.column + 1), code)]
                newline = model.module.default_newline
                for insert in report.fix.inserts:
                    inserted = insert.text.replace("\n", newline)
                    if insert.whole_line:
                        point = Position(positions[insert.node].end.line + 1, 1)
                        if point.line >= len(line_offsets(text)) and not text.endswith(("\n", "\r")):
                            inserted = newline + inserted  # (the node's line is the last, with no line end)
                    else:
                        near = positions[insert.node].end if insert.after else positions[insert.node].start
                        point = Position(near.line, near.column + 1)
                    edits.append(Edit(point, point, inserted))
                fix = Fix(report.fix.applicability, tuple(sorted(edits, key=lambda e: (e.start, e.end))), report.fix.description)
            placed = [(where(n.node), n) for n in report.notes]
            placed.sort(key=lambda item: (item[0][0] != display, item[0][:3]))
            related = tuple(Related(path, line, column, n.label) for (path, line, column, _), n in placed)
            same = (lambda t: id(flow.local_node(t) or t)) if flow is not None else id
            steps = {same(n.node): index for index, (_, n) in reversed(list(enumerate(placed, start=1)))}
            steps[same(report.node)] = 0
            code_flow = tuple(steps[same(node)] for node in report.flow if same(node) in steps)
            suggestion = report.suggestion_text(lambda target: _line_text(where(target), display))
            message = report.message
            if not rule.__module__.startswith(BUILT_IN_RULES):  # a plug-in's words: shown, one line each
                message, suggestion = one_line(message), suggestion and one_line(suggestion)
                related = tuple(replace(r, label=one_line(r.label)) for r in related)
            diagnostic = Diagnostic(
                display, span.start.line, span.start.column + 1, span.end.line, span.end.column + 1,
                rule.code, rule.name, rule.severity, message, suggestion, fix, related, code_flow,
            )
            key = (diagnostic.line, diagnostic.column, diagnostic.code)
            if key not in seen:  # one finding per place and rule
                seen.add(key)
                diagnostics.append(diagnostic)
        return diagnostics

    def _suppress(
        self, diagnostics: list[Diagnostic], noqa: dict[int, Noqa], text: str, display: str, enabled: frozenset[str]
    ) -> list[Diagnostic]:
        """The diagnostics no noqa covers. A noqa of the whole file is asked first, as in ruff:
        a line's own noqa for a code the file's covers is then unused."""
        if self.ignore_noqa:  # no comment suppresses anything, so none is unused either
            return sorted(diagnostics, key=Diagnostic.sort_key)
        whole_file = [comment for comment in noqa.values() if comment.whole_file]
        kept = []
        for diagnostic in diagnostics:
            covering = [c for c in (*whole_file, noqa.get(diagnostic.line)) if c is not None and c.covers(diagnostic.code)]
            if covering:
                covering[0].used.add(diagnostic.code)
            else:
                kept.append(diagnostic)
        if UNUSED_NOQA in enabled:
            kept += self._unused(noqa, text, display)
        return sorted(kept, key=Diagnostic.sort_key)

    def _unused(self, noqa: dict[int, Noqa], text: str, display: str) -> list[Diagnostic]:
        """``AC001`` for a2alint codes (or ``# a2alint: noqa``) that suppressed nothing, with
        the fix that takes them out of the comment (RUF100's, in ruff)."""
        found = []
        lines = split_lines(text)
        for comment in noqa.values():
            if comment.codes is None:
                unused = [] if comment.used or not comment.ours else ["all a2alint codes"]
            else:
                unused = sorted(c for c in comment.codes if c in self.registry and c not in comment.used)
            if not unused:
                continue
            message = f"unused suppression{' for the whole file' if comment.whole_file else ''}: {', '.join(unused)}"
            fix = None
            if comment.tokenized:  # a "#" the tokenizer did not find may be in a string: left alone
                edit = without_codes(lines[comment.line - 1], comment, frozenset(unused))
                fix = Fix("safe", (edit,), "remove the unused suppression")
            found.append(
                self._engine_diagnostic(UNUSED_NOQA, display, comment.line, comment.column, message, comment.end_column, fix)
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


def _line_text(place: tuple[str, int, int, Cell | None], display: str) -> str:
    """How a suggestion names a line: ``48`` in the same file, ``contracts.py:18`` in
    another (``cell 3:2``, ``nb.ipynb:cell 3:2`` in a notebook)."""
    path, line, _, cell = place
    shown = cell.shown(line) if cell else str(line)
    return shown if path == display else f"{path}:{shown}"


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


def decoded(data: bytes) -> tuple[str, str]:
    """The text of a file's bytes as Python reads them, and their encoding; SyntaxError,
    LookupError or UnicodeDecodeError when Python would refuse them."""
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    return data.decode(encoding), encoding


def read_source(path: Path, limit: int = MAX_BYTES) -> bytes:
    """The bytes of the file at ``path``, but no more than ``limit + 1`` of them: enough
    to tell that a file is too large without reading a huge one into memory. A notebook's
    are its code cells joined (:func:`a2alint.notebooks.source_of`)."""
    with open(path, "rb") as stream:
        return notebooks.source_of(path, stream.read(notebooks.read_limit(path, limit) + 1), limit)


def unread_note(display: str, line: int, column: int, method: str) -> str:
    """``--verbose``'s note on a module whose A2A calls the name fallback does not read."""
    return (
        f"note: {display}:{line}:{column}: .{method}() is not read as an A2A call: the module imports no A2A package "
        "and the receiver's type is out of sight; declare its API in [tool.a2alint.api] (README: What a2alint cannot see)"
    )


def read_and_check(
    linter: Linter, display: str, path: Path, settings: Settings, fix: str | None = None, cache=None,
    data: bytes | None = None, prefiltered: bool | None = None,
) -> FileResult:
    """Check the file at ``path`` on its own (whose bytes may already be read, and told
    by the prefilter: ``prefiltered``); an unreadable file is one ``AC000``."""
    try:
        data = read_source(path, settings.max_file_size) if data is None else data
    except OSError as error:
        return _unreadable(linter, display, path, settings, error)
    if linter.prefilter and prefiltered is None:
        prefiltered = apimodel.may_matter(data, settings)
    key = None
    if cache is not None and fix is None and (not linter.prefilter or prefiltered):
        key = cache.key(digest(data), display, settings.fingerprint(linter.enabled(settings, path)))
        cached = cache.get(key)
        if cached is not None:
            return FileResult(display, cached, data=data)
    result = linter.check_bytes(data, display, path, settings, fix, prefiltered)
    if key is not None and not result.errors:
        cache.put(key, result.diagnostics)
    return result


def _unreadable(linter: Linter, display: str, path: Path, settings: Settings, error: OSError) -> FileResult:
    enabled = linter.enabled(settings, path)
    if isinstance(error, notebooks.NotebookError):
        return linter._unparsable(FileResult(display), enabled, error.line, error.column, str(error.strerror))
    reason = error.strerror or type(error).__name__
    return linter._unparsable(FileResult(display), enabled, 1, 1, f"cannot read the file: {reason}")


class WorkerDied(Exception):
    """A process of the pool died while checking (out of memory, a crash in native code):
    what it was checking is checked again, file by file."""


#: The modules of a2alint's own rules (a rule from elsewhere is a plug-in's).
BUILT_IN_RULES = "a2alint.rules."
#: How long a plug-in rule's ``check()`` of one file may run: past it, it is stopped and
#: is an internal error of that rule on that file (see :mod:`a2alint.deadline` for what
#: can be stopped).
PLUGIN_CHECK_SECONDS = 10.0


#: In a process forked to check files apart (:func:`_check_apart`): where it writes the
#: code of the plug-in rule it is in, read by its parent when it dies there; and the
#: plug-in rules it leaves out.
_in_plugin = None
_not_run: frozenset[str] = frozenset()
_MARKER_BYTES = 8


def _check_contained(rule: Rule, model: ModuleModel) -> None:
    """A plug-in rule's check: its print() kept off stdout (it would corrupt a report),
    within :data:`PLUGIN_CHECK_SECONDS`."""
    if rule.code in _not_run:
        return
    if _in_plugin is not None:
        _in_plugin[:] = rule.code.encode().ljust(_MARKER_BYTES, b"\0")
    try:
        on_caller(_check_in_time, rule, model)  # (a SIGALRM reaches the main thread only)
    finally:
        if _in_plugin is not None:
            _in_plugin[:] = bytes(_MARKER_BYTES)


def _check_in_time(rule: Rule, model: ModuleModel) -> None:
    with contextlib.redirect_stdout(sys.stderr), time_limit(PLUGIN_CHECK_SECONDS):
        rule.check(model)


#: Fewer files than this are checked in-process: a pool costs more than it saves.
MIN_FILES_PER_POOL = 24
#: Modules parsed (then modelled) in one go before they are checked: enough for each step
#: to keep its code in the processor's caches, few enough that a run holds the trees of
#: this many modules, not of the whole project (see :meth:`ProjectRun.checked`).
PREPARED_AT_ONCE = 64
#: ``--jobs`` beyond this many processes per CPU only adds processes that wait for one.
MOST_JOBS_PER_CPU = 2


def available_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


#: How far from A2A code (in imports, either way) a module is read at all.
READ_HOPS = REACH
#: ``def name`` / ``class Name`` in a file's bytes, and ``NAME = ...`` / ``NAME: T = ...`` at
#: its top level: what another module can import from it (a function, a class, a constant,
#: a cache, a logger).
_DEFINED = re.compile(
    rb"(?:^|(?<=\r))(?:[ \t]*(?:async[ \t]+)?(?:def|class)[ \t]+(\w+)|(\w+)[ \t]*(?::[^=\r\n]*)?=(?!=))", re.MULTILINE
)
_HASHES = re.compile(rb"\bhashlib\b|\bhmac\b|\bhash\(")
#: The API's method names, as words of a file (see :meth:`ProjectRun.checks`).
_API_METHODS = frozenset(method.encode() for method in apimodel.METHOD_ROLES)
_WORD = re.compile(rb"\w+")


class Scans:
    """What each file's bytes tell before any parse (whether it may matter, what it
    imports, the names it defines and mentions, its digest), kept for whoever runs
    again (the language server): a file whose bytes are the same object as last time is
    not scanned again."""

    def __init__(self) -> None:
        self._found: dict[tuple, tuple[bytes, object]] = {}
        self._indexes: dict[tuple, ModuleIndex] = {}

    def of(self, kind: object, path: Path, data: bytes, compute: Callable[[bytes], object]):
        known = self._found.get((kind, path))
        if known is not None and known[0] is data:
            return known[1]
        value = compute(data)
        self._found[(kind, path)] = (data, value)
        return value

    def index(self, entries: dict[Path, tuple[str, Path, Settings]]) -> ModuleIndex:
        """The module index of these files (by real path), rooted at their project root with
        the ``src`` roots their settings declare (the same object while these are the same)."""
        root = _project_root(entries)
        declared = sorted({folder for _, _, settings in entries.values() for folder in settings.src})
        key = (root, frozenset(entries), tuple(declared))
        found = self._indexes.get(key)
        if found is None:
            self._indexes = {key: ModuleIndex(root, key[1], apimodel.MODELLED_PACKAGES, declared)}  # only the latest is asked again
            found = self._indexes[key]
        return found


class ProjectRun:
    """One run over a project: the files to report on and the rest of the project, read
    once; the A2A code among them (what the prefilter keeps, and what imports it or is
    imported by it) parsed once and checked against all of it.

    Files that cannot matter are settled on their bytes. A module that is not reported on
    is read only when a question reaches it: from the cache, else parsed; with the cache,
    one whose stamp is the one the last run recorded is not even read for its digest,
    prefilter and imports (:class:`~a2alint.cache.Stamps`)."""

    def __init__(
        self, linter: Linter, files: list[tuple[str, Path, Settings]], context=(), fix: str | None = None, cache=None,
        read: Callable[[Path], bytes] | None = None, scans: Scans | None = None, transient: frozenset[Path] = frozenset(),
        reparser: Reparser | None = None,
    ) -> None:
        """``read``: the bytes of a file (an editor's buffer in place of a file it has open);
        ``scans``: what an earlier run learnt from the files' bytes; ``transient``: files
        whose facts are not worth caching (a buffer being typed in), parsed by ``reparser``
        when one is given (from their last version)."""
        self.linter, self.files, self.fix, self.cache = linter, files, fix, cache
        self.transient, self.reparser = transient, reparser
        self.scans = scans = scans or Scans()
        self.entries: dict[Path, tuple[str, Path, Settings]] = {}
        for item in (*files, *context):
            self.entries.setdefault(resolved(item[1]), item)
        self.data: dict[Path, bytes | None] = {}
        self.errors: dict[Path, OSError] = {}
        self._read = read
        #: What each file's bytes told, kept by stamp for the next run (none for an
        #: editor's buffers, which have no stamp); a file the stamps vouch for is read
        #: only when its bytes are needed.
        self.stamps = cache.stamps() if cache is not None and read is None else None
        self._scanned_files: dict[Path, Scanned] = {}
        #: The files reported on.
        self.reported = reported = {resolved(item[1]) for item in files}
        for real, (_, path, settings) in self.entries.items():
            vouched = self.stamps.vouched(real, settings.max_file_size) if self.stamps is not None and real not in reported else None
            if vouched is not None:
                self._scanned_files[real] = vouched
            else:
                self._read_file(real)
        seeds = [p for p, (_, _, settings) in self.entries.items() if self._may_matter(p, settings)]
        self.index: ModuleIndex | None = None
        self.graph = ImportGraph()
        self.component: set[Path] = set()
        self.seeds = frozenset(seeds)
        self._checks: dict[Path, bool] = {}
        self._defined: frozenset[bytes] | None = None
        if seeds:
            self.index = index = scans.index(self.entries)
            self.graph = ImportGraph.scan(index, lambda p, entry: index.imports_of(self._told(p, "statements", import_statements), entry))
            #: What a question may read beyond the A2A code (see :meth:`checks`): a module
            #: farther than this from it (a framework's own internals) is opaque, never
            #: parsed for a summary.
            self.component = self.graph.around(seeds, READ_HOPS)
        depends = hashlib.sha256()
        for path in sorted(self.component, key=str):
            depends.update(str(path).encode("utf-8", "surrogateescape") + b"\0" + self._told(path, "digest", digest))
        self.depends = depends.hexdigest()
        if self.stamps is not None:
            self.stamps.save(self._scanned_files)
        self.project = Project(self.index, self.graph, self._load)
        self.project.locator = self._locate
        self.project.mentions = self._mentions
        self.prepared: dict[Path, Prepared] = {}
        self._joined: set[Path] = set()
        self._texts: dict[Path, str] = {}
        self._live: dict[Path, ModuleModel | None] = {}
        self._located: dict[Path, ModuleModel | None] = {}
        self._analyses: dict[tuple, Analysis] = {}
        #: The facts other processes of a pool parsed, unpickled only when a question reaches them.
        self.shipped: dict[Path, bytes] = {}

    # -- the files' bytes --
    def source(self, path: Path) -> bytes | None:
        """The bytes of a file of the project (None when it cannot be read), read now if the
        stamps vouched for it so far."""
        if path not in self.data and path in self.entries:
            self._read_file(path)
        return self.data.get(path)

    def _read_file(self, real: Path) -> None:
        _, path, settings = self.entries[real]
        if self.stamps is not None:
            known = self._scanned_files.get(real)
            self._scanned_files[real] = self.stamps.stamped(real) if known is None or known.stamp is None else known
        try:
            if self._read is None:
                self.data[real] = read_source(path, settings.max_file_size)
            else:
                self.data[real] = notebooks.source_of(path, self._read(path), settings.max_file_size, buffer=True)
        except OSError as error:
            self.data[real], self.errors[real] = None, error
            self._scanned_files.pop(real, None)

    def _may_matter(self, path: Path, settings: Settings) -> bool:
        """Whether the file can yield a finding (the prefilter), from its record when it has one."""
        record = self._scanned_files.get(path)
        if not self.linter.prefilter:  # every file that can be read (a record is of one that was)
            return record is not None or self.source(path) is not None
        api = apimodel.api_key(settings)
        if record is not None and api in record.matters:
            return record.matters[api]
        data = self.source(path)
        if data is None:
            return False
        answer = self.scans.of(("matters", api), path, data, lambda d: apimodel.may_matter(d, settings))
        if record is not None:
            record.matters[api] = answer
        return answer

    def _told(self, path: Path, field: str, scan: Callable[[bytes], object]):
        """What the file's bytes tell (``field`` of its record): from its record when that
        has it, else scanned (and recorded)."""
        record = self._scanned_files.get(path)
        found = getattr(record, field, None)
        if found is None:
            found = self.scans.of(field, path, self.source(path) or b"", scan)
            if record is not None:
                setattr(record, field, found)
        return found

    def add_dependents(self) -> None:
        """Report on the modules of the project's A2A code whose findings can rest on the
        files reported on: those that import one of them, or that one of them imports,
        within a question's reach (:data:`REACH`). An edit can make or mend a finding in a
        caller (a helper that now fetches a card) or in a helper (a caller that now hands
        it a card); mypy likewise reports the errors an edit makes in other modules."""
        near = set().union(*(self.graph.users(path) | self.graph.used(path) for path in self.reported)) - self.reported
        self.files = self.files + [self.entries[path] for path in sorted(near, key=str) if self.checks(path)]
        self.reported = {resolved(item[1]) for item in self.files}

    def checks(self, path: Path) -> bool:
        """Whether ``path`` is checked as part of the project's A2A code: an A2A module, or
        a module next to one whose text can take part: an importer that names a function
        or class the A2A modules define (a wrapper's caller), a module they import that
        hashes (a contract helper), calls the API by a method's name on what it is handed
        (``resolver.get_agent_card()`` in a helper that imports nothing of A2A), or names one. Asked per file, so that a run that reports
        on a few A2A files (pre-commit) scans no other file's words."""
        found = self._checks.get(path)
        if found is None:
            found = self._checks[path] = path in self.seeds or self._next_to_seeds(path)
        return found

    def _next_to_seeds(self, path: Path) -> bool:
        # a module passes on what it imports: a package's __init__ (``from relaykit import
        # open_peer``), a facade, the module a helper was moved out of and imported back into;
        # so a module uses what the modules it imports import (used), and a seed that imports
        # such a module uses what the module imports (users)
        imports_seed = not self.seeds.isdisjoint(self.graph.used(path))
        imported_by_seed = not self.seeds.isdisjoint(self.graph.users(path))
        if not (imports_seed or imported_by_seed):
            return False
        if imported_by_seed and (self._scanned("hashes", path) or not _API_METHODS.isdisjoint(self._scanned("words", path))):
            return True
        if self._defined is None:
            self._defined = frozenset().union(*(self._scanned("defined", seed) for seed in self.seeds))
        return not self._defined.isdisjoint(self._scanned("words", path))

    _SCANNERS: dict[str, Callable[[bytes], object]] = {
        "defined": lambda d: frozenset(
            n for pair in _DEFINED.findall(d) for n in pair if n and not n.startswith(b"__") and not keyword.iskeyword(n.decode())
        ),
        "words": lambda d: frozenset(_WORD.findall(d)),
        "hashes": lambda d: _HASHES.search(d) is not None,
    }

    def _scanned(self, kind: str, path: Path):
        return self.scans.of(kind, path, self.source(path) or b"", self._SCANNERS[kind])

    # -- the files --
    def _key(self, path: Path) -> str | None:
        if self.cache is None or path not in self.entries:
            return None
        if path not in self._scanned_files and self.source(path) is None:  # (a record is of a file that was read)
            return None
        display, _, settings = self.entries[path]
        return self.cache.key(self._told(path, "digest", digest), display, settings.fingerprint(self.linter.enabled(settings, path)))

    def prepare(self, path: Path) -> Prepared:
        """Read, parse and model one module of the project's A2A code; it joins the project."""
        found = self.prepare_all([path])[0]
        self.join(path)
        return found

    def prepare_all(self, paths: list[Path]) -> list[Prepared]:
        """Read and parse the modules of ``paths`` not prepared yet, then model them (in
        two steps: see :meth:`Linter.prepare`). They join the project one by one, as a run
        file by file had them join (:meth:`join`): the analysis looks for a function's
        callers among the modules loaded so far."""
        parsed = []
        for path in paths:
            if path not in self.prepared:
                display, real, settings = self.entries[path]
                buffer = Buffer(self.reparser, path) if self.reparser is not None and path in self.transient else None
                self.prepared[path] = self.linter.prepare(
                    self.source(path) or b"", display, real, settings, self.fix, matters=True, buffer=buffer, build=False
                )
                parsed.append(path)
        for path in parsed:
            found = self.linter.build(self.prepared[path])
            if found.model is not None:
                found.model.in_project = not found.model.is_a2a
                self._texts[path] = found.text or ""
                self._live[path] = found.model
                key = self._key(path) if path not in self.transient else None
                if key is not None:
                    self.cache.put_facts(key, found.model)
        return [self.prepared[path] for path in paths]

    def join(self, path: Path) -> None:
        """The prepared module at ``path`` joins the project: questions see it from now on."""
        if path not in self._joined:
            self._joined.add(path)
            model = self.prepared[path].model
            if model is not None:
                self.project.add(model, path)

    def _load(self, path: Path) -> ModuleModel | None:
        """A module a question reaches: its facts from another process of the pool or the
        cache, else parsed."""
        if path not in self.entries or path not in self.component:
            return None
        if path in self.prepared:
            self._joined.add(path)  # (the project adds what this returns)
            return self.prepared[path].model
        model = self._facts(path)
        if model is None:
            model = self.prepare(path).model
            if not (path in self.reported and self.checks(path)) and path not in self.transient:
                self._keep_facts(path)  # not checked against the project: what is asked of it are its facts
            return model
        model.in_project = not model.is_a2a
        return model

    def _facts(self, path: Path) -> ModuleModel | None:
        """The facts of ``path`` had without parsing it: shipped by a pool process, or cached."""
        payload = self.shipped.pop(path, None)
        if payload is not None:
            import pickle

            return pickle.loads(payload)
        key = self._key(path)
        return self.cache.get_facts(key) if key is not None else None

    def analysis(self, settings: Settings) -> Analysis:
        """The project's one value analysis (one per declared API, which it depends on)."""
        key = tuple(sorted((role, tuple(names)) for role, names in settings.api.items()))
        found = self._analyses.get(key)
        if found is None:
            found = self._analyses[key] = Analysis(self.project, settings.api)
        return found

    def release(self) -> None:
        """The run is over: break the cycles of what it alone holds (its analyses, the
        models it parsed, its project's links back to it), so that a process without the
        cyclic collector (the language server, once per keystroke) frees them at once. The
        facts it read from the cache stay as they are, for the next run."""
        for analysis in self._analyses.values():
            analysis.release()
        for prepared in self.prepared.values():
            if prepared.model is not None:
                prepared.model.release()
        self._release_located()
        self._analyses, self._live, self.prepared, self._joined = {}, {}, {}, set()
        self.project.release()

    def checked(self, path: Path) -> None:
        """The check of the module at ``path`` is over: it keeps its facts only (its tree,
        flow and positions go), as one read from the cache or another process does, so that
        a run holds the trees of the modules it is checking, not of every module it
        checked. Notes that point into it later parse it again (:meth:`_locate`)."""
        self._keep_facts(path)
        self._release_located()

    def _keep_facts(self, path: Path) -> None:
        model = self._live.pop(path, None)
        self._texts.pop(path, None)
        if model is not None:
            model.keep_facts()

    def _release_located(self) -> None:
        for path, located in self._located.items():
            if path not in self._live:
                self._texts.pop(path, None)
            if located is not None:
                located.release()
        self._located = {}

    def _mentions(self, path: Path, name: str) -> bool:
        return path in self.entries and name.encode() in self._scanned("words", path)

    # -- places in other modules --
    def _locate(self, model: ModuleModel, fact) -> Related:
        """Where a fact of another module is, for a note: that module parsed if it is not."""
        entry = self.project.entry(model)
        path = entry.path if entry is not None else Path(model.path)
        display = self.entries.get(path, (model.path,))[0]
        live = self._live.get(path)
        if live is None and path not in self._live:
            live = self._parsed_to_locate(path, display)
        node = _same_fact(model, live, fact) if live is not None else None
        if node is None:
            return Related(display, 1, 1, "")
        text = self._texts[path]
        start = Positions.of(live, text).get([node])[node].start
        cells = notebooks.Cells(text.encode("utf-8", "surrogatepass")) if notebooks.is_notebook(path) else None
        return Related(display, start.line, start.column + 1, "", cells.at(start.line) if cells is not None else None)

    def _parsed_to_locate(self, path: Path, display: str) -> ModuleModel | None:
        """The module at ``path`` parsed for the notes that point into it: kept while the
        module whose notes they are is checked (see :meth:`checked`), else for the run."""
        if path not in self._located:
            prepared = self.linter.prepare(self.source(path) or b"", display, path, self.entries[path][2], matters=True) if path in self.entries else None
            self._located[path] = prepared.model if prepared is not None else None
            if prepared is not None and prepared.text is not None:
                self._texts[path] = prepared.text
        return self._located[path]

    # -- checking --
    def settled(self, index: int) -> FileResult | None:
        """The result of ``files[index]`` without parsing it, where that can be had."""
        display, path, settings = self.files[index]
        real = resolved(path)
        if real in self.errors:
            return _unreadable(self.linter, display, path, settings, self.errors[real])
        if not self.checks(real):
            data = self.source(real)
            prefiltered = self._may_matter(real, settings) if data is not None and self.linter.prefilter else None
            return read_and_check(self.linter, display, path, settings, self.fix, self.cache, data, prefiltered)
        key = self._key(real) if self.fix is None else None
        if key is not None:
            cached = self.cache.get(key, self.depends)
            if cached is not None:
                return FileResult(display, cached, data=self.source(real) or b"")
        return None

    def check(self, index: int) -> FileResult:
        display, path, settings = self.files[index]
        real = resolved(path)
        prepared = self.prepare(real)
        result = self.linter.finish(prepared, self.analysis(settings))
        key = self._key(real) if self.fix is None and real not in self.transient else None  # a buffer: never written
        if key is not None and not result.errors:
            self.cache.put(key, result.diagnostics, self.depends)
        return result


def _project_root(entries: dict[Path, tuple[str, Path, Settings]]) -> Path:
    """The folder the project's modules are named from: the project root of the files'
    settings (the config file's folder, else the project around the folder the check
    runs in, else that folder) when they are inside it, else the folders the files are
    in; the nearest folder that holds them all. The same for a check started anywhere
    in the project."""
    folders = set()
    roots: dict[int, tuple[str, str]] = {}  # id(settings) -> its root, and that as a prefix of what is below it
    for path, (_, _, settings) in entries.items():
        found = roots.get(id(settings))
        if found is None:
            root = str(_settings_root(settings))
            found = roots[id(settings)] = (root, os.path.normcase(root if root.endswith(os.sep) else root + os.sep))
        text = str(path)  # resolved, as the root is: below it when its text starts so
        folders.add(found[0] if os.path.normcase(text).startswith(found[1]) else os.path.dirname(text))
    return Path(os.path.commonpath(sorted(folders)))


def _settings_root(settings: Settings) -> Path:
    root = resolved(settings.root)
    return root if settings.config_path is not None else unconfigured_root(root) or root


def _same_fact(model: ModuleModel, live: ModuleModel, fact) -> cst.CSTNode | None:
    """The node of ``live`` (the same file, parsed) that ``fact`` of ``model`` stands for."""
    if isinstance(fact, LoopPlace):  # the frame at the same depth of the path of the fact inside it
        depth = next((i for i, (frame, _) in enumerate(fact.inside.path) if frame is fact.loop), None)
        inside = _same_fact_of(model, live, fact.inside)
        return inside.path[depth][0].node if inside is not None and depth is not None and depth < len(inside.path) else None
    if model is live:
        return getattr(fact, "node", None)
    scope = getattr(fact, "scope", None)
    if scope is None:  # a parameter
        for mine, theirs in zip(model.scopes, live.scopes):
            for p, q in zip(mine.params, theirs.params):
                if p is fact:
                    return q.node
        return None
    found = _same_fact_of(model, live, fact)
    return found.node if found is not None else None


def _same_fact_of(model: ModuleModel, live: ModuleModel, fact):
    """The fact of ``live`` (the same file, parsed) that ``fact`` of ``model`` is."""
    if model is live:
        return fact
    scope = fact.scope
    other = live.scopes[scope.index] if scope.index < len(live.scopes) else None
    if other is None:
        return None
    for name in ("calls", "binds", "tests", "exits", "guards"):
        facts = getattr(scope, name)
        for position, candidate in enumerate(facts):
            if candidate is fact:
                counterpart = getattr(other, name)
                return counterpart[position] if position < len(counterpart) else None
    return None


def check_files(
    linter: Linter,
    files: list[tuple[str, Path, Settings]],
    fix: str | None = None,
    cache=None,
    jobs: int = 0,
    context: list[tuple[str, Path, Settings]] | tuple = (),
    read: Callable[[Path], bytes] | None = None,
    dependents: bool = False,
) -> list[FileResult]:
    """Check ``files`` (display path, path, settings) as one project with ``context``
    (the rest of its files); results in the same order, then, with ``dependents``, those
    of the modules of ``context`` whose findings can rest on ``files``
    (:meth:`ProjectRun.add_dependents`). ``read`` gives a file's bytes (a buffer in
    place of the file it was read from).

    Files that cannot matter are settled on their bytes: in a large tree that is most of
    them. The project's A2A code is checked in this process, or, when there is enough of
    it and more than one job, in a pool of processes that each parse a share of it and
    check that share against the facts of all of it."""
    with _collector_paused():  # the project's models live for the whole run: nothing to collect
        run = ProjectRun(linter, files, context, fix, cache, read)
        if dependents:
            run.add_dependents()
        results: list[FileResult | None] = [run.settled(i) for i in range(len(run.files))]
        pending = [i for i, r in enumerate(results) if r is None]
        jobs = min(jobs or available_cpus(), MOST_JOBS_PER_CPU * available_cpus(), len(pending) or 1)
        if len(pending) >= MIN_FILES_PER_POOL and jobs > 1:
            checked = _check_in_pool(run, pending, jobs)
        elif pending and _runs_plugins(run, pending):  # a plug-in's os._exit() or crash must not end the run
            checked = _check_apart(run, pending, _fork_context())
        else:
            checked = _checked_in_batches(run, pending)
        for i, result in checked:
            results[i] = result
    return _in_cells(run, results, fix)  # type: ignore[arg-type]


def _in_cells(run: ProjectRun, results: list[FileResult], fix: str | None) -> list[FileResult]:
    """The results with the places in notebooks told in cells. A notebook whose fixes were
    asked for says once that they are not applied (its findings were checked without them)."""
    named = {display: real for real, (display, path, _) in run.entries.items() if notebooks.is_notebook(path)}
    if not named:
        return results
    shown = {place.path for r in results for d in r.diagnostics for place in (d, *d.related)}
    cells = {display: notebooks.Cells(run.source(named[display]) or b"") for display in shown & named.keys()}
    for result in results:
        joined = result.display in cells and cells[result.display].joined
        if joined and fix and select_fixes(result.diagnostics, fix == "unsafe"):
            result.warnings.append(f"{result.display}: not fixed: fixes are not applied to notebooks yet")
        result.diagnostics = notebooks.in_cells(result.diagnostics, cells)
    return results


def _checked_in_batches(run: ProjectRun, indices: list[int]) -> list[tuple[int, FileResult]]:
    """``files[indices]`` checked in this process, :data:`PREPARED_AT_ONCE` parsed at a
    time: a module keeps only its facts once it is checked (:meth:`ProjectRun.checked`)."""
    found = []
    for start in range(0, len(indices), PREPARED_AT_ONCE):
        batch = indices[start : start + PREPARED_AT_ONCE]
        run.prepare_all([resolved(run.files[i][1]) for i in batch])
        for i in batch:
            found.append((i, run.check(i)))
            run.checked(resolved(run.files[i][1]))
    return found


def _check_in_pool(run: ProjectRun, pending: list[int], jobs: int) -> list[tuple[int, FileResult]]:
    """Check ``pending`` in ``jobs`` forked processes that keep what they parsed: each parses
    its share, the facts of every share go to every process, each checks its share. A
    process that dies (a crash in native code, the kernel's out-of-memory killer) takes
    only itself: the others go on without its facts, and its share is checked again file
    by file, each in a process of its own, so that a crash costs only the file behind it."""
    import pickle

    shares: list[list[int]] = [[] for _ in range(jobs)]
    loads = [0] * jobs
    for i in sorted(pending, key=lambda i: -len(run.source(resolved(run.files[i][1])) or b"")):
        least = loads.index(min(loads))
        shares[least].append(i)
        loads[least] += len(run.source(resolved(run.files[i][1])) or b"")
    context = _fork_context()
    workers = []
    for share in shares:
        if not share:
            continue
        parent, child = context.Pipe()
        process = context.Process(target=_pool_worker, args=(run, share, child), daemon=True)
        process.start()
        child.close()
        workers.append((process, parent, share))
    found: list[tuple[int, FileResult]] = []
    lost: list[int] = []
    try:
        facts: dict[str, bytes] = {}
        alive = []
        for worker in workers:
            try:
                facts.update(_receive(worker[1]))
                alive.append(worker)
            except WorkerDied:
                lost += worker[2]
        answering = []
        for worker in alive:
            try:
                worker[1].send(facts)
                answering.append(worker)
            except OSError:
                lost += worker[2]
        for _, connection, share in answering:
            try:
                found += pickle.loads(_receive(connection))
            except WorkerDied:
                lost += share
    finally:
        _stop(workers)
    return found + [checked for i in sorted(lost) for checked in _check_apart(run, [i], context)]


def _runs_plugins(run: ProjectRun, pending: list[int]) -> bool:
    """Whether a plug-in's rule is enabled for one of the files ``pending``."""
    linter = run.linter
    return any(
        not linter.registry[code].__module__.startswith(BUILT_IN_RULES)
        for settings in {id(run.files[i][2]): run.files[i][2] for i in pending}.values()
        for code in linter.enabled(settings)
    )


def _check_apart(run: ProjectRun, indices: list[int], context, not_run: frozenset[str] = frozenset()) -> list[tuple[int, FileResult]]:
    """``files[indices]`` checked in a forked process, with the plug-in rules ``not_run``
    left out. When it dies, each file is checked again in a process of its own; a file
    whose process died in a plug-in rule's check() (its ``os._exit()``, a crash in its
    native code) is checked once more without that rule, which is an internal error on
    it; a file whose process dies anyway is one."""
    import mmap
    import pickle

    marker = mmap.mmap(-1, _MARKER_BYTES)  # shared with the process: the plug-in rule it is in
    parent, child = context.Pipe()
    process = context.Process(target=_apart_worker, args=(run, indices, child, marker, not_run), daemon=True)
    process.start()
    child.close()
    try:
        return pickle.loads(_receive(parent))
    except WorkerDied:
        process.join(timeout=5)
    finally:
        _stop([(process, parent, indices)])
    how = f"signal {-process.exitcode}" if process.exitcode and process.exitcode < 0 else f"exit status {process.exitcode}"
    if process.exitcode == _INTERRUPTED_EXIT:
        raise KeyboardInterrupt
    if len(indices) > 1:
        return [checked for i in indices for checked in _check_apart(run, [i], context, not_run)]
    (index,) = indices
    display, path, _ = run.files[index]
    code = marker[:].rstrip(b"\0").decode("ascii", "replace")
    if code in run.linter.registry and code not in not_run:
        [(_, result)] = _check_apart(run, indices, context, not_run | {code})
        error = (
            f"internal error in {code} ({run.linter.registry[code].name}) on {display}: the process checking it"
            f" ended in the rule's check() ({how}); its other rules were checked"
        )
    else:
        result = FileResult(display, data=run.source(resolved(path)) or b"")
        error = f"internal error on {display}: the process checking it died ({how}); the other files were checked"
    result.errors.insert(0, error + "\n  please report this as a bug, with the file if you can share it")
    return [(index, result)]


def _fork_context():
    """The multiprocessing context workers are forked in, by this process (:data:`_forked_by`)."""
    import multiprocessing

    global _forked_by
    _forked_by = os.getpid()
    return multiprocessing.get_context("fork")


#: The process that forks the workers (set before it forks them: see :func:`_die_with_parent`).
_forked_by = os.getpid()
#: How a worker that was interrupted (Ctrl-C, a plug-in's KeyboardInterrupt) exits: its
#: parent is interrupted then too. The shell's status for SIGINT.
_INTERRUPTED_EXIT = 130


def _die_with_parent() -> None:
    """Have the kernel end this forked worker when the run that forked it dies (a CI
    timeout kills the run, not its workers: left alone they would spin on). Linux's
    ``PR_SET_PDEATHSIG``; elsewhere a worker notices a closed pipe when it next talks."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes
    import signal

    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # 1: PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != _forked_by:  # the run died before the request was made
        os._exit(1)


def _apart_worker(run: ProjectRun, indices: list[int], connection, marker, not_run: frozenset[str]) -> None:
    import pickle

    global _in_plugin, _not_run
    _die_with_parent()
    _in_plugin, _not_run = marker, not_run
    try:
        results = [(i, _shipped(run, result)) for i, result in _checked_in_batches(run, indices)]
        connection.send(pickle.dumps(results, protocol=pickle.HIGHEST_PROTOCOL))
    except KeyboardInterrupt:
        os._exit(_INTERRUPTED_EXIT)
    finally:
        connection.close()


def _stop(workers) -> None:
    for process, connection, _ in workers:
        connection.close()
        process.join(timeout=5)
        if process.is_alive():
            process.kill()


def _receive(connection):
    try:
        return connection.recv()
    except (EOFError, OSError) as error:
        raise WorkerDied from error


def _shipped(run: ProjectRun, result: FileResult) -> FileResult:
    """A worker's result as it is sent back: the text only when fixes are written with it
    (the bytes it was read from always: ``--add-noqa`` tells by them whether the file
    changed since)."""
    if run.fix is None:
        result.original = None
    return result


def _pool_worker(run: ProjectRun, share: list[int], connection) -> None:
    """A pool process: parse the share, send its facts, take every share's, check the share."""
    import pickle

    _die_with_parent()
    try:
        mine = {}
        paths = [resolved(run.files[i][1]) for i in share]
        for path, prepared in zip(paths, run.prepare_all(paths)):
            run.join(path)
            if prepared.model is not None:
                mine[str(path)] = pickle.dumps(prepared.model, protocol=pickle.HIGHEST_PROTOCOL)
        connection.send(mine)
        facts = connection.recv()
        for name, payload in facts.items():
            path = Path(name)
            if path not in run.prepared:
                run.shipped[path] = payload
        results = []
        for i, path in zip(share, paths):
            results.append((i, _shipped(run, run.check(i))))
            run.checked(path)
        connection.send(pickle.dumps(results, protocol=pickle.HIGHEST_PROTOCOL))
    except KeyboardInterrupt:
        os._exit(_INTERRUPTED_EXIT)
    finally:
        connection.close()


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
    from a2alint.registry import load_rules

    registry = load_rules()
    base = settings or Settings(root=Path.cwd())
    settings = base.with_overrides(Overrides(layer=Layer(select=select), preview=preview))
    linter = Linter(registry, report_unused_noqa=report_unused_noqa, prefilter=prefilter)
    return linter.check_bytes(source.encode("utf-8"), path, Path(path), settings, fix)


def buffer_bytes(text: str) -> bytes:
    """An editor's buffer as the file would be saved: in its declared encoding."""
    data = text.encode("utf-8")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        if encoding not in ("utf-8", "utf-8-sig"):
            data = text.encode(encoding)  # a coding cookie: the bytes the editor would write
    except (SyntaxError, LookupError, UnicodeEncodeError):
        pass  # check_bytes reports what the interpreter would refuse
    return data


def lint_project(
    sources: dict[str, str], *, select: tuple[str, ...] | None = None, preview: bool | None = None,
    report_unused_noqa: bool = False, fix: str | None = None,
) -> dict[str, FileResult]:
    """Lint several modules (relative path -> source) as one project, in a scratch folder:
    the library entry point for multi-module examples. Results by relative path (with
    ``fix``, each result's ``fixed`` text; nothing is written)."""
    from a2alint.registry import load_rules  # the registry imports the rules, which import this module

    linter = Linter(load_rules(), report_unused_noqa=report_unused_noqa)
    with tempfile.TemporaryDirectory(prefix="a2alint-project-") as folder:
        root = Path(folder)
        settings = Settings(root=root).with_overrides(Overrides(layer=Layer(select=select), preview=preview))
        files = []
        for relative, text in sorted(sources.items()):
            path = root / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            files.append((relative, path, settings))
        return {display: result for (display, _, _), result in zip(files, check_files(linter, files, fix, jobs=1))}
