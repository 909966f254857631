"""The checked project: which module each file is, what its imports resolve to, and
which files can matter to an A2A analysis.

A project is the Python files under one root (the config file's folder, or the
folder checked). Each file has the dotted names Python can import it by: its path
from the root (or from ``root/src``), through folders with or without
``__init__.py`` (namespace packages); and, for a file in a package below the root,
the name from its outermost package, which only code in the folder holding that
package can use (a sample or a service run from its own folder). A folder named like
a package the API model knows (``a2a``, ``httpx``) is that package for its importers
only by its path from the root: ``from a2a.client import`` in a service that keeps its
own ``clients/a2a/`` is the SDK. An import that names no module of the project stays
opaque: it is never guessed from its text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator, Optional

from a2alint.paths import resolved

#: ``import a.b as c``, ``from .x import (y, z)``: the module part and the names, on bytes.
_IMPORT = re.compile(
    rb"^[ \t]*(?:from[ \t]+(?P<from>\.*[\w.]*)[ \t]+import[ \t]+(?P<names>\([^)]*\)|[^\r\n#;]*)"
    rb"|import[ \t]+(?P<modules>[^\r\n#;]*))",
    re.MULTILINE,
)


#: How far (in imports, either way) a module's code can reach another's: a caller, a
#: store into its objects, a subclass sit at most this far from it. The engine reads no
#: module farther than this from A2A code either.
REACH = 2


@dataclass
class ModuleFile:
    name: str
    path: Path
    is_package: bool  # an __init__.py: its relative imports start from itself
    #: Other names it can be imported by (its path from the root, for namespace packages).
    aliases: tuple[str, ...] = ()
    #: The folder ``name`` counts from: only code below it imports the file by ``name``
    #: (unless ``name`` is also an alias).
    base: Path | None = None

    def __post_init__(self) -> None:
        #: Its folder, as text: a key for what the imports of the files there resolve to.
        self.folder = str(self.path.parent)

    @property
    def package(self) -> str:
        """The package its relative imports start from (``pkg`` for ``pkg/__init__.py`` and
        ``pkg/client.py``; a file named ``conf.local.py`` counts its own dotted name)."""
        return self.name if self.is_package else self.name.rpartition(".")[0]


class ModuleIndex:
    """Files of a project by module name, and module names by file."""

    def __init__(self, root: Path, files: Iterable[Path], external: Iterable[str] = ()) -> None:
        self.root = resolved(root)
        self.by_path: dict[Path, ModuleFile] = {}
        self.by_name: dict[str, list[ModuleFile]] = {}
        self._answers: dict[tuple[str, str], tuple[ModuleFile, str] | None] = {}
        self._statements: dict[tuple[str, str, bytes], frozenset[Path]] = {}
        external = frozenset(external)
        packages: dict[Path, bool] = {}
        for path in files:
            absolute = resolved(path)
            entry = self._describe(absolute, packages)
            self.by_path[absolute] = entry
            names = set(entry.aliases)
            if entry.name.split(".")[0] not in external or entry.name in names:
                names.add(entry.name)
            for name in names:
                self.by_name.setdefault(name, []).append(entry)

    def _describe(self, path: Path, packages: dict[Path, bool]) -> ModuleFile:
        def is_package(folder: Path) -> bool:
            known = packages.get(folder)
            if known is None:
                known = packages[folder] = (folder / "__init__.py").is_file()
            return known

        parts = [] if path.name == "__init__.py" else [path.stem]
        folder = path.parent
        while is_package(folder) and folder != folder.parent:
            parts.insert(0, folder.name)
            folder = folder.parent
        name = ".".join(parts) or path.parent.name
        aliases: list[str] = []
        try:
            relative = path.relative_to(self.root).with_suffix("")
        except ValueError:
            relative = None
        if relative is not None:
            pieces = list(relative.parts)
            if pieces and pieces[-1] == "__init__":
                pieces.pop()
            if pieces and pieces[0] == "src":
                aliases.append(".".join(pieces[1:]))
            aliases.append(".".join(pieces))
        return ModuleFile(name, path, path.name == "__init__.py", tuple(a for a in aliases if a), folder)

    def name_of(self, path: Path) -> str | None:
        entry = self.by_path.get(resolved(path))
        return entry.name if entry else None

    def entry(self, path: Path) -> ModuleFile | None:
        return self.by_path.get(resolved(path))

    def find(self, name: str, near: Path | None = None) -> ModuleFile | None:
        """The module a dotted name imports, the one nearest ``near`` when several answer."""
        found = [m for m in self.by_name.get(name, ()) if self._importable(m, name, near)]
        if not found:
            return None
        if len(found) == 1 or near is None:
            return found[0]
        anchor = resolved(near).parts
        return max(found, key=lambda m: (_shared(m.path.parts, anchor), -len(m.path.parts)))

    @staticmethod
    def _importable(module: ModuleFile, name: str, near: Path | None) -> bool:
        """``name`` reaches ``module`` from code at ``near``: by its path from the root, or
        by its package name from below the folder that package sits in."""
        if name in module.aliases or near is None or module.base is None:
            return True
        return module.base in near.parents

    def absolute(self, target: str, importer: ModuleFile) -> str:
        """``.client.X`` imported by ``pkg.remote`` -> ``pkg.client.X``."""
        if not target.startswith("."):
            return target
        dots = len(target) - len(target.lstrip("."))
        rest = target[dots:]
        package = importer.package.split(".") if importer.package else []
        if dots > 1:
            package = package[: len(package) - (dots - 1)] if dots - 1 <= len(package) else []
        return ".".join([*package, rest] if rest else package) if package or rest else rest

    def resolve(self, target: str, importer: ModuleFile) -> tuple[ModuleFile, str] | None:
        """The project module ``target`` (an absolute or relative dotted import) names, and
        what remains of it (``pkg.client.PricingClient`` -> (pkg.client, ``PricingClient``))."""
        dotted_name = self.absolute(target, importer)
        key = (dotted_name, importer.folder)  # the same answer for every file of a folder
        if key not in self._answers:
            self._answers[key] = self._resolve(dotted_name, importer.path)
        return self._answers[key]

    def _resolve(self, dotted_name: str, near: Path) -> tuple[ModuleFile, str] | None:
        parts = dotted_name.split(".")
        for end in range(len(parts), 0, -1):
            module = self.find(".".join(parts[:end]), near)
            if module is not None:
                return module, ".".join(parts[end:])
        return None

    def imports_of(self, statements: Iterable[Statement], importer: ModuleFile) -> set[Path]:
        """The project files ``statements`` (a file's :func:`import_statements`) import: read
        from its bytes without parsing, a superset (an import inside a string counts too)."""
        found: set[Path] = set()
        for statement in statements:
            # A statement means the same in every file of one folder and package.
            key = (importer.folder, importer.package, statement[0])
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
        start = data.rfind(b"\n", 0, at) + 1
        match = _IMPORT.match(data, start) if start >= end else None
        if match is not None:
            end = match.end()
            yield match
        after = data.find(b"\n", at)
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
        self._near: dict[tuple[int, int], bool] = {}  # (id(model), id(other)) -> within reach
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
        model.in_project = getattr(self._models.get(resolved(path)), "in_project", False)
        other.add(model, path)
        return other

    def locate(self, model, fact) -> "object":
        """Where ``fact`` (of ``model``, another module) is: a ``Related`` without a label."""
        if self.locator is None:
            from a2alint.diagnostics import Related

            return Related(getattr(model, "path", "?"), 1, 1, "")
        return self.locator(model, fact)

    def near(self, model, other) -> bool:
        """Whether ``other`` is within ``REACH`` imports of ``model`` (either way)."""
        pair = (id(model), id(other))
        found = self._near.get(pair)
        if found is not None:
            return found
        mine, theirs = self.entry(model), self.entry(other)
        if mine is None or theirs is None:
            return True  # a module the index does not place (yet): nothing to go by
        found = self._near[pair] = theirs.path in self._reach_of(mine.path)
        return found

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
        """Load the modules that import ``model`` and whose text names one of ``names``
        (the callers a question looks for can only be there); the models loaded."""
        entry = self.entry(model)
        if entry is None:
            return self.models()
        for name in names:
            if (entry.path, name) in self._importers_loaded:
                continue
            self._importers_loaded.add((entry.path, name))
            for path in sorted(self.graph.importers.get(entry.path, ())):
                if resolved(path) in self._models:
                    continue  # loaded already (or known not to load): its words need no scan
                if self.mentions is None or self.mentions(path, name):
                    self.model_at(path)
        return self.models()
