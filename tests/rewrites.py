"""Semantics-preserving rewrites of the cases a2alint is tested on (issue 25, section 5).

Every rule example and every case of ``tests/corpus/`` is a :class:`Case`: its modules
(relative path -> source), how it is checked (one file with ``lint_source``, several as a
project with ``lint_project``) and which rules run. A rewrite takes a case and returns
the rewritten case and how findings map through it, or ``None`` where it cannot apply.
"""

from __future__ import annotations

import builtins
import io
import re
import textwrap
from collections import Counter
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Callable

import libcst as cst
import libcst.helpers

from a2alint.apimodel import METHOD_ROLES
from a2alint.registry import load_rules
from a2alint.rule import Files, Invalid
from a2alint.runner import lint_project, lint_source

TESTS = Path(__file__).parent
CORPUS = TESTS / "corpus"
RULES = load_rules()

Finding = tuple[str, int, str]  # path, line, code


def same_place(path: str, line: int) -> str:
    return path


@dataclass(frozen=True)
class Case:
    name: str
    sources: dict[str, str]
    #: Rules to run (None: the defaults).
    select: tuple[str, ...] | None = None
    #: Checked as a project (several modules) rather than one file.
    project: bool = False

    def findings(self) -> list[Finding]:
        """What a2alint reports on the case, sorted."""
        if self.project:
            results = lint_project(self.sources, select=self.select)
        else:
            [(path, text)] = self.sources.items()
            results = {path: lint_source(text, path=path, select=self.select)}
        found = []
        for path, result in results.items():
            assert result.errors == [], (self.name, path, result.errors)
            found += [(path, d.line, d.code) for d in result.diagnostics]
        return sorted(found)


@dataclass(frozen=True)
class Rewritten:
    """A rewritten case, and where a finding of the original case is expected in it."""

    case: Case
    #: (path, line) of the original -> path in the rewritten case
    relocate: Callable[[str, int], str] = same_place
    #: lines are kept (a finding maps to the same line)
    exact: bool = False


def rule_cases():
    """Each analysis rule's VALID and INVALID examples, checked with that rule alone (the
    engine rules' examples are about the engine, not the analysis a rewrite tests)."""
    for code, rule in RULES.items():
        if rule.engine:
            continue
        for kind in ("VALID", "INVALID"):
            for index, example in enumerate(getattr(rule, kind)):
                name = f"{code}-{kind.lower()}-{index}"
                if isinstance(example, Files):
                    sources = {path: textwrap.dedent(text) for path, text in example.files.items()}
                    yield Case(name, sources, (code,), project=True)
                else:
                    text = example.source if isinstance(example, Invalid) else example
                    yield Case(name, {"example.py": textwrap.dedent(text)}, (code,))


def corpus_cases():
    """The corpus's single files (default rules) and its projects."""
    for path in sorted(CORPUS.glob("*.py")):
        yield Case(path.name, {path.name: path.read_text(encoding="utf-8")})
    for folder in sorted(p for p in (CORPUS / "projects").iterdir() if p.is_dir() and not p.name.startswith((".", "_"))):
        sources = {m.relative_to(folder).as_posix(): m.read_text(encoding="utf-8") for m in sorted(folder.rglob("*.py"))}
        yield Case(folder.name, sources, project=True)


def all_cases() -> list[Case]:
    return [*rule_cases(), *corpus_cases()]


# --- where a module lives in a case -------------------------------------------------------

#: Folders a case's imports are resolved from (its root, and a ``src/`` layout's).
ROOTS = ("", "src/")


def module_path(sources: dict[str, str], dotted: str) -> str | None:
    """The file of the project module ``dotted`` names, if the case holds it."""
    for root in ROOTS:
        base = root + dotted.replace(".", "/")
        for candidate in (base + ".py", base + "/__init__.py"):
            if candidate in sources:
                return candidate
    return None


def is_package(sources: dict[str, str], dotted: str) -> bool:
    """Whether ``dotted`` is a folder of the case (a package, with or without ``__init__``)."""
    return any(p.startswith(root + dotted.replace(".", "/") + "/") for p in sources for root in ROOTS)


def absolute(path: str, node: cst.ImportFrom) -> str:
    """The dotted module an ``import from`` in the module at ``path`` names."""
    module = cst.helpers.get_full_name_for_node(node.module) if node.module else ""
    if not node.relative:
        return module
    parts = path.split("/")[:-1]
    if parts and parts[0] == "src":
        parts = parts[1:]
    parts = parts[: len(parts) - (len(node.relative) - 1)] if len(node.relative) > 1 else parts
    return ".".join([*parts, module] if module else parts)


def first_party(sources: dict[str, str], dotted: str) -> bool:
    return bool(dotted) and (module_path(sources, dotted) is not None or is_package(sources, dotted))


# --- 1. rename ------------------------------------------------------------------------------

#: Decorators that leave a function's names to the code (others may read them: a tool's
#: schema, a route's endpoint name).
PLAIN_DECORATORS = {"staticmethod", "classmethod", "property", "dataclass", "cache", "lru_cache", "wraps"}
#: Names an annotation may wrap a class in.
TYPING_WRAPPERS = {"Optional", "None", "Union"}
BUILTINS = set(dir(builtins))


def dunder(name: str) -> bool:
    return name.startswith("__") and name.endswith("__")


def target_names(node: cst.BaseExpression):
    """The names an assignment target binds, and the attribute targets it sets."""
    if isinstance(node, cst.Name):
        yield node
    elif isinstance(node, (cst.Tuple, cst.List)):
        for element in node.elements:
            yield from target_names(element.value)
    elif isinstance(node, cst.StarredElement):
        yield from target_names(node.value)
    elif isinstance(node, cst.Attribute):
        yield node


def decorator_name(decorator: cst.Decorator) -> str:
    node = decorator.decorator.func if isinstance(decorator.decorator, cst.Call) else decorator.decorator
    return (cst.helpers.get_full_name_for_node(node) or "").rsplit(".", 1)[-1]


@dataclass
class Survey:
    """What a case's code binds, across its modules (pass one of the renaming)."""

    sources: dict[str, str]
    #: identifier -> kind of its first binding (f, C, m, a, v), in order of first binding
    bound: dict[str, str] = field(default_factory=dict)
    #: identifiers that must keep their name (bound by an import, a base class, ...)
    excluded: set[str] = field(default_factory=set)
    #: attribute names the code sets on its own objects (methods, fields, ``self.x``, modules)
    attrs: set[str] = field(default_factory=set)
    #: class name -> names of its bases; class name -> its members (methods, fields, params)
    bases: dict[str, list[str | None]] = field(default_factory=dict)
    members: dict[str, set[str]] = field(default_factory=dict)
    #: function or class name -> (its parameters or fields, whether it takes ``**kwargs``)
    params: dict[str, tuple[set[str], bool]] = field(default_factory=dict)
    #: module path -> names its imports bind to outside modules / to project modules
    foreign: dict[str, set[str]] = field(default_factory=dict)
    modules: dict[str, set[str]] = field(default_factory=dict)
    #: module path -> names bound at its top level
    top: dict[str, set[str]] = field(default_factory=dict)
    #: project modules imported as module objects
    imported_as_objects: set[str] = field(default_factory=set)
    #: classes with a base from outside (their members keep their names)
    foreign_based: set[str] = field(default_factory=set)

    def bind(self, name: str, kind: str) -> None:
        self.bound.setdefault(name, kind)

    def stem_renamed(self, path: str, mapping: dict[str, str]) -> str:
        folder, _, file = path.rpartition("/")
        stem = file[:-3]
        new = mapping.get(stem, stem) if not dunder(stem) else stem
        return f"{folder}/{new}.py" if folder else f"{new}.py"


