"""``a2alint server``: the Language Server Protocol over stdio (pygls 2, the ``lsp`` extra).

One engine: each open Python document is linted with the library calls the
command line makes (:class:`~a2alint.config.SettingsResolver` for the nearest
``pyproject.toml`` / ``a2alint.toml`` of the document's path, the rules' own fixes
and ``# noqa`` handling), as a module of its project
(:class:`~a2alint.workspace.Workspace`: the unsaved buffer in place of its file, the
other open buffers in place of theirs, the other modules' facts kept in memory), in
a thread pool so that the editor never waits on it. Diagnostics follow ``didOpen``,
``didChange`` (debounced) and ``didSave`` and are cleared on ``didClose``; after an
edit, the open documents that import the edited one or that it imports are linted
again. A note in another module points at that module's URI.

Client settings (``initializationOptions``, or the ``a2alint`` section of the
workspace settings, which win) are::

    {"select": ["AC1"], "extendSelect": [], "ignore": ["AC107"], "preview": false,
     "debounce": 0.2, "reportUnusedNoqa": false}

``select``/``extendSelect``/``ignore``/``preview`` act like the command-line
flags of the same names; ``debounce`` is the wait in seconds after an edit.
"""

from __future__ import annotations

import asyncio
import functools
import gc
import json
import logging
import os
import re
import sys
import threading
import traceback
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence
from urllib.parse import urlparse

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidRequest
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path
from pygls.workspace import PositionCodec

from a2alint import __version__
from a2alint.config import CONFIG_NAMES, ConfigError, Layer, Overrides, Settings, SettingsResolver
from a2alint.control import Cancelled, cancellable
from a2alint.diagnostics import Diagnostic, Edit, Position, Related
from a2alint.fixes import apply_edits, parses
from a2alint.registry import load_rules
from a2alint.reporters import rule_url
from a2alint.runner import UNPARSABLE, UNUSED_NOQA, FileResult, Linter
from a2alint.suppressions import find_noqa
from a2alint.workspace import Workspace

SOURCE = "a2alint"
FIX_ALL = "source.fixAll.a2alint"
DEFAULT_DEBOUNCE = 0.2
PYTHON_SUFFIXES = (".py", ".pyi")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_SEVERITY = {"error": types.DiagnosticSeverity.Error, "warning": types.DiagnosticSeverity.Warning}

logger = logging.getLogger(__name__)


# --- client settings ---------------------------------------------------------------------


@dataclass(frozen=True)
class Options:
    """What the editor says: the command line's selection flags, and timing."""

    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    preview: bool | None = None
    debounce: float = DEFAULT_DEBOUNCE
    report_unused_noqa: bool = False

    @property
    def overrides(self) -> Overrides:
        layer = Layer(select=self.select, extend_select=self.extend_select, ignore=self.ignore)
        return Overrides(layer=layer, preview=self.preview)

    @classmethod
    def parse(cls, raw: Any) -> tuple["Options", list[str]]:
        """Options from a settings object (flat, or under an ``a2alint`` key), and its problems."""
        raw = _section(raw)
        if not isinstance(raw, dict):
            return cls(), [] if raw is None else [f"settings must be an object, got {raw!r}"]
        values: dict[str, Any] = {}
        problems: list[str] = []
        for key, value in raw.items():
            name = re.sub(r"(?<=[a-z])([A-Z])", r"_\1", key).replace("-", "_").lower()
            if value is None:  # null: not set, the config files decide
                continue
            if name in ("select", "extend_select", "ignore"):
                codes = _codes(value)
                if codes is None:
                    problems.append(f"'{key}' must be a list of rule codes or prefixes, got {value!r}")
                elif name == "select" or codes:
                    values[name] = codes
            elif name in ("preview", "report_unused_noqa"):
                if not isinstance(value, bool):
                    problems.append(f"'{key}' must be true or false, got {value!r}")
                else:
                    values[name] = value
            elif name == "debounce":
                if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 10:
                    problems.append(f"'{key}' must be a number of seconds from 0 to 10, got {value!r}")
                else:
                    values[name] = float(value)
        return cls(**values), problems


def _section(raw: Any) -> Any:
    """The ``a2alint`` section of a settings object that has one, else the object itself."""
    if isinstance(raw, dict) and isinstance(raw.get("a2alint"), dict):
        return raw["a2alint"]
    return raw


