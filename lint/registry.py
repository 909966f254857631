"""Every rule a run knows: the modules of ``a2alint.rules`` and the ``a2alint.rules`` entry points."""

from __future__ import annotations

import ast
import contextlib
import importlib
import importlib.machinery
import importlib.util
import os
import pkgutil
import re
import sys
from dataclasses import dataclass
from functools import lru_cache
from types import ModuleType
from typing import TYPE_CHECKING, Iterable, Iterator, TypeVar, Union

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

from a2alint.deadline import OverTime, time_limit
from a2alint.rule import Rule

GROUP = "a2alint.rules"
#: How long importing one plug-in may take (a plug-in's import may import heavy
#: libraries): past it, the plug-in is refused (see :mod:`a2alint.deadline`).
PLUGIN_IMPORT_SECONDS = 60.0
CODE = re.compile(r"[A-Z]{1,4}[0-9]{3}")
NAME = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")


class RegistryError(Exception):
    """A rule that cannot be registered, named with where it comes from: the command refuses to run."""


@dataclass(frozen=True)
class RulePage:
    """What ``a2alint rule`` shows of a built-in rule, read from its module's source:
    importing the module would import the engine (and libcst) it checks with."""

    code: str
    name: str
    severity: str
    preview: bool
    opt_in: bool
    fix_availability: str
    doc: str

    def summary(self) -> str:
        return self.doc.splitlines()[0]

    def documentation(self) -> str:
        return self.doc


#: A rule as ``a2alint rule`` shows it: its page, or (a plug-in's) its class.
Described = Union[RulePage, type[Rule]]
_Found = TypeVar("_Found", RulePage, type[Rule])


def _rules_in(module: object) -> list[type[Rule]]:
    return [
        value
        for value in vars(module).values()
        if isinstance(value, type) and issubclass(value, Rule) and value is not Rule and "code" in vars(value)
    ]


def _builtin_modules() -> list[str]:
    import a2alint.rules as package

    return [f"{package.__name__}.{info.name}" for info in pkgutil.iter_modules(package.__path__)]


@lru_cache(maxsize=1)
def load_rules() -> dict[str, type[Rule]]:
    """``code -> rule class`` for the built-in rules and installed plug-ins, sorted by code."""
    found = [(name, rule) for name in _builtin_modules() for rule in _rules_in(importlib.import_module(name))]
    return _registered([*found, *_plugin_rules()])


@lru_cache(maxsize=1)
def rule_pages() -> dict[str, Described]:
    """``code -> rule`` as :func:`load_rules` has them, for showing: the built-in rules read
    from their source (a module whose rule fields are not plain literals is imported),
    the plug-ins loaded."""
    found: list[tuple[str, Described]] = []
    for name in _builtin_modules():
        spec = importlib.util.find_spec(name)
        source = spec.loader.get_source(name) if spec is not None and spec.loader is not None else None
        pages = pages_in_source(source) if source is not None else None
        rules = pages if pages is not None else _rules_in(importlib.import_module(name))
        found += [(name, rule) for rule in rules]
    return _registered([*found, *_plugin_rules()])


_FIELDS = ("code", "name", "severity", "preview", "opt_in", "fix_availability")


def pages_in_source(source: str) -> list[RulePage] | None:
    """The pages of the rule classes a rule module's source defines (classes of ``Rule`` that
    set ``code``), or None when a field is not a literal or a class derives from another one:
    then only the class itself can tell."""
    pages = []
    for node in ast.parse(source).body:
        if not isinstance(node, ast.ClassDef):
            continue
        fields = {
            target.id: statement.value
            for statement in node.body
            if isinstance(statement, ast.Assign)
            for target in statement.targets
            if isinstance(target, ast.Name) and target.id in _FIELDS
        }
        if "code" not in fields:
            continue
        if [ast.unparse(base) for base in node.bases] != ["Rule"] or "name" not in fields:
            return None
        try:
            values = {field: ast.literal_eval(value) for field, value in fields.items()}
        except ValueError:
            return None
        defaults = {field: getattr(Rule, field) for field in ("severity", "preview", "opt_in", "fix_availability")}
        pages.append(RulePage(**{**defaults, **values}, doc=ast.get_docstring(node) or ""))
    return pages


def _plugin_rules() -> Iterator[tuple[str, type[Rule]]]:
    """The rule classes of each installed entry point, named by their distribution and entry
    point. One that fails to import or provides no rule is a :class:`RegistryError`."""
    if not _may_declare_plugins():
        return
    from importlib.metadata import entry_points

    for entry in entry_points(group=GROUP):
        where = _plugin(entry)
        inside = _checked_file(entry.module)
        if inside is not None:
            raise RegistryError(
                f"{where}: refused: its module would be imported from {inside}, the code being checked "
                "(a2alint never runs it; is the current directory on PYTHONPATH?)"
            )
        try:
            # a print() at import must not corrupt a report, nor a hang hang the run
            with contextlib.redirect_stdout(sys.stderr), time_limit(PLUGIN_IMPORT_SECONDS):
                loaded = entry.load()
        except OverTime:
            limit = f"{PLUGIN_IMPORT_SECONDS:g} s"
            raise RegistryError(f"{where}: cannot be imported: it ran past the time limit of {limit} for a plug-in's import, and was stopped") from None
        except (Exception, SystemExit) as error:  # whatever the plug-in's import raises, an exit too
            raise RegistryError(f"{where}: cannot be imported: {type(error).__name__}: {error}") from None
        if isinstance(loaded, ModuleType):
            rules = _rules_in(loaded)
        else:
            rules = [loaded] if isinstance(loaded, type) and issubclass(loaded, Rule) and loaded is not Rule else []
        if not rules:
            raise RegistryError(f"{where}: provides no a2alint rule (a subclass of a2alint.rule.Rule, or a module of them)")
        yield from ((where, rule) for rule in rules)