class Definitions(cst.CSTVisitor):
    """Pass one over a module: what it binds, imports and defines."""

    def __init__(self, survey: Survey, path: str):
        self.survey, self.path = survey, path
        self.classes: list[str] = []
        self.functions: list[cst.FunctionDef] = []
        survey.foreign[path], survey.modules[path], survey.top[path] = set(), set(), set()

    def member(self, name: str) -> None:
        if self.classes:
            self.survey.members.setdefault(self.classes[-1], set()).add(name)

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.survey.bind(node.name.value, "C")
        self.member(node.name.value)
        if not self.functions and not self.classes:
            self.survey.top[self.path].add(node.name.value)
        bases = [cst.helpers.get_full_name_for_node(a.value) if not a.keyword else None for a in node.bases]
        self.survey.bases[node.name.value] = bases + [None] * len(node.keywords)
        fields = {s.body[0].target.value for s in node.body.body if isinstance(s, cst.SimpleStatementLine)
                  and isinstance(s.body[0], cst.AnnAssign) and isinstance(s.body[0].target, cst.Name)}
        init = [s for s in node.body.body if isinstance(s, cst.FunctionDef) and s.name.value == "__init__"]
        if not init:
            self.survey.params[node.name.value] = (fields, False)
        self.classes.append(node.name.value)

    def leave_ClassDef(self, node: cst.ClassDef) -> None:
        self.classes.pop()

    def in_class_body(self) -> bool:
        return bool(self.classes) and (not self.functions or self.functions[-1] is None)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        name = node.name.value
        method = self.in_class_body()
        self.survey.bind(name, "f")
        if method:
            self.survey.attrs.add(name)
            self.member(name)
        elif not self.functions and not self.classes:
            self.survey.top[self.path].add(name)
        parameters = node.params
        names = {p.name.value for p in [*parameters.posonly_params, *parameters.params, *parameters.kwonly_params]}
        if method:
            names -= {p.name.value for p in parameters.params[:1]}
        key = "__init__" if name == "__init__" and method else name
        target = self.classes[-1] if key == "__init__" else name
        previous, varkw = self.survey.params.get(target, (set(), False))
        self.survey.params[target] = (previous | names, varkw or isinstance(parameters.star_kwarg, cst.Param))
        if any(decorator_name(d) not in PLAIN_DECORATORS for d in node.decorators):
            self.survey.excluded |= names | {name}
        if method:
            for p in [*parameters.posonly_params, *parameters.params, *parameters.kwonly_params]:
                self.member(p.name.value)
        self.functions.append(node)

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.functions.pop()

    def visit_Param(self, node: cst.Param) -> None:
        self.survey.bind(node.name.value, "v")

    def store(self, target: cst.BaseExpression) -> None:
        for node in target_names(target):
            if isinstance(node, cst.Name):
                self.survey.bind(node.value, "v")
                if self.in_class_body():
                    self.survey.attrs.add(node.value)
                    self.member(node.value)
                elif not self.functions and not self.classes:
                    self.survey.top[self.path].add(node.value)
            elif self.functions and self.classes and isinstance(node.value, cst.Name):
                params = self.functions[-1].params.params
                if params and params[0].name.value == node.value.value:  # self.x = ... / cls.x = ...
                    self.survey.bind(node.attr.value, "a")
                    self.survey.attrs.add(node.attr.value)
                    self.member(node.attr.value)

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        self.store(node.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self.store(node.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self.store(node.target)

    def visit_For(self, node: cst.For) -> None:
        self.store(node.target)

    def visit_CompFor(self, node: cst.CompFor) -> None:
        self.store(node.target)

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if node.asname:
            self.store(node.asname.name)

    def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        if node.name:
            self.store(node.name.name)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self.store(node.target)

    def visit_Import(self, node: cst.Import) -> None:
        for alias in node.names:
            dotted = cst.helpers.get_full_name_for_node(alias.name)
            local = alias.asname.name.value if alias.asname else dotted.split(".")[0]
            if first_party(self.survey.sources, dotted):
                self.survey.modules[self.path].add(local)
                self.survey.imported_as_objects.add(dotted)
            else:
                self.survey.foreign[self.path].add(local)
                self.survey.excluded.add(local)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        dotted = absolute(self.path, node)
        if isinstance(node.names, cst.ImportStar):
            return
        for alias in node.names:
            name = alias.name.value
            local = alias.asname.name.value if alias.asname else name
            if first_party(self.survey.sources, dotted):
                if first_party(self.survey.sources, f"{dotted}.{name}"):
                    self.survey.modules[self.path].add(local)
                    self.survey.imported_as_objects.add(f"{dotted}.{name}")
                if alias.asname:
                    self.survey.bind(local, "v")
            elif dotted != "__future__":
                self.survey.foreign[self.path].add(local)
                self.survey.excluded |= {name, local}


def survey_of(sources: dict[str, str], trees: dict[str, cst.Module]) -> Survey:
    survey = Survey(sources)
    for path in sorted(trees):
        stem = path.rsplit("/", 1)[-1][:-3]
        if len(sources) > 1 and not dunder(stem):
            survey.bind(stem, "m")
            survey.attrs.add(stem)
        trees[path].visit(Definitions(survey, path))
    for dotted in survey.imported_as_objects:
        path = module_path(sources, dotted)
        survey.attrs |= survey.top.get(path, set())
    # a class whose base comes from outside (or from such a class) keeps its members' names
    changed = True
    while changed:
        changed = False
        for name, bases in survey.bases.items():
            if name not in survey.foreign_based and any(
                b is None or (b not in survey.bases and b != "object") or b in survey.foreign_based for b in bases
            ):
                survey.foreign_based.add(name)
                changed = True
    for name in survey.foreign_based:
        survey.excluded |= survey.members.get(name, set())
    survey.excluded |= {n for n in survey.bound if dunder(n) or n in BUILTINS}
    return survey


class Renamer(cst.CSTTransformer):
    """Passes two and three over a module: with ``mapping`` None, the identifiers whose uses
    cannot all be told apart from outside names are added to ``survey.excluded``; with a
    mapping, the module is renamed."""

    def __init__(self, survey: Survey, path: str, mapping: dict[str, str] | None):
        super().__init__()
        self.survey, self.path, self.mapping = survey, path, mapping
        self.classes: list[str] = []
        #: per function: names that hold the code's own objects (self, typed, constructed)
        self.own: list[set[str]] = [set()]
        self.in_class_body: list[bool] = [False]

    # -- what a receiver or a callee is

    def project_class(self, annotation: cst.BaseExpression | None) -> bool:
        if annotation is None:
            return False
        names = list(_names_in(annotation))
        own = [n for n in names if n in self.survey.bases and n not in self.survey.foreign_based]
        return bool(own) and all(n in TYPING_WRAPPERS or n in own for n in names)

    def receiver(self, node: cst.BaseExpression) -> str:
        """own, foreign or unknown."""
        if isinstance(node, cst.Name):
            name = node.value
            if name in self.own[-1] or name in self.survey.modules[self.path]:
                return "own"
            if name in self.survey.bases:
                return "foreign" if name in self.survey.foreign_based else "own"
            return "foreign" if name in self.survey.foreign[self.path] else "unknown"
        if isinstance(node, cst.Call) and cst.helpers.get_full_name_for_node(node.func) == "super":
            return "own" if self.classes and self.classes[-1] not in self.survey.foreign_based else "unknown"
        dotted = cst.helpers.get_full_name_for_node(node)
        if dotted and first_party(self.survey.sources, dotted):
            return "own"
        return "unknown"

    def callee(self, call: cst.Call) -> tuple[str, set[str] | None, bool]:
        """own/foreign/unknown, and for an own callee its parameters and ``**kwargs``."""
        func = call.func
        if isinstance(func, cst.Name):
            name = func.value
            if name in self.own[-1] and self.classes:
                name = self.classes[-1]  # cls(...)
            if name in self.survey.foreign_based or name in self.survey.foreign[self.path] or (
                name in BUILTINS and name not in self.survey.bound
            ):
                return "foreign", None, False
            if name in self.survey.params:
                return ("own", *self.survey.params[name])
            return "unknown", None, False
        if isinstance(func, cst.Attribute):
            kind = self.receiver(func.value)
            method = func.attr.value
            if kind == "own" and method in self.survey.params:
                return ("own", *self.survey.params[method])
            if kind == "foreign" or method not in self.survey.params:
                return "foreign", None, False
        return "unknown", None, False

    # -- context

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.classes.append(node.name.value)
        self.in_class_body.append(True)

    def leave_ClassDef(self, original: cst.ClassDef, updated: cst.ClassDef) -> cst.ClassDef:
        self.classes.pop()
        self.in_class_body.pop()
        return updated

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        own = set(self.own[-1])
        parameters = [*node.params.posonly_params, *node.params.params, *node.params.kwonly_params]
        own -= {p.name.value for p in parameters}
        if self.in_class_body[-1] and parameters and "staticmethod" not in {decorator_name(d) for d in node.decorators}:
            if self.classes[-1] not in self.survey.foreign_based:
                own.add(parameters[0].name.value)
        own |= {p.name.value for p in parameters if p.annotation and self.project_class(p.annotation.annotation)}
        own |= constructed(node, self.survey)
        self.own.append(own)
        self.in_class_body.append(False)

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        self.own.pop()
        self.in_class_body.pop()
        return updated

    # -- names

    def renamed(self, name: str) -> str:
        return self.mapping.get(name, name) if self.mapping else name

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.Name:
        return updated.with_changes(value=self.renamed(original.value))

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.Attribute:
        name = original.attr.value
        if name not in self.survey.attrs or name in self.survey.excluded:
            return updated.with_changes(attr=original.attr)
        kind = self.receiver(original.value)
        if self.mapping is None:
            if kind == "unknown":
                self.survey.excluded.add(name)
            return updated
        return updated if kind == "own" else updated.with_changes(attr=original.attr)

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        keywords = [a.keyword.value for a in original.args if a.keyword and a.keyword.value in self.survey.bound]
        if self.mapping is None:
            if cst.helpers.get_full_name_for_node(original.func) in ("partial", "functools.partial") or any(
                not a.keyword and isinstance(a.value, cst.Name) and a.value.value in self.survey.params
                for a in original.args
            ):
                self.survey.excluded |= set(keywords)  # keywords passed on to a callable
            kind, params, varkw = self.callee(original)
            for keyword in keywords:
                if kind == "unknown" or (kind == "own" and (params is None or (keyword not in params and varkw))):
                    self.survey.excluded.add(keyword)
            if kind == "own" and any(a.star == "**" for a in original.args):
                self.survey.excluded |= params or set()
            return updated
        kind, _, _ = self.callee(original)
        if kind == "own":
            return updated
        args = [u.with_changes(keyword=o.keyword) if o.keyword else u for o, u in zip(original.args, updated.args)]
        return updated.with_changes(args=args)

    def leave_Import(self, original: cst.Import, updated: cst.Import) -> cst.Import:
        names = []
        for alias in original.names:
            dotted = cst.helpers.get_full_name_for_node(alias.name)
            if first_party(self.survey.sources, dotted):
                alias = alias.with_changes(name=self.dotted(dotted, ""))
                if alias.asname:
                    alias = alias.with_changes(asname=alias.asname.with_changes(name=cst.Name(self.renamed(alias.asname.name.value))))
            names.append(alias)
        return original.with_changes(names=names)

    def leave_ImportFrom(self, original: cst.ImportFrom, updated: cst.ImportFrom) -> cst.ImportFrom:
        dotted = absolute(self.path, original)
        if not first_party(self.survey.sources, dotted) or isinstance(original.names, cst.ImportStar):
            return original
        module = original.module
        if module is not None:
            base = dotted[: len(dotted) - len(cst.helpers.get_full_name_for_node(module))].rstrip(".")
            module = self.dotted(cst.helpers.get_full_name_for_node(module), base)
        names = [
            alias.with_changes(
                name=cst.Name(self.renamed(alias.name.value)),
                asname=alias.asname.with_changes(name=cst.Name(self.renamed(alias.asname.name.value))) if alias.asname else None,
            )
            for alias in original.names
        ]
        return original.with_changes(module=module, names=names)

    def dotted(self, dotted: str, base: str) -> cst.Attribute | cst.Name:
        """``dotted`` (relative to the package ``base``) with its module files renamed."""
        parts, prefix = [], base
        for part in dotted.split("."):
            prefix = f"{prefix}.{part}" if prefix else part
            path = module_path(self.survey.sources, prefix)
            parts.append(self.renamed(part) if path and not path.endswith("__init__.py") else part)
        return cst.parse_expression(".".join(parts))


def _names_in(annotation: cst.BaseExpression):
    """The names an annotation mentions (a string annotation's too)."""
    if isinstance(annotation, cst.SimpleString):
        try:
            annotation = cst.parse_expression(annotation.evaluated_value)
        except Exception:
            return
    for node in _walk(annotation):
        if isinstance(node, cst.Name):
            yield node.value


def _walk(node: cst.CSTNode):
    """``node`` and every node below it, parents first (quicker than libcst's ``children``)."""
    stack = [node]
    while stack:
        node = stack.pop()
        yield node
        below = []
        for name in _FIELDS.get(type(node)) or _FIELDS.setdefault(type(node), [f.name for f in fields(node)]):
            value = getattr(node, name)
            if isinstance(value, cst.CSTNode):
                below.append(value)
            elif isinstance(value, (list, tuple)):
                below += [v for v in value if isinstance(v, cst.CSTNode)]
        stack += reversed(below)


_FIELDS: dict[type, list[str]] = {}


def constructed(function: cst.FunctionDef, survey: Survey) -> set[str]:
    """Names every assignment of which, in ``function``, builds one of the code's classes."""
    built, other = set(), set()
    for node in _walk(function.body):
        if isinstance(node, cst.Assign) and len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name):
            value = node.value.expression if isinstance(node.value, cst.Await) else node.value
            own = isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value in survey.bases \
                and value.func.value not in survey.foreign_based
            (built if own else other).add(node.targets[0].target.value)
        elif isinstance(node, cst.AnnAssign) and isinstance(node.target, cst.Name):
            annotated = any(n in survey.bases and n not in survey.foreign_based for n in _names_in(node.annotation.annotation))
            (built if annotated else other).add(node.target.value)
    return built - other


def rename(case: Case) -> tuple[Case, dict[str, str]] | None:
    """``case`` with every identifier its code binds renamed (v1, f2, C3, m4, a5), and its
    paths' mapping; None when it binds nothing that may be renamed."""
    renamed = renaming(case)
    return renamed and renamed[:2]


def renaming(case: Case, keep: frozenset[str] = frozenset()) -> tuple[Case, dict[str, str], dict[str, str]] | None:
    """:func:`rename`, with the identifiers' mapping; the names in ``keep`` are left as they are."""
    trees = {path: cst.parse_module(text) for path, text in case.sources.items()}
    survey = survey_of(case.sources, trees)
    for path, tree in sorted(trees.items()):
        tree.visit(Renamer(survey, path, None))
    taken = {n.value for tree in trees.values() for n in _walk(tree) if isinstance(n, cst.Name)}
    mapping, number = {}, 0
    for name, kind in survey.bound.items():
        if name in survey.excluded or name in keep:
            continue
        number += 1
        while f"{kind}{number}" in taken and f"{kind}{number}" != name:
            number += 1
        mapping[name] = f"{kind}{number}"
    if not mapping:
        return None
    sources, paths = {}, {}
    for path, tree in sorted(trees.items()):
        new = survey.stem_renamed(path, mapping) if case.project else path
        paths[path] = new
        sources[new] = tree.visit(Renamer(survey, path, mapping)).code
    return Case(case.name, sources, case.select, case.project), paths, mapping


def renamed_case(case: Case) -> list[Rewritten]:
    renamed = rename(case)
    if renamed is None:
        return []
    new, paths = renamed
    return [Rewritten(new, lambda path, line: paths[path], exact=True)]


# --- the other rewrites: statements in function bodies --------------------------------------


def fresh(trees, stem: str):
    """Names ``stem1``, ``stem2``... that no module of the case uses."""
    taken = {word for tree in trees for word in re.findall(r"\w+", tree.code)}
    number = 0
    while True:
        number += 1
        if f"{stem}{number}" not in taken:
            yield f"{stem}{number}"


def with_imports(module: cst.Module, *lines: str) -> cst.Module:
    """``module`` with ``lines`` (imports) after its docstring and ``__future__`` imports."""
    body = list(module.body)
    at = 0
    for index, statement in enumerate(body):
        if not isinstance(statement, cst.SimpleStatementLine):
            break
        small = statement.body[0]
        if isinstance(small, cst.Expr) and isinstance(small.value, cst.SimpleString) and index == 0:
            at = 1
        elif isinstance(small, cst.ImportFrom) and not small.relative and cst.helpers.get_full_name_for_node(small.module) == "__future__":
            at = index + 1
        else:
            break
    return module.with_changes(body=body[:at] + [cst.parse_statement(line) for line in lines] + body[at:])


def has(node: cst.CSTNode, *kinds: type) -> bool:
    return any(isinstance(n, kinds) for n in _walk(node))


class InFunctions(cst.CSTTransformer):
    """Calls :meth:`statement` on each statement of a function body (at any depth), which
    returns what replaces it (a list) or None to leave it."""

    def __init__(self):
        super().__init__()
        self.functions: list[cst.FunctionDef] = []
        self.classes: list[cst.ClassDef] = []
        self.in_class_body: list[bool] = [False]
        self.changed = 0

    def visit_ClassDef(self, node):
        self.classes.append(node)
        self.in_class_body.append(True)

    def leave_ClassDef(self, original, updated):
        self.classes.pop()
        self.in_class_body.pop()
        return self.leave_class(original, updated)

    def leave_class(self, original, updated):
        return updated

    def visit_FunctionDef(self, node):
        self.functions.append(node)
        self.in_class_body.append(False)

    def leave_FunctionDef(self, original, updated):
        self.functions.pop()
        self.in_class_body.pop()
        return updated

    def method_self(self) -> str | None:
        """The first parameter of the method being rewritten, if it is a method's."""
        if len(self.in_class_body) >= 3 and self.in_class_body[-2] and self.functions:
            function = self.functions[-1]
            if function.params.params and not any(decorator_name(d) in ("staticmethod", "classmethod") for d in function.decorators):
                return function.params.params[0].name.value
        return None

    def leave_IndentedBlock(self, original, updated):
        if not self.functions or self.in_class_body[-1]:
            return updated
        body = []
        for statement in updated.body:
            replaced = self.statement(statement)
            if replaced is None:
                body.append(statement)
            else:
                body += replaced
                self.changed += 1
        return updated.with_changes(body=body)

    def statement(self, statement):
        return None


def one_call(statement) -> tuple[cst.Call, bool] | None:
    """The call a statement makes at its top (``x = c(...)``, ``await c(...)``, ``return c(...)``,
    ``for ... in c(...)``), and whether it is awaited."""
    if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1:
        small = statement.body[0]
        value = small.value if isinstance(small, (cst.Expr, cst.Assign, cst.Return)) else None
    elif isinstance(statement, cst.For):
        value = statement.iter
    else:
        value = None
    awaited = isinstance(value, cst.Await)
    value = value.expression if awaited else value
    if isinstance(value, cst.Call) and not (isinstance(value.func, cst.Name) and value.func.value in ("super", "locals", "vars", "globals")):
        return value, awaited
    return None


class CallThrough(InFunctions):
    """Each call at the top of a statement made through a bound method alias (``how`` is
    ``alias``) or a ``functools.partial`` of it with its arguments (``partial``)."""

    def __init__(self, how: str, names):
        super().__init__()
        self.how, self.names = how, names

    def statement(self, statement):
        found = one_call(statement)
        if found is None:
            return None
        call, _ = found
        if self.how == "alias" and not isinstance(call.func, cst.Attribute):
            return None
        name = next(self.names)
        if self.how == "alias":
            made = cst.parse_statement(f"{name} = _")
            made = made.with_changes(body=[made.body[0].with_changes(value=call.func)])
            new_call = call.with_changes(func=cst.Name(name))
        else:
            made = cst.parse_statement(f"{name} = functools.partial(_)")
            made = made.with_changes(body=[made.body[0].with_changes(value=cst.Call(
                cst.parse_expression("functools.partial"), [cst.Arg(call.func), *map(parenthesized, call.args)]))])
            new_call = cst.Call(cst.Name(name))
        return [made, statement.deep_replace(call, new_call)]


def parenthesized(arg: cst.Arg) -> cst.Arg:
    """A bare generator argument (``f(x for x in y)``) needs its own parentheses next to another."""
    if isinstance(arg.value, cst.GeneratorExp) and not arg.value.lpar:
        return arg.with_changes(value=arg.value.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()]))
    return arg