def _codes(value: Any) -> tuple[str, ...] | None:
    """``["AC1", "ac201"]`` or ``"AC1,AC201"`` -> ``("AC1", "AC201")``; None if malformed."""
    if isinstance(value, str):
        value = value.split(",")
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return None
    return tuple(code.strip().upper() for code in value if code.strip())


# --- positions ----------------------------------------------------------------------------


class Text:
    """A buffer's lines as LSP counts them; our 1-based columns (code points) to LSP positions."""

    def __init__(self, text: str, codec: PositionCodec) -> None:
        self.text = text
        self.lines = _LINE_BREAK.split(text)
        self.codec = codec

    def position(self, line: int, column: int) -> types.Position:
        index = line - 1
        if index >= len(self.lines):
            return self.end()
        if index < 0:
            return types.Position(line=0, character=0)
        return types.Position(line=index, character=self.codec.client_num_units(self.lines[index][: max(column - 1, 0)]))

    def range(self, start: Position, end: Position) -> types.Range:
        return types.Range(start=self.position(start.line, start.column), end=self.position(end.line, end.column))

    def end(self) -> types.Position:
        return types.Position(line=len(self.lines) - 1, character=self.codec.client_num_units(self.lines[-1]))

    def edits(self, edits: Iterable[Edit]) -> list[types.TextEdit]:
        return [types.TextEdit(range=self.range(e.start, e.end), new_text=e.content) for e in edits]


def _key(position: types.Position) -> tuple[int, int]:
    return (position.line, position.character)


def _overlaps(a: types.Range, b: types.Range) -> bool:
    return _key(a.start) <= _key(b.end) and _key(b.start) <= _key(a.end)


def suppression(text: str, diagnostic: Diagnostic) -> Edit | None:
    """The edit that adds ``diagnostic.code`` to a ``# noqa`` on its line, or None if no edit can."""
    lines = _LINE_BREAK.split(text)
    if not 1 <= diagnostic.line <= len(lines):
        return None
    line = lines[diagnostic.line - 1]
    existing = find_noqa(text).get(diagnostic.line)
    if existing is not None and existing.codes is not None:
        at = Position(diagnostic.line, existing.end_column)
        edit = Edit(at, at, f", {diagnostic.code}")
    elif existing is None:
        body = line.rstrip()
        edit = Edit(Position(diagnostic.line, len(body) + 1), Position(diagnostic.line, len(line) + 1), f"  # noqa: {diagnostic.code}")
    else:
        return None  # a bare ``# noqa`` already covers every code
    # A line that ends in a backslash or inside a string takes no comment: check what it gives.
    try:
        after = apply_edits(text, [edit])
    except ValueError:
        return None
    noqa = find_noqa(after).get(diagnostic.line)
    if noqa is None or not noqa.covers(diagnostic.code) or not parses(after):
        return None
    return edit


# --- the server ---------------------------------------------------------------------------


@dataclass
class Engine:
    """One configuration: a resolver (config files read once) and its linter."""

    linter: Linter
    resolver: SettingsResolver
    defaults: Settings  # for a document whose config file is broken
    workspace: Workspace  # the projects the documents are checked in


@dataclass(frozen=True)
class Snapshot:
    uri: str
    version: int | None
    text: str
    path: Path
    display: str


class Collector:
    """The cyclic garbage collector, run once a lint is done rather than inside one.

    The workspace holds every module's facts: an automatic collection during a lint walks
    all of that, in the time the editor waits for. A lint breaks the cycles of what it
    made when it ends (``ProjectRun.release``), so its garbage is freed at once; what is
    left (a lint stopped midway, anything else) is for the collector. The server turns
    automatic collection off and collects after each lint (once its diagnostics are
    written): the young generations when no other lint is running (what a running lint
    holds would be kept past them, for the next full collection to find), and the whole
    heap every ``full_every`` lints."""

    def __init__(self, full_every: int = 50) -> None:
        self.full_every = full_every
        self.lints = 0

    def linted(self, loop: asyncio.AbstractEventLoop, busy: Callable[[], bool]) -> None:
        """A lint finished; ``busy()`` tells whether another one is still running."""
        self.lints += 1
        full = self.lints % self.full_every == 0
        loop.call_soon(self._collect, full, busy)  # after what is queued: the publication's write

    @staticmethod
    def _collect(full: bool, busy: Callable[[], bool]) -> None:
        if full:
            gc.collect(2)
        elif not busy():
            gc.collect(1)