#: The real paths of the folders and files a command checks: no plug-in is imported from
#: inside them (see :func:`refuse_plugins_from`).
_checked: tuple[str, ...] = ()


def refuse_plugins_from(paths: Iterable[str | os.PathLike]) -> None:
    """Refuse a plug-in whose module would be imported from inside ``paths`` (what the
    command checks), before the rules are loaded: with the current directory on
    ``sys.path`` (``PYTHONPATH=.``), a repository could ship a module named like an
    installed plug-in, or declare one, and have a2alint run it."""
    global _checked
    _checked = tuple(os.path.realpath(path) for path in paths)


def _checked_file(module: str) -> str | None:
    """Where ``module``'s top-level package would be imported from, when that is the code
    being checked: a module of the current directory itself (the repository's top folder,
    found there through ``PYTHONPATH=.``) or one inside the paths checked, unless it is
    installed in this interpreter's site-packages (a project's ``.venv``). Found without
    running any of it."""
    try:
        spec = importlib.util.find_spec(module.partition(".")[0])
    except (ImportError, ValueError):
        return None  # the import fails, and says why
    places = [*(spec.submodule_search_locations or ()), *([spec.origin] if spec.has_location else [])] if spec else []
    here = os.path.realpath(os.curdir)
    for place in places:
        real = os.path.realpath(place)
        if (os.path.dirname(real) == here or _inside(real, _checked)) and not _inside(real, _site_packages()):
            return place
    return None


def _inside(path: str, folders: Iterable[str]) -> bool:
    return any(path == folder or path.startswith(folder.rstrip(os.sep) + os.sep) for folder in folders)


def _site_packages() -> list[str]:
    import site
    import sysconfig

    folders = [*site.getsitepackages(), site.getusersitepackages(), *(sysconfig.get_paths()[k] for k in ("purelib", "platlib"))]
    return [os.path.realpath(folder) for folder in folders]


def _may_declare_plugins() -> bool:
    """Whether an installed distribution may declare an entry point of :data:`GROUP`, told
    without importing :mod:`importlib.metadata` (with what it imports, a tenth of a
    pre-commit run before any file is read). Its finder reads the ``entry_points.txt`` of
    the ``*.dist-info`` and ``*.egg-info`` folders of each folder on ``sys.path`` (and an
    egg's ``EGG-INFO``); a file that does not name the group declares nothing in it.
    Metadata that could come from anywhere else (a zip on the path, a finder of its own on
    ``sys.meta_path``) counts as a yes."""
    if any(
        hasattr(finder, "find_distributions") and finder is not importlib.machinery.PathFinder for finder in sys.meta_path
    ):
        return True
    for entry in sys.path:
        folder = entry or "."
        try:
            children = os.listdir(folder)
        except NotADirectoryError:
            return True  # a zip archive: its metadata is read another way
        except OSError:
            continue  # a folder that does not exist holds nothing
        for child in children:
            low = child.lower()
            if low.endswith((".dist-info", ".egg-info")) or (low == "egg-info" and folder.lower().endswith(".egg")):
                try:
                    with open(os.path.join(folder, child, "entry_points.txt"), "rb") as stream:
                        if GROUP.encode() in stream.read():
                            return True
                except OSError:  # no entry points (or an ``.egg-info`` file): nothing declared
                    pass
    return False


def _plugin(entry: "EntryPoint") -> str:
    dist = getattr(entry, "dist", None)
    installed = f"plug-in {dist.name} {dist.version}" if dist is not None else "a plug-in"
    return f"{installed} (entry point '{entry.name} = {entry.value}' in group {GROUP})"


def _registered(found: list[tuple[str, _Found]]) -> dict[str, _Found]:
    """``found`` (where each rule comes from, and the rule) by code, sorted; a code or name
    of the wrong form, or a code two rules claim, is a :class:`RegistryError`."""
    registry: dict[str, _Found] = {}
    origin: dict[str, str] = {}
    for where, rule in found:
        code, name = getattr(rule, "code", None), getattr(rule, "name", None)
        if not isinstance(code, str) or not CODE.fullmatch(code):
            raise RegistryError(f"{where}: rule code {code!r} is not 1 to 4 capital letters and 3 digits (such as XY123)")
        if not isinstance(name, str) or not NAME.fullmatch(name):
            raise RegistryError(f"{where}: rule name {name!r} of {code} is not lower-case words joined by '-'")
        if code in registry and registry[code] is not rule:
            raise RegistryError(f"{where}: its rule {name} claims {code}, which is {registry[code].name} of {origin[code]}")
        registry[code], origin[code] = rule, where
    return dict(sorted(registry.items()))


def severity_label(rule: Described) -> str:
    """``warning``, ``warning, preview``, ``warning, opt-in``: how the rule list and the
    README's table show a rule's severity and when it runs."""
    return rule.severity + (", preview" if rule.preview else "") + (", opt-in" if rule.opt_in else "")


def markdown_table(registry: dict[str, Described]) -> str:
    """The README's rule table (a test keeps the README in step with the registry)."""
    rows = ["| Code | Name | Severity | What it flags |", "| --- | --- | --- | --- |"]
    for rule in registry.values():
        rows.append(f'| <a id="{rule.code}"></a>{rule.code} | `{rule.name}` | {severity_label(rule)} | {rule.summary()} |')
    return "\n".join(rows) + "\n"