WRAPS = {
    # kind: (how the value is held, how it is read back)
    "tuple": ("({value}, time.time())", "{target}, _ = {held}"),
    "dict": ('{{"value": {value}}}', '{target} = {held}["value"]'),
    "dataclass": ("_Held({value})", "{target} = {held}.value"),
}


class Wrap(InFunctions):
    """Each ``name = value`` in a function held on its way: in a tuple with a timestamp, a
    dict entry, a dataclass field, or an attribute set here and read by another method."""

    def __init__(self, kind: str, names):
        super().__init__()
        self.kind, self.names = kind, names
        self.readers: dict[int, list[cst.FunctionDef]] = {}

    def statement(self, statement):
        if not (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1):
            return None
        small = statement.body[0]
        if not (isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name)):
            return None
        if has(small.value, cst.Yield):
            return None
        target, held = small.targets[0].target.value, next(self.names)
        if self.kind == "attribute":
            owner = self.method_self()
            if owner is None:
                return None
            store = cst.parse_statement(f"{owner}.{held} = _")
            reader = cst.parse_statement(f"def read_{held}(self):\n    return self.{held}\n")
            self.readers.setdefault(id(self.classes[-1]), []).append(reader)
            read = cst.parse_statement(f"{target} = {owner}.read_{held}()")
        else:
            hold, back = WRAPS[self.kind]
            store = cst.parse_statement(f"{held} = " + hold.format(value="_"))
            read = cst.parse_statement(back.format(target=target, held=held))
        value = small.value
        store = store.deep_replace(next(n for n in _walk(store) if isinstance(n, cst.Name) and n.value == "_"), value)
        return [store.with_changes(leading_lines=statement.leading_lines), read]

    def leave_class(self, original, updated):
        readers = self.readers.pop(id(original), [])
        if not readers:
            return updated
        return updated.with_changes(body=updated.body.with_changes(body=[*updated.body.body, *readers]))