@dataclass
class Linted:
    snapshot: Snapshot
    result: FileResult
    diagnostics: list[types.Diagnostic]  # result.diagnostics, in LSP form, same order


class A2ALintServer:
    """The language server's state and handlers, on a pygls :class:`LanguageServer`."""

    def __init__(self, max_workers: int = 4) -> None:
        self.ls = LanguageServer("a2alint", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
        self.registry = load_rules()
        self.root = Path.cwd()
        self.init_options: Any = None
        self.workspace_options: Any = None
        self.options = Options()
        self.executor = ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix="a2alint-lint")
        self.documents: set[str] = set()  # the URIs we lint
        self.pending: dict[str, asyncio.Task] = {}  # the scheduled lint of each document
        self.running: dict[str, asyncio.Future] = {}  # its lint in the thread pool
        self.unwanted: dict[str, threading.Event] = {}  # set to stop that lint early
        self.results: dict[str, Linted] = {}
        self.edited: set[str] = set()  # documents whose next lint re-checks their dependents
        self.shown: set[str] = set()  # messages already shown, so a keystroke does not repeat them
        self.shut_down = False
        self.collector = Collector()
        self.in_flight = 0  # lints running in the thread pool
        self.engine = self._new_engine()
        self._register()

    # -- wiring --
    def _register(self) -> None:
        def feature(method: str, options: Any = None):
            # pygls marks each handler with attributes, which a bound method cannot carry.
            return lambda handler: self.ls.feature(method, options)(functools.partial(handler))

        feature(types.INITIALIZE)(self.initialize)
        feature(types.INITIALIZED)(self.initialized)
        feature(types.TEXT_DOCUMENT_DID_OPEN)(self.did_open)
        feature(types.TEXT_DOCUMENT_DID_CHANGE)(self.did_change)
        feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))(self.did_save)
        feature(types.TEXT_DOCUMENT_DID_CLOSE)(self.did_close)
        feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)(self.did_change_watched_files)
        feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)(self.did_change_configuration)
        feature(types.TEXT_DOCUMENT_HOVER)(self.hover)
        feature(
            types.TEXT_DOCUMENT_CODE_ACTION,
            types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL], resolve_provider=False),
        )(self.code_action)
        feature(types.SHUTDOWN)(self.shutdown)
        feature(REFUSED)(self.refused)

    def capability(self, dotted: str) -> Any:
        value: Any = self.ls.client_capabilities
        for name in dotted.split("."):
            value = getattr(value, name, None)
            if value is None:
                return None
        return value

    # -- messages --
    def show(self, message: str, kind: types.MessageType = types.MessageType.Error) -> None:
        """``window/showMessage`` once per distinct message (until the configuration reloads)."""
        if message in self.shown:
            return
        self.shown.add(message)
        self.ls.window_show_message(types.ShowMessageParams(type=kind, message=message))

    def log(self, message: str, kind: types.MessageType = types.MessageType.Error) -> None:
        self.ls.window_log_message(types.LogMessageParams(type=kind, message=message))

    # -- configuration --
    def _new_engine(self) -> Engine:
        """A fresh resolver (config files are read again) under the editor's overrides."""
        overrides = self.options.overrides
        try:
            Settings(root=self.root).with_overrides(overrides).enabled_codes(self.registry)
        except ConfigError as error:
            self.show(f"a2alint: editor settings: {error}; using the configuration files alone")
            overrides = Overrides()
        linter = Linter(self.registry, report_unused_noqa=self.options.report_unused_noqa)
        resolver = SettingsResolver(self.registry, overrides, cwd=self.root)
        return Engine(linter, resolver, Settings(root=self.root).with_overrides(overrides), Workspace(linter, resolver))

    def configure(self) -> None:
        """Take the editor's settings (workspace settings over initializationOptions) and
        start a fresh resolver, so that config files are read again."""
        merged: dict[str, Any] = {}
        for raw in (self.init_options, self.workspace_options):
            if isinstance(_section(raw), dict):
                merged.update(_section(raw))
        self.shown.clear()
        self.options, problems = Options.parse(merged)
        for problem in problems:
            self.show(f"a2alint: editor settings: {problem}", types.MessageType.Warning)
        self.engine = self._new_engine()

    def reconfigure(self) -> None:
        """Settings or a config file changed: configure again and lint every open document."""
        self.configure()
        for uri in list(self.documents):
            self.schedule(uri, 0)

    def initialize(self, params: types.InitializeParams) -> None:
        root = params.root_uri or (params.workspace_folders[0].uri if params.workspace_folders else None)
        path = to_fs_path(root) if root else params.root_path
        if path and Path(path).is_dir():
            self.root = Path(path)
        self.init_options = params.initialization_options
        self.configure()

    def initialized(self, params: types.InitializedParams) -> None:
        asyncio.ensure_future(self._after_initialized())

    async def _after_initialized(self) -> None:
        if self.capability("workspace.did_change_watched_files.dynamic_registration"):
            watchers = [types.FileSystemWatcher(glob_pattern=f"**/{name}") for name in CONFIG_NAMES]
            registration = types.Registration(
                id="a2alint-config-files",
                method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                register_options=types.DidChangeWatchedFilesRegistrationOptions(watchers=watchers),
            )
            try:
                await asyncio.wait_for(
                    self.ls.client_register_capability_async(types.RegistrationParams(registrations=[registration])), 10
                )
            except Exception as error:  # the client refused or never answered: saves still reload
                logger.warning("could not watch config files: %s", error)
        await self._pull_configuration()

    async def _pull_configuration(self) -> None:
        if not self.capability("workspace.configuration"):
            return
        try:
            items = [types.ConfigurationItem(section="a2alint", scope_uri=self.root.as_uri())]
            answer = await asyncio.wait_for(
                self.ls.workspace_configuration_async(types.ConfigurationParams(items=items)), 10
            )
        except Exception as error:
            logger.warning("workspace/configuration failed: %s", error)
            return
        value = answer[0] if answer else None
        if value != self.workspace_options:
            self.workspace_options = value
            self.reconfigure()

    async def did_change_configuration(self, params: types.DidChangeConfigurationParams) -> None:
        settings = params.settings
        if isinstance(settings, dict) and isinstance(settings.get("a2alint"), dict):
            self.workspace_options = settings["a2alint"]
            self.reconfigure()
        elif self.capability("workspace.configuration"):
            await self._pull_configuration()
        elif isinstance(settings, dict) and settings:
            self.workspace_options = settings
            self.reconfigure()

    def did_change_watched_files(self, params: types.DidChangeWatchedFilesParams) -> None:
        self.engine.workspace.forget_files()
        if any(Path(urlparse(change.uri).path).name in CONFIG_NAMES for change in params.changes):
            self.reconfigure()

    # -- documents --
    def _is_python(self, document: types.TextDocumentItem) -> bool:
        return document.language_id == "python" or urlparse(document.uri).path.endswith(PYTHON_SUFFIXES)

    def did_open(self, params: types.DidOpenTextDocumentParams) -> None:
        if self._is_python(params.text_document):
            self.documents.add(params.text_document.uri)
            self.schedule(params.text_document.uri, 0)

    def did_change(self, params: types.DidChangeTextDocumentParams) -> None:
        if params.text_document.uri in self.documents:
            self.edited.add(params.text_document.uri)
            self.schedule(params.text_document.uri, self.options.debounce)

    def did_save(self, params: types.DidSaveTextDocumentParams) -> None:
        uri = params.text_document.uri
        self.engine.workspace.forget_files()  # it may be a new module of the project
        if Path(urlparse(uri).path).name in CONFIG_NAMES:
            self.reconfigure()
        elif uri in self.documents:
            self.edited.add(uri)
            self.schedule(uri, 0)

    def did_close(self, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        if uri not in self.documents:
            return
        self.documents.discard(uri)
        task = self.pending.pop(uri, None)
        if task is not None:
            task.cancel()
        self.results.pop(uri, None)
        self.running.pop(uri, None)
        self.unwanted.pop(uri, threading.Event()).set()
        self.engine.workspace.closed(Path(self._path_of(uri)))
        self.ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    def refused(self, params: Any) -> None:
        """A message too large to read (see :class:`FramedInput`): said, and its document is
        not checked until it is opened again (what the message changed is unknown); a request
        is answered with an error."""
        field = params.get if isinstance(params, dict) else lambda name: getattr(params, name, None)
        uri, method = field("uri"), field("method") or "a message"
        text = f"a2alint refused {method} of {field('size')} bytes (at most {MAX_MESSAGE_BYTES})"
        if uri is not None and uri in self.documents:
            self.did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
            text += f"; {uri} is not checked until it is opened again"
        logger.error("%s", text)
        self.ls.window_show_message(types.ShowMessageParams(type=types.MessageType.Error, message=text))
        if field("request"):
            raise JsonRpcInvalidRequest(text)

    def shutdown(self, params: None = None) -> None:
        self.shut_down = True
        for task in self.pending.values():
            task.cancel()
        self.pending.clear()
        self.executor.shutdown(wait=False, cancel_futures=True)

    # -- linting --
    def schedule(self, uri: str, delay: float) -> None:
        """Lint ``uri`` after ``delay`` seconds; a newer request supersedes an older one."""
        previous = self.pending.pop(uri, None)
        if previous is not None:
            previous.cancel()
        task = asyncio.ensure_future(self._lint_and_publish(uri, delay))
        self.pending[uri] = task
        task.add_done_callback(lambda done: self.pending.pop(uri, None) if self.pending.get(uri) is done else None)

    def snapshot(self, uri: str) -> Snapshot | None:
        document = self.ls.workspace.text_documents.get(uri)
        if document is None:
            return None
        path = self._path_of(uri)
        return Snapshot(uri, document.version, document.source, Path(path), path)

    def _path_of(self, uri: str) -> str:
        path = to_fs_path(uri)
        if path is None:  # untitled: and other schemes: configured as a file in the workspace root
            path = str(self.root / (Path(urlparse(uri).path).name or "untitled.py"))
        return path

    def _is_current(self, snapshot: Snapshot) -> bool:
        document = self.ls.workspace.text_documents.get(snapshot.uri)
        return snapshot.uri in self.documents and document is not None and document.version == snapshot.version

    async def _lint_and_publish(self, uri: str, delay: float) -> None:
        if delay > 0:
            await asyncio.sleep(delay)
        running = self.running.get(uri)
        if running is not None and not running.done():
            # One lint per document at a time: a superseded run is told to stop (it does at
            # its next step of analysis) and this one starts once it has.
            self.unwanted[uri].set()
            await asyncio.wait([running])
        snapshot = self.snapshot(uri)
        if snapshot is None:
            return
        unwanted = self.unwanted[uri] = threading.Event()
        future = self.submit(snapshot, unwanted=unwanted)
        self.running[uri] = future
        linted = await self.finish(snapshot, future)
        if linted is None or not self._is_current(snapshot):
            return  # a newer version is on its way
        self.results[uri] = linted
        self.ls.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=linted.diagnostics, version=snapshot.version)
        )
        if uri in self.edited:  # what rests on this module may have changed with it
            self.edited.discard(uri)
            dependents = self.engine.workspace.dependents(snapshot.path)
            for other in list(self.documents):
                other_snapshot = self.snapshot(other) if other != uri else None
                if other_snapshot is not None and other_snapshot.path.resolve() in dependents:
                    self.schedule(other, 0)

    def submit(self, snapshot: Snapshot, fix: str | None = None, unwanted: threading.Event | None = None) -> asyncio.Future:
        """Start linting ``snapshot`` in the thread pool, under the current configuration,
        with the other open documents' buffers in place of their files; it stops early
        (its result is None) once ``unwanted`` is set."""
        buffers = {}
        for uri in self.documents:
            other = self.snapshot(uri)
            if other is not None:
                buffers[other.path.resolve()] = other.text
        self.engine.workspace.buffers = buffers
        future = asyncio.get_running_loop().run_in_executor(self.executor, _check, self.engine, snapshot, fix, unwanted)
        self.in_flight += 1
        future.add_done_callback(self._landed)
        return future

    def _landed(self, future: asyncio.Future) -> None:
        self.in_flight -= 1

    async def finish(self, snapshot: Snapshot, future: asyncio.Future) -> Linted | None:
        """The findings of a submitted lint in LSP form; None if the engine itself failed (logged)."""
        try:
            # shielded: a superseded request stops waiting, the thread's future stays as it is
            checked = await asyncio.shield(future)
        except asyncio.CancelledError:
            raise
        except Exception:
            self.log(f"a2alint: internal error on {snapshot.display}:\n{traceback.format_exc()}")
            return None
        finally:
            if future.done():  # its garbage: collected once what follows (the publication) is written
                self.collector.linted(asyncio.get_running_loop(), lambda: self.in_flight > 0)
        if checked is None:
            return None  # stopped: a newer version is being linted
        result, problems = checked
        for problem in problems:
            self.show(f"a2alint: {problem}; linting with the default settings")
        for error in result.errors:
            self.log(f"a2alint: {error}")
        text = Text(result.original if result.original is not None else snapshot.text, self.ls.workspace.position_codec)
        return Linted(snapshot, result, [self.to_lsp(d, snapshot, text) for d in result.diagnostics])

    async def lint(self, snapshot: Snapshot, fix: str | None = None) -> Linted | None:
        """Lint ``snapshot`` now (for a request that needs an answer, not a publication)."""
        return await self.finish(snapshot, self.submit(snapshot, fix))

    async def current(self, uri: str) -> Linted | None:
        """The findings of the document as it is now: the last published, or a fresh lint."""
        if uri not in self.documents:
            return None
        linted = self.results.get(uri)
        if linted is not None and self._is_current(linted.snapshot):
            return linted
        snapshot = self.snapshot(uri)
        return None if snapshot is None else await self.lint(snapshot)

    def location(self, note: Related, snapshot: Snapshot, text: Text) -> types.Location:
        """Where a note is: in the document (positions in its encoding), or in another
        module of the project (its own URI; its line, and the column as counted in code points)."""
        if note.path == snapshot.display:
            at = text.position(note.line, note.column)
            return types.Location(uri=snapshot.uri, range=types.Range(start=at, end=at))
        path = Path(note.path)
        at = types.Position(line=note.line - 1, character=note.column - 1)
        return types.Location(uri=(path if path.is_absolute() else self.root / path).as_uri(), range=types.Range(start=at, end=at))

    def to_lsp(self, d: Diagnostic, snapshot: Snapshot, text: Text) -> types.Diagnostic:
        message = d.message + (f"\nhelp: {d.suggestion}" if d.suggestion else "")
        related = None
        if d.related:
            if self.capability("text_document.publish_diagnostics.related_information"):
                related = [
                    types.DiagnosticRelatedInformation(location=self.location(note, snapshot, text), message=note.label)
                    for note in d.related
                ]
            else:
                message += "".join(
                    f"\nnote: {'line ' if note.path == snapshot.display else note.path + ':'}{note.line}: {note.label}"
                    for note in d.related
                )
        return types.Diagnostic(
            range=text.range(Position(d.line, d.column), Position(d.end_line, d.end_column)),
            severity=_SEVERITY[d.severity],
            code=d.code,
            code_description=types.CodeDescription(href=rule_url(d.code)),
            source=SOURCE,
            message=message,
            related_information=related,
            data={"rule": d.rule, "suggestion": d.suggestion, "fix": d.fix.to_json() if d.fix else None},
        )

    # -- code actions and hover --
    def workspace_edit(self, snapshot: Snapshot, edits: list[types.TextEdit]) -> types.WorkspaceEdit:
        if self.capability("workspace.workspace_edit.document_changes"):
            document = types.OptionalVersionedTextDocumentIdentifier(uri=snapshot.uri, version=snapshot.version)
            return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(text_document=document, edits=edits)])
        return types.WorkspaceEdit(changes={snapshot.uri: edits})

    async def code_action(self, params: types.CodeActionParams) -> list[types.CodeAction] | None:
        linted = await self.current(params.text_document.uri)
        if linted is None:
            return None
        only = params.context.only
        snapshot, result = linted.snapshot, linted.result
        text = Text(result.original if result.original is not None else snapshot.text, self.ls.workspace.position_codec)
        actions: list[types.CodeAction] = []
        if _wants(only, types.CodeActionKind.QuickFix):
            suppressed: set[tuple[int, str]] = set()
            for d, lsp in zip(result.diagnostics, linted.diagnostics):
                if not _overlaps(lsp.range, params.range):
                    continue
                if d.fix is not None:
                    unsafe = d.fix.applicability == "unsafe"
                    title = f"a2alint ({d.code}): {_sentence(d.fix.description or 'apply the fix')}"
                    actions.append(
                        types.CodeAction(
                            title=title + (" (unsafe)" if unsafe else ""),
                            kind=types.CodeActionKind.QuickFix,
                            diagnostics=[lsp],
                            is_preferred=not unsafe,
                            edit=self.workspace_edit(snapshot, text.edits(d.fix.edits)),
                        )
                    )
                if d.code in (UNPARSABLE, UNUSED_NOQA) or (d.line, d.code) in suppressed:
                    continue
                suppressed.add((d.line, d.code))
                edit = suppression(text.text, d)
                if edit is not None:
                    actions.append(
                        types.CodeAction(
                            title=f"a2alint ({d.code}): Suppress {d.code} on this line",
                            kind=types.CodeActionKind.QuickFix,
                            diagnostics=[lsp],
                            edit=self.workspace_edit(snapshot, text.edits([edit])),
                        )
                    )
        asked = only is not None and _wants(only, FIX_ALL)
        fixable = any(d.fix and d.fix.applicability == "safe" for d in result.diagnostics)
        if asked or (only is None and fixable):
            fixed = await self.lint(snapshot, fix="safe")
            if fixed is not None and fixed.result.fixed is not None:
                whole = types.TextEdit(
                    range=types.Range(start=types.Position(line=0, character=0), end=text.end()), new_text=fixed.result.fixed
                )
                actions.append(
                    types.CodeAction(
                        title="a2alint: Fix all safe fixes", kind=FIX_ALL, edit=self.workspace_edit(snapshot, [whole])
                    )
                )
        return actions

    async def hover(self, params: types.HoverParams) -> types.Hover | None:
        """The documentation of the rules flagged where the cursor is, among the findings
        the editor shows (the last published): at once, never after a lint still running."""
        uri = params.text_document.uri
        linted = self.results.get(uri) if uri in self.documents else None
        if linted is None:
            return None
        at = _key(params.position)
        hits = [
            (d, lsp)
            for d, lsp in zip(linted.result.diagnostics, linted.diagnostics)
            if _key(lsp.range.start) <= at <= _key(lsp.range.end)
        ]
        if not hits:
            return None
        parts = []
        for code in dict.fromkeys(d.code for d, _ in hits):
            rule = self.registry[code]
            flags = ", preview" if rule.preview else ""
            parts.append(
                f"**{code}** `{rule.name}` ({rule.severity}{flags})\n\n{rule.documentation()}\n\n[{code} online]({rule_url(code)})"
            )
        return types.Hover(
            contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value="\n\n---\n\n".join(parts)),
            range=hits[0][1].range,
        )


