"""The checked project: which module each file is, what its imports resolve to, and
which files can matter to an A2A analysis.

A project is the Python files under one root (the config file's folder, else the git
work tree's, else the folder checked). What an import names is found by path, as
Python finds it along ``sys.path``, among the roots the repository's layout shows (see
:class:`ModuleIndex`): the same files, however a check was started, resolve the same.
An import that names no module of the project stays opaque: it is never guessed from
its text.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator, Optional

from a2alint.paths import resolved

#: ``import a.b as c``, ``from .x import (y, z)``: the module part and the names, on bytes.
#: A line starts after a LF or a CR (a file with CR-only line endings is one ``^`` line).
_IMPORT = re.compile(
    rb"(?:^|(?<=\r))[ \t]*(?:from[ \t]+(?P<from>\.*[\w.]*)[ \t]+import[ \t]+(?P<names>\([^)]*\)|[^\r\n#;]*)"
    rb"|import[ \t]+(?P<modules>[^\r\n#;]*))",
    re.MULTILINE,
)


#: How far (in imports, either way) a module's code can reach another's: a caller, a
#: store into its objects, a subclass sit at most this far from it. The engine reads no
#: module farther than this from A2A code either. A caller that imports a function
#: through a module that re-exports it (a package's ``__init__``, the module it was moved
#: out of) is two imports from it, and the caller's own record classes one more.
REACH = 3


@dataclass
class ModuleFile:
    name: str
    path: Path
    is_package: bool  # an __init__.py: its relative imports start from itself

    def __post_init__(self) -> None:
        #: Its folder, as text: a key for what the absolute imports of the files there resolve to.
        self.folder = str(self.path.parent)
        #: The folder its relative imports start from, as text: its own (``pkg`` for
        #: ``pkg/__init__.py`` and ``pkg/client.py``), or for a file named ``conf.local.py``
        #: the one its dotted name puts it in (``pkg/conf``).
        inner = [] if self.is_package else self.path.stem.split(".")[:-1]
        self.package_folder = os.path.join(self.folder, *inner)


class ModuleIndex:
    """Files of a project by path, and what the imports of each folder name among them.

    An absolute import is looked for as Python's import system would look along
    ``sys.path``, where the folders on it are the ones a repository's layout makes its
    *roots*: the project root, the ``src`` roots the config names, and the roots found
    in the files' paths (a folder named ``src``; the folder that holds an outermost
    package, as ``libs/cardkit`` holds ``cardkit/__init__.py``), whose modules any file
    can import; and, for a file, every folder above it that is not a package (a sample
    run from its own folder, ``python -m`` from a parent), whose modules only the files
    below it can. The nearest root that holds a module or a regular package of the first
    name wins, as a regular package beats namespace folders (PEP 420); a relative import
    is looked for by path. A name whose first part is a package the API model knows
    (``a2a``, ``httpx``) is looked for in the declared roots only: ``from a2a.client
    import`` in a service that keeps its own ``clients/a2a/`` is the SDK.

    Paths are handled as text here: a project's imports are resolved before any file is
    parsed, and ``Path`` objects would cost more than the rest of that."""

    def __init__(
        self, root: Path, files: Iterable[Path], external: Iterable[str] = (), roots: Iterable[Path] = ()
    ) -> None:
        self.root = resolved(root)
        self.by_path: dict[Path, ModuleFile] = {}
        self._answers: dict[tuple[str, str], tuple[ModuleFile, str] | None] = {}
        self._statements: dict[tuple[str, str, bytes], frozenset[Path]] = {}
        self._external = frozenset(external)
        self._packages: dict[str, bool] = {}
        #: Modules by their path without ``.py`` (a package by its folder's).
        self._modules: dict[str, ModuleFile] = {}
        #: Every folder above a file of the project (where a namespace package can be).
        self._folders: set[str] = set()
        self._searched: dict[tuple[str, str], list[str]] = {}  # (first name, folder) -> roots
        self._parts: dict[str, tuple[str, ...]] = {}
        found: set[str] = set()
        for path in files:
            absolute = resolved(path)
            entry, base = self._describe(absolute)
            self.by_path[absolute] = entry
            if entry.is_package:  # a package wins over a module of its name, as Python's finder has it
                self._modules[entry.folder] = entry
            elif absolute.suffix != ".ipynb":  # a notebook imports modules; none imports it
                self._modules.setdefault(os.path.splitext(str(absolute))[0], entry)
            if base is not None:
                found.add(base)
            folder = entry.folder
            while folder not in self._folders:
                self._folders.add(folder)
                if os.path.basename(folder) == "src" and not self._is_package(folder):
                    found.add(folder)
                above = os.path.dirname(folder)
                if above == folder:
                    break
                folder = above
        declared = {str(self.root), *(str(resolved(r)) for r in roots)} | ({os.path.join(self.root, "src")} & found)
        #: The roots every file imports from (for ``--show-settings``), in order.
        self.roots: tuple[Path, ...] = tuple(Path(root) for root in sorted(declared | found))
        self._declared = frozenset(declared)
        #: The roots each first name can be found in: ``top -> roots``.
        self._tops: dict[str, set[str]] = {}
        inside = [os.path.split(folder) for folder in self._folders]
        inside += [(m.folder, m.path.stem.split(".")[0]) for m in self.by_path.values() if not m.is_package]
        for root, top in inside:
            if root in declared or root in found:
                self._tops.setdefault(top, set()).add(root)

    def _is_package(self, folder: str) -> bool:
        known = self._packages.get(folder)
        if known is None:
            known = self._packages[folder] = os.path.isfile(os.path.join(folder, "__init__.py"))
        return known

    def _describe(self, path: Path) -> tuple[ModuleFile, str | None]:
        """The file's entry (named from its outermost package), and the folder that
        holds that package (None for a file in no package)."""
        is_package = path.name == "__init__.py"
        parts = [] if is_package else [path.stem]
        here = folder = os.path.dirname(str(path))
        while self._is_package(folder):
            above = os.path.dirname(folder)
            if above == folder:
                break
            parts.insert(0, os.path.basename(folder))
            folder = above
        base = folder if folder != here else None
        return ModuleFile(".".join(parts) or os.path.basename(here), path, is_package), base

    def name_of(self, path: Path) -> str | None:
        entry = self.by_path.get(resolved(path))
        return entry.name if entry else None

    def entry(self, path: Path) -> ModuleFile | None:
        return self.by_path.get(resolved(path))

    def _find(self, parts: list[str], roots: list[str]) -> ModuleFile | None:
        """The module ``parts`` names in the first of ``roots`` that has a regular module
        or package of its first name, else in any of them (namespace folders), the nearest first."""
        regular = [root for root in roots if os.path.join(root, parts[0]) in self._modules]
        for root in regular[:1] or roots:
            module = self._modules.get(os.path.join(root, *parts))
            if module is not None:
                return module
        return None

    def _roots_for(self, top: str, here: str) -> list[str]:
        """The roots that hold a module or folder named ``top`` for code in the folder
        ``here``, the nearest first."""
        key = (top, here)
        found = self._searched.get(key)
        if found is not None:
            return found
        external = top in self._external
        candidates = {r for r in self._tops.get(top, ()) if not external or r in self._declared}
        folder = here
        while not external:
            below = os.path.join(folder, top)
            if not self._is_package(folder) and (below in self._modules or below in self._folders):
                candidates.add(folder)
            above = os.path.dirname(folder)
            if above == folder:
                break
            folder = above
        anchor = self._split(here)
        found = self._searched[key] = sorted(
            candidates, key=lambda r: (-_shared(self._split(r), anchor), len(self._split(r)), r)
        )
        return found

    def _split(self, folder: str) -> tuple[str, ...]:
        parts = self._parts.get(folder)
        if parts is None:
            parts = self._parts[folder] = tuple(folder.split(os.sep))
        return parts

    def resolve(self, target: str, importer: ModuleFile) -> tuple[ModuleFile, str] | None:
        """The project module ``target`` (an absolute or relative dotted import) names, and
        what remains of it (``pkg.client.PricingClient`` -> (pkg.client, ``PricingClient``))."""
        relative = target.startswith(".")
        key = (target, importer.package_folder if relative else importer.folder)  # the same answer for a folder
        if key not in self._answers:
            self._answers[key] = self._relative(target, importer.package_folder) if relative else self._absolute(target, importer.folder)
        return self._answers[key]

    def _absolute(self, dotted_name: str, here: str) -> tuple[ModuleFile, str] | None:
        parts = dotted_name.split(".")
        roots = self._roots_for(parts[0], here)
        for end in range(len(parts), 0, -1):
            module = self._find(parts[:end], roots)
            if module is not None:
                return module, ".".join(parts[end:])
        return None

    def _relative(self, target: str, package: str) -> tuple[ModuleFile, str] | None:
        """``.client.X`` from ``pkg/`` -> (``pkg/client.py``, ``X``), by path: the same with
        or without ``__init__.py`` files."""
        rest = target.lstrip(".")
        for _ in range(len(target) - len(rest) - 1):
            package = os.path.dirname(package)
        parts = rest.split(".") if rest else []
        for end in range(len(parts), -1, -1):
            module = self._modules.get(os.path.join(package, *parts[:end]))
            if module is not None and (end or module.is_package):
                return module, ".".join(parts[end:])
        return None

    def imports_of(self, statements: Iterable[Statement], importer: ModuleFile) -> set[Path]:
        """The project files ``statements`` (a file's :func:`import_statements`) import: read
        from its bytes without parsing, a superset (an import inside a string counts too)."""
        found: set[Path] = set()
        for statement in statements:
            # A statement means the same in every file of one folder and package.
            key = (importer.folder, importer.package_folder, statement[0])
            targets = self._statements.get(key)
            if targets is None:
                targets = self._statements[key] = self._statement_targets(statement, importer)
            found |= targets
        found.discard(importer.path)
        return found

    def _statement_targets(self, statement: Statement, importer: ModuleFile) -> frozenset[Path]:
        _, base, names, modules = statement
        found: set[Path] = set()
        if base is not None:
            base = base.decode("ascii", "replace")
            for name in _names((names or b"").decode("utf-8", "replace").strip("() \t")):
                for target in (f"{base}.{name}" if not base.endswith(".") else f"{base}{name}", base):
                    module = self.resolve(target, importer) if target.strip(".") or target.startswith(".") else None
                    if module is not None:
                        found.add(module[0].path)
                        break
        else:
            for name in _names((modules or b"").decode("utf-8", "replace")):
                module = self.resolve(name, importer)
                if module is not None:
                    found.add(module[0].path)
        return frozenset(found)


#: An import statement as :func:`import_statements` finds it: its text, and its ``from``
#: module, imported names and imported modules (None where the statement has none).
Statement = tuple[bytes, Optional[bytes], Optional[bytes], Optional[bytes]]


def import_statements(data: bytes) -> tuple[Statement, ...]:
    """The import statements of a file's bytes (what :meth:`ModuleIndex.imports_of` reads),
    plain values that can be kept for a file that does not change."""
    return tuple((m.group(0), m.group("from"), m.group("names"), m.group("modules")) for m in _import_statements(data))


def _import_statements(data: bytes) -> Iterator[re.Match]:
    """``_IMPORT.finditer(data)``, found faster: every statement has the word ``import`` on
    its first line, and a search for that word skips the lines that have none."""
    find, end = data.find, 0
    at = find(b"import")
    while at != -1:
        start = max(data.rfind(b"\n", 0, at), data.rfind(b"\r", 0, at)) + 1
        match = _IMPORT.match(data, start) if start >= end else None
        if match is not None:
            end = match.end()
            yield match
        after = min((found for found in (data.find(b"\n", at), data.find(b"\r", at)) if found != -1), default=-1)
        at = find(b"import", after) if after != -1 else -1


def _names(text: str) -> list[str]:
    """``a as b, c`` -> ``["a", "c"]``."""
    return [part.split()[0] for part in text.replace("\n", " ").replace("\\", " ").split(",") if part.split()]


def _shared(a: tuple[str, ...], b: tuple[str, ...]) -> int:
    count = 0
    for x, y in zip(a, b):
        if x != y:
            break
        count += 1
    return count


@dataclass
class ImportGraph:
    """Which project files import which, from their bytes."""

    imports: dict[Path, set[Path]] = field(default_factory=dict)
    importers: dict[Path, set[Path]] = field(default_factory=dict)

    @classmethod
    def scan(cls, index: ModuleIndex, imports_of: Callable[[Path, ModuleFile], set[Path]]) -> "ImportGraph":
        """The graph of ``index``'s files; ``imports_of(path, entry)``: what a file imports
        (:meth:`ModuleIndex.imports_of` its import statements)."""
        graph = cls()
        for path, entry in index.by_path.items():
            targets = imports_of(path, entry)
            graph.imports[path] = targets
            for target in targets:
                graph.importers.setdefault(target, set()).add(path)
        return graph

    def users(self, path: Path) -> set[Path]:
        """The files that can call what the file at ``path`` defines: those within ``REACH``
        imports above it, as each module passes on what it imports (``from relaykit import
        open_peer``, where ``relaykit/__init__.py`` imports it from ``relaykit/session.py``;
        ``from tools import hand_off``, where ``tools.py`` imports it from its own module)."""
        return self._within_reach(path, self.importers)

    def used(self, path: Path) -> set[Path]:
        """The files whose definitions the file at ``path`` can call: those within ``REACH``
        imports below it (the other way round from :meth:`users`)."""
        return self._within_reach(path, self.imports)

    @staticmethod
    def _within_reach(path: Path, edges: dict[Path, set[Path]]) -> set[Path]:
        found: set[Path] = set()
        frontier = [path]
        for _ in range(REACH):
            frontier = [i for p in frontier for i in edges.get(p, ()) if i not in found and i != path]
            found.update(frontier)
        return found

    def around(self, seeds: Iterable[Path], hops: int | None = None) -> set[Path]:
        """The files within ``hops`` imports of ``seeds``, both ways (what they import, what
        imports them; every connected file when ``hops`` is None): the code that can hand
        A2A values to the seeds or take them from them."""
        found = set(seeds)
        frontier = list(found)
        while frontier and (hops is None or hops > 0):
            following = []
            for path in frontier:
                for other in (*self.imports.get(path, ()), *self.importers.get(path, ())):
                    if other not in found:
                        found.add(other)
                        following.append(other)
            frontier = following
            hops = None if hops is None else hops - 1
        return found


class Project:
    """The modules an analysis can see: the checked ones, and the rest of the project,
    loaded when a question reaches them (from the cache, or parsed)."""

    def __init__(
        self,
        index: ModuleIndex | None = None,
        graph: ImportGraph | None = None,
        load: Callable[[Path], "object | None"] | None = None,
    ) -> None:
        self.index = index
        self.graph = graph or ImportGraph()
        self._load = load
        self._models: dict[Path, object | None] = {}
        self._loaded: list | None = None
        self._reach: dict[Path, set[Path]] = {}
        self._near_ids: dict[int, tuple[int, set[int]]] = {}  # id(model) -> (modules loaded, near_ids)
        self._entries: dict[int, ModuleFile] = {}  # id(model) -> its file
        self._importers_loaded: set[tuple[Path, str]] = set()
        #: Places facts of other modules: ``(model, fact) -> Related`` (set by the engine).
        self.locator = None
        #: Whether a file's text names something (``(path, name) -> bool``, set by the engine):
        #: the modules a question must read are found without parsing the others.
        self.mentions = None

    @classmethod
    def of(cls, model, path: Path | None = None) -> "Project":
        """A project of one module (a file checked on its own, a rule example)."""
        path = resolved(path or Path(model.path))
        project = cls(ModuleIndex(path.parent, [path]))
        project.add(model, path)
        return project

    def release(self) -> None:
        """Let go of the run that reads modules for it, and of the modules it holds."""
        self._load = self.locator = self.mentions = None
        self._models, self._loaded = {}, None

    def add(self, model, path: Path) -> None:
        path = resolved(path)
        self._models[path] = model
        self._loaded = None
        entry = self.index.entry(path) if self.index is not None else None
        if entry is None:
            entry = ModuleFile(Path(path).stem, path, path.name == "__init__.py")
        self._entries[id(model)] = entry
        model.name = entry.name

    def replaced(self, model, path: Path) -> "Project":
        """This project with ``model`` as the module at ``path`` (a fixed text, an edited buffer)."""
        other = Project(self.index, self.graph, self._load)
        other._models = dict(self._models)
        other._entries = dict(self._entries)
        other._importers_loaded = set(self._importers_loaded)
        other._reach = self._reach
        other.locator, other.mentions = self.locator, self.mentions
        model.in_project = getattr(self.loaded(path), "in_project", False)
        other.add(model, path)
        return other

    def loaded(self, path: Path):
        """The module at ``path`` when it is loaded (never loaded by asking)."""
        return self._models.get(resolved(path))

    def locate(self, model, fact) -> "object":
        """Where ``fact`` (of ``model``, another module) is: a ``Related`` without a label."""
        if self.locator is None:
            from a2alint.diagnostics import Related

            return Related(getattr(model, "path", "?"), 1, 1, "")
        return self.locator(model, fact)

    def near(self, model, other) -> bool:
        """Whether ``other`` is within ``REACH`` imports of ``model`` (either way)."""
        mine, theirs = self.entry(model), self.entry(other)
        if mine is None or theirs is None:
            return True  # a module the index does not place (yet): nothing to go by
        return theirs.path in self._reach_of(mine.path)  # (not kept by pair: 500,000 pairs at 2,000 modules)

    def near_ids(self, model) -> set[int] | None:
        """The ids of the loaded modules within ``REACH`` of ``model`` (what :meth:`near`
        says yes to, ``model`` included), or None when the index does not place it (all of
        them are). A question asked of every module by name reads these, not every module
        that uses the name: in a large project that is the difference between linear and
        quadratic."""
        mine = self.entry(model)
        if mine is None:
            return None
        loaded = len(self.models())
        known = self._near_ids.get(id(model))
        if known is not None and known[0] == loaded:
            return known[1]
        found = {id(m) for path in self._reach_of(mine.path) if (m := self._models.get(path)) is not None}
        found.add(id(model))
        self._near_ids[id(model)] = (loaded, found)
        return found

    def _reach_of(self, path: Path) -> set[Path]:
        """The modules within ``REACH`` imports of the one at ``path`` (either way), kept."""
        reach = self._reach.get(path)
        if reach is None:
            reach = self._reach[path] = self.graph.around([path], REACH)
        return reach

    def models(self) -> list:
        """The modules loaded so far (a list kept until one more is loaded)."""
        if self._loaded is None:
            self._loaded = [m for m in self._models.values() if m is not None]
        return self._loaded

    def entry(self, model) -> ModuleFile | None:
        return self._entries.get(id(model))

    def model_at(self, path: Path):
        path = resolved(path)
        if path not in self._models:
            self._models[path] = None
            loaded = self._load(path) if self._load is not None else None
            if loaded is not None:
                self.add(loaded, path)
        return self._models.get(path)

    def module(self, target: str, importer) -> tuple[object, str] | None:
        """The project module an import of ``importer`` names, and the rest of the name."""
        entry = self.entry(importer)
        if entry is None or self.index is None:
            return None
        found = self.index.resolve(target, entry)
        if found is None:
            return None
        model = self.model_at(found[0].path)
        return (model, found[1]) if model is not None else None

    def importers(self, model, names: Iterable[str] = ()) -> list:
        """Load the modules that use ``model`` (:meth:`ImportGraph.users`) and whose text
        names one of ``names`` (the callers a question looks for can only be there); the
        models loaded."""
        entry = self.entry(model)
        if entry is None:
            return self.models()
        for name in names:
            if (entry.path, name) in self._importers_loaded:
                continue
            self._importers_loaded.add((entry.path, name))
            for path in sorted(self.graph.users(entry.path)):
                if resolved(path) in self._models:
                    continue  # loaded already (or known not to load): its words need no scan
                if self.mentions is None or self.mentions(path, name):
                    self.model_at(path)
        return self.models()