def statement_rewrite(case: Case, make, stem: str, imports: tuple[str, ...] = (), prelude: str = "") -> list[Rewritten]:
    """``case`` with every module rewritten by the transformer ``make(names)``."""
    trees = {path: cst.parse_module(text) for path, text in case.sources.items()}
    names = fresh(trees.values(), stem)
    sources, changed = {}, 0
    for path, tree in sorted(trees.items()):
        transformer = make(names)
        new = tree.visit(transformer)
        if transformer.changed:
            changed += transformer.changed
            if prelude:
                new = new.with_changes(body=[*new.body, *cst.parse_module(prelude).body])
            new = with_imports(new, *imports)
        sources[path] = new.code
    return [Rewritten(Case(case.name, sources, case.select, case.project))] if changed else []


# --- extract a statement into a helper ------------------------------------------------------


def bound_in(function: cst.FunctionDef) -> set[str]:
    """The names a function binds: its parameters and what its body assigns (not globals)."""
    parameters = function.params
    names = {p.name.value for p in [*parameters.posonly_params, *parameters.params, *parameters.kwonly_params]}
    names |= {p.name.value for p in (parameters.star_arg, parameters.star_kwarg) if isinstance(p, cst.Param)}
    declared = set()
    for node in _walk(function.body):
        if isinstance(node, cst.AssignTarget):
            names |= {n.value for n in target_names(node.target) if isinstance(n, cst.Name)}
        elif isinstance(node, (cst.AnnAssign, cst.AugAssign, cst.For, cst.CompFor, cst.NamedExpr)):
            names |= {n.value for n in target_names(node.target) if isinstance(n, cst.Name)}
        elif isinstance(node, cst.AsName) and isinstance(node.name, cst.Name):
            names.add(node.name.value)
        elif isinstance(node, (cst.FunctionDef, cst.ClassDef)):
            names.add(node.name.value)
        elif isinstance(node, (cst.Global, cst.Nonlocal)):
            declared |= {n.name.value for n in node.names}
    return names - declared


def reads(node: cst.CSTNode):
    """The names an expression or statement reads or writes (not attribute or keyword names)."""
    if isinstance(node, cst.Name):
        yield node
    elif isinstance(node, cst.Attribute):
        yield from reads(node.value)
    elif isinstance(node, cst.Arg):
        yield from reads(node.value)
    else:
        for child in node.children:
            yield from reads(child)