def _check(
    engine: Engine, snapshot: Snapshot, fix: str | None, unwanted: threading.Event | None = None
) -> tuple[FileResult, list[str]] | None:
    """In a worker thread: the settings of the document's path, then the one engine on its
    text; None when ``unwanted`` was set before it finished."""
    if unwanted is None:
        return _checked(engine, snapshot, fix)
    try:
        with cancellable(unwanted.is_set):
            return _checked(engine, snapshot, fix)
    except Cancelled:
        return None


def _checked(engine: Engine, snapshot: Snapshot, fix: str | None) -> tuple[FileResult, list[str]]:
    problems: list[str] = []
    try:
        settings = engine.resolver.for_path(snapshot.path)
        engine.linter.enabled(settings, snapshot.path)  # a selector problem shows here, not mid-lint
    except ConfigError as error:
        problems.append(str(error))
        settings = engine.defaults
    if settings.is_excluded_with_parents(snapshot.path):
        return FileResult(snapshot.display), problems
    return engine.workspace.check(snapshot.display, snapshot.path, snapshot.text, settings, fix), problems


def _wants(only: Sequence[str] | None, kind: str) -> bool:
    """Whether a request limited to the kinds ``only`` asks for ``kind`` (kinds are dotted prefixes)."""
    return only is None or any(kind == k or kind.startswith(f"{k}.") for k in only)


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


