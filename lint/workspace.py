"""A project kept between runs: what the language server knows of the workspace.

An open document is checked as a module of its project (the Python files under its
project root, found once and again when files are saved or made): its buffer in place
of its file, the other open buffers in place of theirs, and every other module's facts
from memory, the cache or a parse, only where a question reaches them. After an edit,
the open documents that may depend on the edited one are the ones to check again.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from a2alint.cache import Cache, cache_folder
from a2alint.config import ConfigError, Settings, SettingsResolver
from a2alint.discovery import MAX_CONTEXT_FILES, discover, project_root
from a2alint.paths import resolved
from a2alint.reparse import Reparser
from a2alint.runner import READ_HOPS, FileResult, Linter, ProjectRun, Scans, buffer_bytes, read_source

#: How many modules' facts the server keeps in memory between runs.
REMEMBERED_MODULES = 4096


class Workspace:
    """The projects of one workspace, for one configuration (a resolver and its linter)."""

    def __init__(self, linter: Linter, resolver: SettingsResolver, cache: Cache | None = None) -> None:
        self.linter, self.resolver = linter, resolver
        self.cache = cache if cache is not None else Cache(cache_folder(resolver), linter.registry, REMEMBERED_MODULES)
        #: The open documents' texts, by resolved path (set by the server as they change).
        self.buffers: dict[Path, str] = {}
        self._files: dict[Path, list[tuple[str, Path, Settings]]] = {}  # project root -> its files
        self._read: dict[Path, tuple[tuple[int, int], bytes]] = {}  # path -> (stat, bytes)
        self._dependents: dict[Path, tuple[set[Path], set[Path]]] = {}  # (before the last check, after)
        self._scans = Scans()
        self._reparser = Reparser()  # an open buffer is parsed from its last version
        self._lock = threading.Lock()  # one run at a time: they share the facts in memory

    def forget_files(self) -> None:
        """A file was made, saved or deleted: find each project's files again."""
        self._files.clear()

    def check(self, display: str, path: Path, text: str, settings: Settings, fix: str | None = None) -> FileResult:
        """``text`` (the buffer of ``path``) checked as a module of its project."""
        real = resolved(path)
        data = buffer_bytes(text)

        def read(file: Path) -> bytes:
            return data if resolved(file) == real else self._bytes(file)

        with self._lock:
            context = [item for item in self._project(path) if resolved(item[1]) != real]
            run = ProjectRun(
                self.linter, [(display, path, settings)], context, fix, self.cache, read, self._scans, frozenset({real}),
                self._reparser,
            )
            kept = False
            try:
                result = run.settled(0) or run.check(0)
                prepared = run.prepared.get(real)
                if prepared is not None and prepared.model is not None and prepared.text is not None:
                    self._reparser.keep(real, prepared.text, prepared.model, prepared.nesting)
                    kept = True
                self._reparser.retain({*self.buffers, real})  # a document closed meanwhile is let go
            finally:
                prepared = run.prepared.get(real)
                if not kept and prepared is not None and prepared.model is not None:  # stopped, or failed
                    self._reparser.discard(prepared.model)
                self._reparser.release_forgotten()
                run.release()  # freed now: the server runs without the cyclic collector
            now = run.graph.around([real], READ_HOPS) - {real}
            self._dependents[real] = (self._dependents.get(real, (set(), set()))[1], now)
        return result

    def closed(self, path: Path) -> None:
        """The editor closed ``path``: its last version is no longer parsed from (and its
        facts are freed now, or by the lint running now)."""
        self._reparser.forget(resolved(path))
        if self._lock.acquire(blocking=False):  # the editor's thread never waits for a lint
            try:
                self._reparser.release_forgotten()
            finally:
                self._lock.release()

    def dependents(self, path: Path) -> set[Path]:
        """The modules whose findings may change with the last change of ``path``: what
        imports it or what it imports, within the reach of a question, before that change
        and after it (an edit can take a module out of the A2A code, or bring it in)."""
        before, after = self._dependents.get(resolved(path), (set(), set()))
        return before | after

    def _project(self, path: Path) -> list[tuple[str, Path, Settings]]:
        try:
            root = project_root(path, self.resolver)
        except ConfigError:
            return []
        if root is None:
            cwd = self.resolver.cwd
            root = cwd if resolved(path).is_relative_to(cwd) else None
        if root is None:
            return []
        if root not in self._files:
            shown = os.path.relpath(root, self.resolver.cwd) if root.is_relative_to(self.resolver.cwd) else str(root)
            try:
                found, _ = discover([shown], self.resolver, limit=MAX_CONTEXT_FILES)
                found = found if len(found) <= MAX_CONTEXT_FILES else []
                self._files[root] = [(display, file, self.resolver.for_path(file)) for display, file in found]
            except ConfigError:  # shown for the document itself; its project is read once it is mended
                return []
        return self._files[root]

    def _bytes(self, path: Path) -> bytes:
        """A file's bytes: an open buffer's, or the file's (read again only when it changed)."""
        real = resolved(path)
        text = self.buffers.get(real)
        if text is not None:
            return buffer_bytes(text)
        info = os.stat(path)
        stamp = (info.st_mtime_ns, info.st_size)
        known = self._read.get(real)
        if known is not None and known[0] == stamp:
            return known[1]
        data = read_source(path, self.resolver.for_path(path).max_file_size)
        self._read[real] = (stamp, data)
        return data