class Extract(InFunctions):
    """Each chosen statement of a function (a simple statement, or the test or iterable of an
    ``if``/``while``/``for``) moved into a module-level helper that takes the local names it
    reads and returns those it binds."""

    def __init__(self, lines: set[int] | None, positions, names):
        super().__init__()
        self.lines, self.positions, self.names = lines, positions, names
        self.helpers: dict[int, list[cst.BaseStatement]] = {}
        self.locals: list[set[str]] = []
        self.top = 0

    def visit_Module(self, node):
        self.body = node.body

    def visit_FunctionDef(self, node):
        super().visit_FunctionDef(node)
        if any(node is s for s in self.body):
            self.top = next(i for i, s in enumerate(self.body) if s is node)
        self.locals.append(bound_in(node))

    def leave_FunctionDef(self, original, updated):
        self.locals.pop()
        return super().leave_FunctionDef(original, updated)

    def visit_ClassDef(self, node):
        super().visit_ClassDef(node)
        if any(node is s for s in self.body):
            self.top = next(i for i, s in enumerate(self.body) if s is node)

    def chosen(self, node: cst.CSTNode, nodes: list[cst.CSTNode]) -> bool:
        if self.lines is None:
            return any(isinstance(n, cst.Call) for n in nodes)
        where = self.positions[node]
        return any(where.start.line <= line <= where.end.line for line in self.lines)

    def leave_IndentedBlock(self, original, updated):
        if not self.functions or self.in_class_body[-1]:
            return updated
        body = []
        for old, new in zip(original.body, updated.body):
            replaced = self.extract(old, new)
            body += [new] if replaced is None else replaced
            self.changed += replaced is not None
        return updated.with_changes(body=body)

    def extract(self, old, new):
        if isinstance(old, cst.SimpleStatementLine) and len(old.body) == 1:
            small = old.body[0]
            if isinstance(small, (cst.Expr, cst.Assign, cst.AugAssign, cst.Return, cst.Raise)) or (
                isinstance(small, cst.AnnAssign) and small.value is not None
            ):
                piece, kind = small, "statement"
            else:
                return None
        elif isinstance(old, (cst.If, cst.While)):
            piece, kind = old.test, "test"
        elif isinstance(old, cst.For):
            piece, kind = old.iter, "iter"
        else:
            return None
        if isinstance(piece, cst.Return) and piece.value is None:
            return None
        nodes = list(_walk(piece))
        if not self.chosen(piece, nodes) or any(
            isinstance(n, (cst.Yield, cst.Lambda, cst.NamedExpr, cst.GeneratorExp, cst.ListComp, cst.SetComp, cst.DictComp))
            or isinstance(n, cst.Attribute) and n.attr.value.startswith("__") and not dunder(n.attr.value)
            or isinstance(n, cst.Call) and isinstance(n.func, cst.Name) and n.func.value == "super"
            for n in nodes
        ):
            return None  # a scope of its own, a private name, or super(): not the same outside
        local = set().union(*self.locals)
        targets = []
        if isinstance(piece, cst.Assign):
            targets = [t.target for t in piece.targets]
        elif isinstance(piece, (cst.AnnAssign, cst.AugAssign)):
            targets = [piece.target]
        stored = {n.value for t in targets for n in target_names(t) if isinstance(n, cst.Name)}
        written = {id(n) for t in targets for n in target_names(t) if isinstance(n, cst.Name)}
        loaded = {n.value for n in reads(piece) if id(n) not in written} | (stored if isinstance(piece, cst.AugAssign) else set())
        stored, loaded = sorted(stored & local), sorted(loaded & local)
        if len(stored) != len({n.value for t in targets for n in target_names(t) if isinstance(n, cst.Name)}):
            return None  # it binds a name of the module (a global)
        awaited = any(isinstance(n, cst.Await) for n in nodes)
        helper = next(self.names)
        call = f"{'await ' if awaited else ''}{helper}({', '.join(loaded)})"
        head = f"{'async ' if awaited else ''}def {helper}({', '.join(loaded)}):\n"
        if kind == "statement" and isinstance(piece, cst.Return):
            definition = cst.parse_statement(head + "    return _\n")
            definition = definition.deep_replace(definition.body.body[0].body[0].value, new.body[0].value)
            replacement = new.with_changes(body=[new.body[0].with_changes(value=cst.parse_expression(call))])
        elif kind == "statement":
            back = f"    return {', '.join(stored)}\n" if stored else ""
            definition = cst.parse_statement(head + "    pass\n" + back)
            inner = definition.body.body
            definition = definition.with_changes(body=definition.body.with_changes(
                body=[cst.SimpleStatementLine([new.body[0]]), *inner[1:]]))
            replacement = cst.parse_statement(f"{', '.join(stored)} = {call}" if stored else call)
            replacement = replacement.with_changes(leading_lines=new.leading_lines)
        else:
            definition = cst.parse_statement(head + "    return _\n")
            definition = definition.deep_replace(definition.body.body[0].body[0].value, getattr(new, kind))
            replacement = new.with_changes(**{kind: cst.parse_expression(call)})
        self.helpers.setdefault(self.top, []).append(definition)
        return [replacement]

    def leave_Module(self, original, updated):
        body = []
        for index, statement in enumerate(updated.body):
            body += [statement, *self.helpers.get(index, [])]
        return updated.with_changes(body=body)


def extracted(case: Case, findings: list[Finding]) -> list[Rewritten]:
    """The flagged statements extracted (every statement that makes a call, in a silent case)."""
    sources, changed = {}, 0
    trees = {path: cst.parse_module(text) for path, text in case.sources.items()}
    names = fresh(trees.values(), "extracted_")
    for path, tree in sorted(trees.items()):
        lines = {line for p, line, _ in findings if p == path} if findings else None
        if lines == set():
            sources[path] = tree.code
            continue
        wrapper = cst.MetadataWrapper(tree, unsafe_skip_copy=True)
        positions = wrapper.resolve(cst.metadata.PositionProvider) if lines else {}
        transformer = Extract(lines, positions, names)
        sources[path] = tree.visit(transformer).code
        changed += transformer.changed
    return [Rewritten(Case(case.name, sources, case.select, case.project))] if changed else []


# --- move a helper into a sibling module ----------------------------------------------------


def moved(case: Case, findings: list[Finding]) -> list[Rewritten]:
    """The case with each top-level function moved into a sibling module of its own, which
    the module imports it from where it stood (a single file becomes a project of several).
    A function that reads a name its module defines further down stays (the import would
    run before the name is there)."""
    sources, spans = dict(case.sources), []
    for path, text in sorted(case.sources.items()):
        folder, _, file = path.rpartition("/")
        stem = file[:-3]
        if dunder(stem):
            continue
        wrapper = cst.MetadataWrapper(cst.parse_module(text), unsafe_skip_copy=True)
        positions = wrapper.resolve(cst.metadata.PositionProvider)
        tree = wrapper.module
        body = list(tree.body)
        imports = [s for s in body if isinstance(s, cst.SimpleStatementLine) and isinstance(s.body[0], (cst.Import, cst.ImportFrom))]
        future = [s for s in imports if isinstance(s.body[0], cst.ImportFrom) and not s.body[0].relative
                  and cst.helpers.get_full_name_for_node(s.body[0].module) == "__future__"]
        relative = bool(folder) and (f"{folder}/__init__.py" in case.sources or any(
            isinstance(s.body[0], cst.ImportFrom) and s.body[0].relative for s in imports))
        defined = {}
        for index, statement in enumerate(body):
            if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
                defined[statement.name.value] = index
            elif isinstance(statement, cst.SimpleStatementLine) and isinstance(statement.body[0], (cst.Assign, cst.AnnAssign)):
                small = statement.body[0]
                for target in [t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]:
                    defined.update({n.value: index for n in target_names(target) if isinstance(n, cst.Name)})
        for index, function in enumerate(body):
            if not isinstance(function, cst.FunctionDef) or has(function, cst.Global):
                continue
            target = f"{folder}/{stem}_{function.name.value}.py" if folder else f"{stem}_{function.name.value}.py"
            if target in sources:
                continue
            needed = {n.value for n in reads(function)} & set(defined) - {function.name.value}
            if any(defined[name] >= index for name in needed):
                continue
            here = f".{stem}" if relative else module_dotted(path)
            there = f".{stem}_{function.name.value}" if relative else module_dotted(target)
            head = [*future, *[s for s in imports if s not in future]]
            if needed:
                head.append(cst.parse_statement(f"from {here} import {', '.join(sorted(needed))}"))
            sources[target] = cst.Module(body=[*head, function.with_changes(leading_lines=[])]).code
            body[index] = cst.parse_statement(f"from {there} import {function.name.value}")
            where = positions[function]
            spans.append((path, where.start.line, where.end.line, target))
        sources[path] = tree.with_changes(body=body).code
    if not spans:
        return []

    def relocate(path: str, line: int) -> str:
        return next((target for p, start, end, target in spans if p == path and start <= line <= end), path)

    return [Rewritten(Case(case.name, sources, case.select, project=True), relocate)]


def module_dotted(path: str) -> str:
    parts = path[:-3].split("/")
    return ".".join(parts[1:] if parts[0] == "src" else parts)


# --- sync/async: the same client in the other flavour ---------------------------------------

#: httpx's client in each flavour: the same methods, awaited on the async one. A2A SDKs are
#: not converted: a2a-sdk's clients are async only, python-a2a's async methods have other names.
HTTPX_FLAVOURS = {"async": "AsyncClient", "sync": "Client"}
#: Methods of ``httpx.Client`` / ``httpx.AsyncClient`` called alike (awaited on the async one).
HTTPX_REQUESTS = {"get", "post", "put", "patch", "delete", "head", "options", "request", "send"}
#: async name -> sync name of the methods whose names differ.
HTTPX_RENAMED = {"aclose": "close"}
#: The async client's option whose value has a flavour of its own (an async transport, hooks).
HTTPX_FLAVOURED_OPTIONS = {"transport", "event_hooks", "mounts", "auth"}
#: Method names other objects have too (builtins, files, httpx, the A2A SDKs): a call
#: ``x.close()`` or ``x.get_task()`` may not be the case's function of that name.
SHARED_METHOD_NAMES = {name for kind in (dict, list, set, str, bytes, io.IOBase) for name in dir(kind)} | HTTPX_REQUESTS | {
    *HTTPX_RENAMED, *HTTPX_RENAMED.values(), *METHOD_ROLES}