#: The largest message body the server reads (a document of ``MAX_BYTES`` in JSON is far
#: below it): a larger ``Content-Length`` is a broken or hostile client, not a message.
MAX_MESSAGE_BYTES = 64 * 1024 * 1024
_CONTENT_LENGTH = re.compile(rb"Content-Length: *([0-9]{1,12})\r\n", re.IGNORECASE)
_HEADER = re.compile(rb"[A-Za-z-]+: *[^\r\n]*\r\n")


#: A message larger than ``MAX_MESSAGE_BYTES`` (and at most this) is read past and
#: refused; a larger ``Content-Length`` is taken for a broken client, and ends the stream.
MAX_SKIPPED_BYTES = 1024 * 1024 * 1024
#: The message the reader hands on in place of one it refused (handled by ``refused``).
REFUSED = "a2alint/refusedMessage"
_HEAD_BYTES = 64 * 1024
_ID = re.compile(rb'"id"\s*:\s*(-?[0-9]{1,15}|"(?:[^"\\]|\\.){0,200}")')
_METHOD = re.compile(rb'"method"\s*:\s*"([A-Za-z/$_]{1,100})"')
_URI = re.compile(rb'"uri"\s*:\s*"((?:[^"\\]|\\.){1,4000})"')


def _refusal(head: bytes, size: int) -> bytes:
    """The message that stands for a refused one of ``size`` bytes starting with ``head``:
    a request (the same id) when it was one, so that its answer is an error."""
    found = {name: pattern.search(head) for name, pattern in (("id", _ID), ("method", _METHOD), ("uri", _URI))}
    params = {"size": size, "request": found["id"] is not None}
    if found["method"]:
        params["method"] = found["method"].group(1).decode()
    if found["uri"]:
        params["uri"] = json.loads(b'"' + found["uri"].group(1) + b'"')
    message = {"jsonrpc": "2.0", "method": REFUSED, "params": params}
    if found["id"]:
        message["id"] = json.loads(found["id"].group(1))
    return json.dumps(message).encode()


