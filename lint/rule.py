"""The rule API: one small class per rule, Fixit style.

A rule declares its code, name, severity, documentation (the class docstring,
printed by ``a2alint rule CODE``) and its own ``VALID`` / ``INVALID`` examples,
which the test suite runs. It implements ``check(model)``: the engine parses
each file once, builds one :class:`~a2alint.model.ModuleModel` in one
traversal, and every enabled rule asks that model its questions.

In ``INVALID`` examples, a line that must be reported ends with
``# expect: CODE``; a rule with a fix may give the fixed source as
``Invalid(source, fixed=...)``. An example of several modules that import each
other is ``Files({"client.py": ..., "remote.py": ...})``, checked as one project.

A plug-in's rule (one not in ``a2alint.rules``) runs contained: its ``print()`` goes
to stderr, its ``check()`` of one file is stopped after ``PLUGIN_CHECK_SECONDS`` (see
:mod:`a2alint.deadline` for what a limit can stop: not a long call into native code),
and an exception, ``sys.exit()`` or (in the command line's forked process) ``os._exit()``
there is an internal error of the rule on that file.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Iterable, Mapping, Union

from a2alint.diagnostics import Applicability, Severity

if TYPE_CHECKING:  # only annotations: the rule pages and plug-in classes load without libcst
    import libcst as cst

    from a2alint.model import ModuleModel


@dataclass(frozen=True)
class Invalid:
    source: str
    fixed: str | None = None
    unsafe_fixes: bool = False


@dataclass(frozen=True)
class Files:
    """An example of several modules (path -> source), checked as one project."""

    files: Mapping[str, str]


Example = Union[str, Invalid, Files]


def example_sources(example: Example) -> list[str]:
    """The module sources of an example (one, or each of a ``Files`` example)."""
    if isinstance(example, Files):
        return [textwrap.dedent(text) for text in example.files.values()]
    return [textwrap.dedent(example.source if isinstance(example, Invalid) else example)]


@dataclass(frozen=True)
class Insert:
    """Text a fix puts next to a node of the checked module: after its end, or before
    its start (an import, a helper function); with ``whole_line``, at the start of the line
    after the node's last one (past what else its line holds: ``; TIMEOUT = 5``, a comment).
    Its newlines are written as the file's own."""

    node: cst.CSTNode
    text: str
    after: bool = True
    whole_line: bool = False


@dataclass(frozen=True)
class Replace:
    """A fix that replaces ``old`` with ``new`` (both nodes of the checked module), and
    makes the ``inserts`` that go with it."""

    old: cst.CSTNode
    new: cst.CSTNode
    applicability: Applicability = "safe"
    description: str = ""
    inserts: tuple[Insert, ...] = ()


@dataclass(frozen=True)
class Note:
    """A related location, explained by ``label``: a node of this file, or a fact (a
    call, a bind, a parameter) of this module or of another one."""

    node: object
    label: str


@dataclass
class Report:
    node: cst.CSTNode
    message: str
    suggestion: str | None
    fix: Replace | None
    notes: tuple[Note, ...]
    #: ``{line:NAME}`` in the suggestion becomes the line of ``lines[NAME]``.
    lines: Mapping[str, cst.CSTNode] = field(default_factory=dict)
    #: The places a code flow visits, in execution order: ``node`` and nodes of ``notes``.
    flow: tuple[cst.CSTNode, ...] = ()

    def places(self) -> list[cst.CSTNode]:
        """Every node whose position the diagnostic needs."""
        return [self.node, *(note.node for note in self.notes), *self.lines.values(), *([self.fix.old] if self.fix else [])]

    def suggestion_text(self, line_of: Callable[[object], object]) -> str | None:
        """The suggestion with each ``{line:NAME}`` replaced by the line of ``lines[NAME]``
        (``48``, or ``contracts.py:18`` for a place in another module)."""
        if not self.suggestion or not self.lines:
            return self.suggestion
        return _LINE.sub(lambda m: str(line_of(self.lines[m.group(1)])), self.suggestion)


_LINE = re.compile(r"\{line:(\w+)\}")


class Rule:
    code: ClassVar[str]
    name: ClassVar[str]
    severity: ClassVar[Severity] = "warning"
    preview: ClassVar[bool] = False
    #: Options a user may set under ``[tool.a2alint.rules.CODE]``, with defaults.
    options: ClassVar[dict[str, Any]] = {}
    #: Whether the engine emits this code itself (syntax errors, unused noqa).
    engine: ClassVar[bool] = False
    #: Whether the rule only applies to modules that are A2A client code.
    requires_a2a: ClassVar[bool] = True
    #: Whether the rule runs only when its exact code is selected.
    opt_in: ClassVar[bool] = False
    #: Whether its findings carry a fix: "None", "Sometimes" or "Always" (ruff's terms).
    fix_availability: ClassVar[str] = "None"
    VALID: ClassVar[list[str]] = []
    INVALID: ClassVar[list[Example]] = []

    def __init__(self, options: dict[str, Any] | None = None) -> None:
        self.config = {**self.options, **(options or {})}
        self.reports: list[Report] = []

    @classmethod
    def summary(cls) -> str:
        return (cls.__doc__ or "").strip().splitlines()[0]

    @classmethod
    def documentation(cls) -> str:
        import inspect

        return inspect.cleandoc(cls.__doc__ or "")

    def check(self, model: "ModuleModel") -> None:
        """Report this rule's findings in ``model`` (engine codes have none)."""

    def report(
        self,
        node: cst.CSTNode,
        message: str,
        *,
        suggestion: str | None = None,
        fix: Replace | None = None,
        notes: Iterable[Note] = (),
        lines: Mapping[str, cst.CSTNode] | None = None,
        flow: Iterable[cst.CSTNode] = (),
    ) -> None:
        """Report ``node``. ``notes`` are the related places (the send, the guard, the fetch),
        given in any order; the suggestion may name places by line: ``"the send at line
        {line:send}"`` with ``lines={"send": node}`` (positions exist only after rules run).
        ``flow`` lists, in execution order, the places a code flow goes through (``node``
        and nodes of ``notes``), for formats that show one (SARIF ``codeFlows``)."""
        merged: dict[int, Note] = {}  # one note per place: labels of the same place are joined
        for note in notes:
            known = merged.get(id(note.node))
            if known is None:
                merged[id(note.node)] = note
            elif note.label not in known.label.split("; "):
                merged[id(note.node)] = Note(note.node, f"{known.label}; {note.label}")
        steps = list({id(step): step for step in flow}.values())  # each place once, at its first visit
        self.reports.append(Report(node, message, suggestion, fix, tuple(merged.values()), dict(lines or {}), tuple(steps)))