#: A response's methods that exist only in the async flavour.
ASYNC_RESPONSE_METHODS = {"aread", "aiter_bytes", "aiter_text", "aiter_lines", "aiter_raw"}


@dataclass
class Flip:
    """The nodes a flavour change touches, by identity, across a case's modules."""

    unawait: set = field(default_factory=set)  # Await nodes whose expression stays
    await_: set = field(default_factory=set)  # Call nodes now awaited
    withs: set = field(default_factory=set)  # With nodes whose ``async`` flips
    functions: set = field(default_factory=set)  # FunctionDef nodes whose ``async`` flips
    constructors: set = field(default_factory=set)  # Attribute ``httpx.X`` of the client made
    renamed: set = field(default_factory=set)  # Name nodes of a renamed method (close/aclose)
    run: set = field(default_factory=set)  # module-level Call nodes now run with asyncio.run

    def merge(self, other: Flip) -> None:
        for name in (f.name for f in fields(self)):
            getattr(self, name).update(getattr(other, name))


class Module:
    """One module's tree, its nodes' parents and the function each node is in."""

    def __init__(self, path: str, text: str):
        wrapper = cst.MetadataWrapper(cst.parse_module(text))
        self.path, self.tree = path, wrapper.module
        self.parents = wrapper.resolve(cst.metadata.ParentNodeProvider)
        self.nodes = list(_walk(self.tree))

    def parent(self, node):
        return self.parents.get(node)

    def function_of(self, node) -> cst.FunctionDef | None:
        """The function whose body holds ``node`` (None at module or class level)."""
        node = self.parent(node)
        while node is not None and not isinstance(node, (cst.FunctionDef, cst.Lambda)):
            node = self.parent(node)
        return node

    def imports_httpx(self) -> bool:
        return any(isinstance(n, cst.Import) and any(
            a.asname is None and cst.helpers.get_full_name_for_node(a.name) == "httpx" for a in n.names) for n in self.nodes)


def called(module: Module, node) -> cst.Call | None:
    """The call ``node`` is the callee of (``node(...)``)."""
    call = module.parent(node)
    return call if isinstance(call, cst.Call) and call.func is node else None


def awaited(module: Module, call) -> cst.Await | None:
    above = module.parent(call)
    return above if isinstance(above, cst.Await) else None


def constructs(node, flavour: str) -> bool:
    """``node`` makes an httpx client of ``flavour`` with no option of a flavour of its own."""
    return (isinstance(node, cst.Call) and cst.helpers.get_full_name_for_node(node.func) == f"httpx.{HTTPX_FLAVOURS[flavour]}"
            and not any(a.star or a.keyword and a.keyword.value in HTTPX_FLAVOURED_OPTIONS for a in node.args))


class Clients:
    """Where a case's httpx clients of one flavour go: each client is held by a local name
    (key ``(scope, name)``), a parameter (the same, its function as scope) or an attribute
    (key ``name``), and moves between holders by assignment and by argument. A group of
    holders a client moves through is converted whole, or not at all when one of them is
    used otherwise than by the client's methods or holds something else too."""

    def __init__(self, modules: list[Module], flavour: str):
        self.modules, self.flavour = modules, flavour
        self.defined, self.classes = definitions(modules), {}
        for module in modules:
            for node in module.nodes:
                if isinstance(node, cst.ClassDef):
                    self.classes.setdefault(node.name.value, []).append((module, node))

    def key(self, module: Module, node):
        """The holder ``node`` (a name or attribute read or bound) stands for."""
        if isinstance(node, cst.Attribute):
            return node.attr.value
        scope = module.function_of(node)
        return (scope, node.value) if isinstance(scope, cst.FunctionDef) else None

    def places(self, key) -> list:
        """Every name or attribute node of the holder ``key``, bound or read."""
        if isinstance(key, str):
            return [(m, n) for m in self.modules for n in m.nodes if isinstance(n, cst.Attribute) and n.attr.value == key]
        scope, name = key
        module = next(m for m in self.modules if scope in m.parents)
        return [(module, n) for n in _walk(scope) if isinstance(n, cst.Name) and n.value == name and not named_by(module, n)]

    def group(self, module: Module, start) -> tuple[set, Flip] | None:
        """The holders a client bound at ``start`` moves through, and the changes converting
        them; None when one of them is used or bound otherwise."""
        flip, seen, todo = Flip(), set(), [self.key(module, start)]
        while todo:
            key = todo.pop()
            if key is None:
                return None
            if key in seen:
                continue
            seen.add(key)
            for m, node in self.places(key):
                linked = self.bound(m, node, flip) if self.binds(m, node) else self.read(m, node, flip)
                if linked is False:
                    return None
                todo += linked
        return seen, flip

    def binds(self, module: Module, node) -> bool:
        above = module.parent(node)
        if isinstance(above, cst.Element):
            return paired(module, node, "targets") is not None
        return isinstance(above, (cst.AssignTarget, cst.AsName, cst.Param, cst.AnnAssign)) and not (
            isinstance(above, cst.AnnAssign) and above.target is not node)

    def bound(self, module: Module, node, flip: Flip):
        """The holders the value bound at ``node`` comes from (False: not a client's)."""
        above = module.parent(node)
        if isinstance(above, cst.Param):
            return self.passed(module, above, flip)
        if isinstance(above, cst.Element):  # `self.url, self.http = url, httpx.Client()`
            return self.source(module, paired(module, node, "targets"), flip)
        if isinstance(above, cst.AsName):
            item = module.parent(above)
            statement = module.parent(item)
            if not (isinstance(item, cst.WithItem) and len(statement.items) == 1 and (statement.asynchronous is not None) == (self.flavour == "async")):
                return False
            flip.withs.add(statement)
            return self.source(module, item.item, flip)
        assign = module.parent(above) if isinstance(above, cst.AssignTarget) else above
        if not (isinstance(assign, (cst.Assign, cst.AnnAssign)) and assign.value is not None) or isinstance(assign, cst.Assign) and len(assign.targets) != 1:
            return False
        if isinstance(assign, cst.AnnAssign):
            self.annotation(assign.annotation, flip)
        return self.source(module, assign.value, flip)

    def source(self, module: Module, value, flip: Flip):
        if constructs(value, self.flavour):
            flip.constructors.add(value.func)
            return []
        return [self.key(module, value)] if isinstance(value, (cst.Name, cst.Attribute)) else False

    def annotation(self, annotation: cst.Annotation | None, flip: Flip) -> None:
        for n in _walk(annotation) if annotation else ():
            if isinstance(n, cst.Attribute) and cst.helpers.get_full_name_for_node(n) == f"httpx.{HTTPX_FLAVOURS[self.flavour]}":
                flip.constructors.add(n)

    def passed(self, module: Module, param: cst.Param, flip: Flip):
        """The holders of what each call of the parameter's function passes to it."""
        function = module.function_of(param)
        if param.default is not None or param.star:
            return False
        self.annotation(param.annotation, flip)
        owner = module.parent(module.parent(function))
        is_init = isinstance(owner, cst.ClassDef) and function.name.value == "__init__"
        name = owner.name.value if is_init else function.name.value
        if len((self.classes if is_init else self.defined).get(name, [])) != 1:
            return False
        listed = [*function.params.posonly_params, *function.params.params]
        index = next((i for i, p in enumerate(listed) if p is param), None)
        if isinstance(owner, cst.ClassDef) and index is not None:
            index -= 1  # the receiver is not passed
        linked = []
        for m, node in references(self.modules, name):
            call = called(m, node)
            if call is None or any(a.star for a in call.args):
                return False
            arg = next((a for a in call.args if a.keyword and a.keyword.value == param.name.value), None)
            if arg is None and index is not None and 0 <= index < len(call.args) and not call.args[index].keyword:
                arg = call.args[index]
            if arg is None:
                return False
            linked.append(self.source(m, arg.value, flip))
        return False if False in linked else [k for keys in linked for k in keys]

    def read(self, module: Module, node, flip: Flip):
        """The holders a read of the client passes it to (False: used otherwise)."""
        above = module.parent(node)
        if isinstance(above, cst.Attribute) and above.value is node:
            return self.method_call(module, above, flip)
        call = module.parent(above)
        if isinstance(above, cst.Arg) and not above.star and isinstance(call, cst.Call):
            target = self.parameter(callee_name(call), call, above)
            return False if target is None else [target]
        if isinstance(above, cst.Assign) and above.value is node and len(above.targets) == 1:
            return [self.key(module, above.targets[0].target)] if isinstance(above.targets[0].target, (cst.Name, cst.Attribute)) else False
        return False

    def method_call(self, module: Module, attribute: cst.Attribute, flip: Flip):
        method = attribute.attr.value
        names = HTTPX_REQUESTS | (set(HTTPX_RENAMED) if self.flavour == "async" else set(HTTPX_RENAMED.values()))
        call = called(module, attribute)
        if method not in names or call is None or in_generator_expression(module, call):
            return False
        wait = awaited(module, call)
        if (wait is not None) != (self.flavour == "async"):
            return False
        if wait is not None:
            flip.unawait.add(wait)
        else:
            flip.await_.add(call)
        if method in HTTPX_RENAMED or method in HTTPX_RENAMED.values():
            flip.renamed.add(attribute.attr)
        return []

    def parameter(self, name: str | None, call: cst.Call, arg: cst.Arg):
        """The holder (a parameter) ``arg`` of ``call`` passes to, when the case defines the callee."""
        if name in self.classes and len(self.classes[name]) == 1:
            module, owner = self.classes[name][0]
            function = next((s for s in owner.body.body if isinstance(s, cst.FunctionDef) and s.name.value == "__init__"), None)
            offset = 1
        elif len(self.defined.get(name, [])) == 1:
            module, function = self.defined[name][0]
            offset = int(isinstance(module.parent(module.parent(function)), cst.ClassDef))
        else:
            return None
        if function is None or any(a.star for a in call.args):
            return None
        listed = [*function.params.posonly_params, *function.params.params]
        if arg.keyword:
            param = next((p for p in [*listed, *function.params.kwonly_params] if p.name.value == arg.keyword.value), None)
        else:
            index = call.args.index(arg) + offset
            param = listed[index] if index < len(listed) else None
        return (function, param.name.value) if param is not None else None