class FramedInput:
    """The client's stream as pygls reads it (``readline`` for headers, ``read`` for the
    body), one whole, well-framed message at a time. pygls trusts the framing: a
    ``Content-Length`` of a terabyte was a MemoryError, and a wrong, negative or missing
    one left the server alive but deaf forever. A frame that is not well formed ends the
    stream here, with the reason logged, so the server exits and the editor can restart it."""

    def __init__(self, raw) -> None:
        self.raw = raw
        self._pending: list[bytes] = []  # the current frame's header lines, then its body

    def readline(self) -> bytes:
        if not self._pending:
            self._pending = self._frame()
        return self._pending.pop(0) if self._pending else b""

    def read(self, size: int) -> bytes:
        return self._pending.pop(0) if self._pending else b""

    def _frame(self) -> list[bytes]:
        length = None
        for _ in range(32):  # a header block is a line or two; a stream of lines is no frame
            line = self.raw.readline(1024)
            if not line:
                return []  # the client closed the stream
            if line in (b"\r\n", b"\n"):
                break
            match = _CONTENT_LENGTH.fullmatch(line)
            if match:
                length = int(match.group(1))
            elif line.lower().startswith(b"content-length:"):
                return self._refuse(f"a Content-Length that is not a length: {line[:80]!r}")
            elif not _HEADER.fullmatch(line):
                return self._refuse(f"a header line that is not one: {line[:80]!r}")
        else:
            return self._refuse("no end to the message's headers")
        if length is None:
            return self._refuse("a message without a Content-Length")
        if length == 0 or length > MAX_SKIPPED_BYTES:
            return self._refuse(f"a Content-Length of {length} (at most {MAX_MESSAGE_BYTES})")
        if length > MAX_MESSAGE_BYTES:  # read past, never held: the server refuses it and goes on
            head = self.raw.read(_HEAD_BYTES)
            left = length - len(head)
            while left > 0:
                chunk = self.raw.read(min(left, 1 << 20))
                if not chunk:
                    return []
                left -= len(chunk)
            body = _refusal(head, length)
        else:
            body = self.raw.read(length)
            if len(body) < length:
                return []
        return [f"Content-Length: {len(body)}\r\n".encode(), b"\r\n", body]

    @staticmethod
    def _refuse(reason: str) -> list[bytes]:
        logging.getLogger("a2alint.server").error("the client sent %s; stopping (restart the server)", reason)
        return []


def serve() -> None:
    """Run the server on stdin/stdout until the client says ``exit``."""
    logging.basicConfig(level=logging.WARNING, format="a2alint server: %(levelname)s %(name)s: %(message)s")
    gc.disable()  # collected after each lint is published (Collector), not inside one
    server = A2ALintServer()
    server.ls.start_io(FramedInput(sys.stdin.buffer))
    # LSP: exit after a shutdown request is success; an exit (or a closed stdin) without one is not.
    code = 0 if server.shut_down else 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)  # at once: a lint still running in a thread would hold an ordinary exit for as long as it runs