def paired(module: Module, node, side: str):
    """For an element of a tuple on one side of ``a, b = x, y``, the element at its place on
    the other side (``side``: "targets" for a target's value, "value" for a value's target)."""
    element = module.parent(node)
    both = module.parent(element)
    holder = module.parent(both)
    assign = module.parent(holder) if isinstance(holder, cst.AssignTarget) else holder
    if not (isinstance(both, cst.Tuple) and isinstance(assign, cst.Assign) and len(assign.targets) == 1):
        return None
    target, value = assign.targets[0].target, assign.value
    other = value if side == "targets" and target is both else target if side == "value" and value is both else None
    if not (isinstance(other, cst.Tuple) and len(other.elements) == len(both.elements)) or has(assign, cst.StarredElement):
        return None
    return other.elements[list(both.elements).index(element)].value


def client_groups(modules: list[Module], flavour: str) -> list[Flip]:
    """For each group of holders of clients of ``flavour`` used only by their methods, the
    changes that convert it."""
    clients, done, groups = Clients(modules, flavour), set(), []
    for module in modules:
        if not module.imports_httpx():
            continue
        for node in module.nodes:
            if not constructs(node, flavour):
                continue
            holder = module.parent(node)
            start = holder.asname.name if isinstance(holder, cst.WithItem) and holder.asname else (
                holder.targets[0].target if isinstance(holder, cst.Assign) and len(holder.targets) == 1 else
                paired(module, node, "value") if isinstance(holder, cst.Element) else None)
            if not isinstance(start, (cst.Name, cst.Attribute)) or clients.key(module, start) in done:
                continue
            found = clients.group(module, start)
            if found is not None:
                done |= found[0]
                groups.append(found[1])
    return groups


def definitions(modules: list[Module]) -> dict[str, list]:
    """Function name -> (module, def) of every function of that name in the case."""
    found: dict[str, list] = {}
    for module in modules:
        for node in module.nodes:
            if isinstance(node, cst.FunctionDef):
                found.setdefault(node.name.value, []).append((module, node))
    return found


def references(modules: list[Module], name: str) -> list:
    """Where the case reads ``name`` (a name, or an attribute of that name), imports aside."""
    found = []
    for module in modules:
        for node in module.nodes:
            if isinstance(node, cst.Name) and node.value == name:
                above = module.parent(node)
                if isinstance(above, cst.ImportAlias) or named_by(module, node) or in_annotation(module, node):
                    continue
                found.append((module, node))
            elif isinstance(node, cst.Attribute) and node.attr.value == name:
                found.append((module, node))
    return found


def in_annotation(module: Module, node) -> bool:
    while node is not None and not isinstance(node, cst.BaseStatement):
        if isinstance(node, cst.Annotation):
            return True
        node = module.parent(node)
    return False


def named_by(module: Module, name: cst.Name) -> bool:
    """``name`` names something else than a variable: ``x.name``, ``f(name=...)``, ``def name``."""
    above = module.parent(name)
    if isinstance(above, cst.Attribute):
        return above.attr is name
    if isinstance(above, cst.Arg):
        return above.keyword is name
    return isinstance(above, (cst.FunctionDef, cst.ClassDef)) and above.name is name


def flippable(module: Module, function: cst.FunctionDef, defined: dict) -> bool:
    """A function that may change flavour: the only one of its name, undecorated, not a
    special method nor a method of a class with bases (an override keeps its base's
    flavour), not a generator."""
    owner = module.parent(module.parent(function))
    return (len(defined[function.name.value]) == 1 and not function.decorators and not dunder(function.name.value)
            and not (isinstance(owner, cst.ClassDef) and owner.bases) and not has(function.body, cst.Yield))


def callers(modules: list[Module], function: cst.FunctionDef) -> list | None:
    """Where the case calls ``function`` (module, call), or None where it may read it
    otherwise, or where ``x.name()`` may be another object's method of that name."""
    found = references(modules, function.name.value)
    if function.name.value in SHARED_METHOD_NAMES and any(isinstance(n, cst.Attribute) for _, n in found):
        return None
    calls = [(m, called(m, n)) for m, n in found]
    return None if any(call is None for _, call in calls) else calls


def to_sync(modules: list[Module]) -> Flip:
    """The async httpx clients used only by their methods made sync, and then each async
    function left with nothing to await made sync, its awaited calls plain calls."""
    flip = Flip()
    for group in client_groups(modules, "async"):
        flip.merge(group)
    defined = definitions(modules)
    candidates = {(m, f) for fs in defined.values() for m, f in fs if f.asynchronous is not None and flippable(m, f, defined)}
    while True:
        names = {f.name.value for _, f in candidates}
        kept = set()
        for module, function in candidates:
            waits = [n for n in _walk(function.body) if isinstance(n, cst.Await) and n not in flip.unawait]
            if any(isinstance(n, (cst.With, cst.For)) and n.asynchronous is not None and n not in flip.withs or
                   isinstance(n, cst.CompFor) and n.asynchronous is not None for n in _walk(function.body)):
                continue
            if not all(isinstance(w.expression, cst.Call) and callee_name(w.expression) in names for w in waits):
                continue
            calls = callers(modules, function)
            if calls is not None and all(awaited(m, call) is not None for m, call in calls):
                kept.add((module, function))
        if kept == candidates:
            break
        candidates = kept
    for function in linked({f for _, f in candidates}, flip):
        flip.functions.add(function)
        flip.unawait.update(awaited(m, call) for m, call in callers(modules, function))
    return flip


def linked(functions: set, flip: Flip) -> set:
    """Those of ``functions`` linked (awaiting, or awaited by) to one that awaits a client
    being converted: the functions the conversion is about, not every async function."""
    waits = {f: [n for n in _walk(f.body) if isinstance(n, cst.Await)] for f in functions}
    callees = {f: {callee_name(w.expression) for w in ws if w not in flip.unawait} for f, ws in waits.items()}
    chosen = {f for f, ws in waits.items() if any(w in flip.unawait for w in ws)}
    while True:
        names = {f.name.value for f in chosen}
        awaited_names = set().union(*(callees[f] for f in chosen))
        more = {f for f in functions if callees[f] & names or f.name.value in awaited_names} - chosen
        if not more:
            return chosen
        chosen |= more


def callee_name(call: cst.Call) -> str | None:
    func = call.func
    return func.value if isinstance(func, cst.Name) else func.attr.value if isinstance(func, cst.Attribute) else None


def to_async(modules: list[Module]) -> Flip:
    """The sync httpx clients used only by their methods made async, their calls awaited,
    and each sync function that then awaits made async, its calls awaited (run with
    ``asyncio.run`` at module level); a client whose functions cannot all be made async stays."""
    flip, defined = Flip(), definitions(modules)
    for group in client_groups(modules, "sync"):
        made = made_async(modules, defined, group)
        if made is not None:
            flip.merge(group)
            flip.merge(made)
    return flip


def made_async(modules: list[Module], defined: dict, group: Flip) -> Flip | None:
    """The functions to make async for ``group``'s calls to be awaited, and their calls
    awaited in turn; None if one cannot be (a lambda, a generator, a function passed on)."""
    made = Flip()
    pending = [(m, call, False) for m in modules for call in group.await_ if call in m.parents]
    while pending:
        module, call, own = pending.pop()
        function = module.function_of(call)
        if isinstance(function, cst.Lambda) or in_generator_expression(module, call):
            return None
        if function is None:
            if not own or first_import(module) is None:
                return None
            made.run.add(call)
            continue
        if own:
            made.await_.add(call)
        if function.asynchronous is not None or function in made.functions:
            continue
        if not flippable(module, function, defined):
            return None
        made.functions.add(function)
        calls = callers(modules, function)
        if calls is None:
            return None
        pending += [(m, call, True) for m, call in calls]
    return made


def first_import(module: Module) -> cst.SimpleStatementLine | None:
    """The module's first top-level import line (``__future__`` aside)."""
    return next((s for s in module.tree.body if isinstance(s, cst.SimpleStatementLine) and isinstance(s.body[0], (cst.Import, cst.ImportFrom))
                 and not (isinstance(s.body[0], cst.ImportFrom) and cst.helpers.get_full_name_for_node(s.body[0].module) == "__future__")), None)


def in_generator_expression(module: Module, node) -> bool:
    """Whether ``node`` is in a generator expression (awaiting there makes it an async one)."""
    while node is not None and not isinstance(node, (cst.FunctionDef, cst.Lambda)):
        if isinstance(node, cst.GeneratorExp):
            return True
        node = module.parent(node)
    return False


def top_imports(module: Module) -> set[str]:
    return {cst.helpers.get_full_name_for_node(a.name) for s in module.tree.body if isinstance(s, cst.SimpleStatementLine)
            for small in s.body if isinstance(small, cst.Import) for a in small.names if a.asname is None}


class Flavour(cst.CSTTransformer):
    """Applies a :class:`Flip` (nodes are matched by identity, so lines stay)."""

    def __init__(self, flip: Flip, module: Module):
        super().__init__()
        self.flip, self.module, self.runs = flip, module, False

    def leave_Await(self, original, updated):
        return updated.expression.with_changes(lpar=updated.lpar, rpar=updated.rpar) if original in self.flip.unawait else updated

    def leave_Call(self, original, updated):
        if original in self.flip.await_:
            return cst.Await(updated, lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        if original in self.flip.run:
            self.runs = True
            return cst.Call(cst.parse_expression("asyncio.run"), [cst.Arg(updated)])
        return updated

    def leave_Module(self, original, updated):
        """``import asyncio`` on the line of the first import, where the module now uses it."""
        if not self.runs or "asyncio" in top_imports(self.module):
            return updated
        line = first_import(self.module)
        index = next(i for i, s in enumerate(original.body) if s is line)
        body = list(updated.body)
        body[index] = body[index].with_changes(body=[cst.Import([cst.ImportAlias(cst.Name("asyncio"))]), *body[index].body])
        return updated.with_changes(body=body)

    def leave_With(self, original, updated):
        return updated.with_changes(asynchronous=flipped(updated.asynchronous)) if original in self.flip.withs else updated

    def leave_FunctionDef(self, original, updated):
        return updated.with_changes(asynchronous=flipped(updated.asynchronous)) if original in self.flip.functions else updated

    def leave_Attribute(self, original, updated):
        if original in self.flip.constructors:
            return updated.with_changes(attr=cst.Name(swapped(original.attr.value, {HTTPX_FLAVOURS["async"]: HTTPX_FLAVOURS["sync"]})))
        return updated

    def leave_Name(self, original, updated):
        if original in self.flip.renamed:
            return updated.with_changes(value=swapped(original.value, HTTPX_RENAMED))
        return updated


def swapped(name: str, pairs: dict[str, str]) -> str:
    """The other name of the pair ``name`` is in (keys and values of ``pairs``)."""
    return {**pairs, **{v: k for k, v in pairs.items()}}[name]


def flipped(asynchronous: cst.Asynchronous | None) -> cst.Asynchronous | None:
    return None if asynchronous is not None else cst.Asynchronous()


def other_flavour(case: Case, findings: list[Finding]) -> list[Rewritten]:
    """The case with its httpx clients in the other flavour, each way the code allows
    (async to sync, sync to async), lines kept. Not applied where an async response method
    is read (the sync response has no ``aread``)."""
    if "httpx" not in "".join(case.sources.values()):
        return []
    modules = [Module(path, text) for path, text in sorted(case.sources.items())]
    if any(isinstance(n, cst.Name) and n.value in ASYNC_RESPONSE_METHODS for m in modules for n in m.nodes):
        return []
    rewritten = []
    for convert in (to_sync, to_async):
        flip = convert(modules)
        if not (flip.constructors or flip.functions):
            continue
        sources = {m.path: m.tree.visit(Flavour(flip, m)).code for m in modules}
        rewritten.append(Rewritten(Case(case.name, sources, case.select, case.project), exact=True))
    return rewritten


# --- every rewrite, and what it does to the findings ----------------------------------------

REWRITES: dict[str, Callable[[Case, list[Finding]], list[Rewritten]]] = {
    "rename": lambda case, findings: renamed_case(case),
    "extract": extracted,
    "move": moved,
    "wrap-tuple": lambda case, findings: statement_rewrite(case, lambda names: Wrap("tuple", names), "held_", ("import time",)),
    "wrap-dict": lambda case, findings: statement_rewrite(case, lambda names: Wrap("dict", names), "held_"),
    "wrap-dataclass": lambda case, findings: statement_rewrite(
        case, lambda names: Wrap("dataclass", names), "held_", ("import dataclasses",),
        "\n\n@dataclasses.dataclass\nclass _Held:\n    value: object\n"),
    "wrap-attribute": lambda case, findings: statement_rewrite(case, lambda names: Wrap("attribute", names), "held_"),
    "bound-method": lambda case, findings: statement_rewrite(case, lambda names: CallThrough("alias", names), "via_"),
    "partial": lambda case, findings: statement_rewrite(case, lambda names: CallThrough("partial", names), "via_", ("import functools",)),
    "sync-async": other_flavour,
}


@dataclass
class Outcome:
    """Findings per rule code: kept, lost and gained by one rewritten case."""

    kept: Counter = field(default_factory=Counter)
    lost: Counter = field(default_factory=Counter)
    gained: Counter = field(default_factory=Counter)
    lost_at: list = field(default_factory=list)
    gained_at: list = field(default_factory=list)


def compare(before: list[Finding], rewritten: Rewritten) -> Outcome:
    """What the rewrite did to the findings: by line where lines are kept, else as
    multisets per file (a moved function's findings counted in its new module)."""
    after = rewritten.case.findings()
    if rewritten.exact:
        expected = Counter((rewritten.relocate(p, line), line, code) for p, line, code in before)
        got = Counter(after)
    else:
        expected = Counter((rewritten.relocate(p, line), code) for p, line, code in before)
        got = Counter((p, code) for p, _, code in after)
    outcome = Outcome()
    for key, count in (expected & got).items():
        outcome.kept[key[-1]] += count
    for key, count in (expected - got).items():
        outcome.lost[key[-1]] += count
        outcome.lost_at.append(key)
    for key, count in (got - expected).items():
        outcome.gained[key[-1]] += count
        outcome.gained_at.append(key)
    return outcome


def validate(rewritten: Rewritten) -> None:
    """Every rewritten module parses and compiles."""
    for path, text in rewritten.case.sources.items():
        compile(text, path, "exec")


def names_relied_on(case: Case, before: list[Finding]) -> list[str]:
    """A smallest set of the case's names (1-minimal) that, left as they are, lets renaming
    keep every finding: the names the analysis decides by, for :func:`rename`."""
    renamed = renaming(case)
    if renamed is None:
        return []

    def keeps(kept: frozenset[str]) -> bool:
        new, paths, _ = renaming(case, kept)
        return new.findings() == sorted((paths[p], line, code) for p, line, code in before)

    kept = frozenset(renamed[2])
    for name in renamed[2]:
        if keeps(kept - {name}):
            kept -= {name}
    return sorted(kept)
