"""One traversal of a parsed module into the facts every rule queries.

The :class:`ModuleModel` records, in source order, each function's calls,
assignments ("binds"), tests (``if``/``while``/``assert`` conditions), early
exits and returns, each with the control path that leads to it. Expressions
are summarised as the dotted keys they read (``card.skills``), the calls they
contain and the string literals in them, so questions such as "is this
condition reading the fetched card?" are set lookups, never re-walks.

Roles (what an A2A call *means*) are resolved afterwards by
:mod:`a2alint.apimodel`; flow questions are answered by :mod:`a2alint.flow`.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

import libcst as cst

_CAMEL = re.compile(r"(?<=[a-z0-9])([A-Z])")
_IDENTITY_CONVERSIONS = {"model_dump", "dict", "to_dict", "model_copy", "copy"}
#: The same as functions of their one positional argument (protobuf cards of a2a-sdk 1.x).
_IDENTITY_FUNCTIONS = {"MessageToDict", "deepcopy"}


def snake(name: str) -> str:
    """``securitySchemes`` -> ``security_schemes``: one spelling for SDK and raw JSON."""
    return _CAMEL.sub(r"_\1", name).lower()


# ``type(node) is cst.Name`` rather than ``isinstance``: libcst's node classes are final, and
# an isinstance check goes through their abstract base class, slowly, on the hottest paths.


def string_value(node: cst.CSTNode) -> str | None:
    """The text of a string literal; f-string holes become ``{}``."""
    if type(node) is cst.SimpleString:
        prefix = node.prefix.lower()
        if "b" in prefix:
            return None
        inner = node.value[len(node.prefix) + len(node.quote) : -len(node.quote)]
        if "\\" not in inner or "r" in prefix:
            return inner  # no escapes: the text is the value (libcst would compile it)
        try:
            value = node.evaluated_value
        except Exception:  # malformed escapes: treat as no literal
            return None
        return value if isinstance(value, str) else None
    if type(node) is cst.FormattedString:
        return "".join(
            part.value if type(part) is cst.FormattedStringText else "{}" for part in node.parts
        )
    if type(node) is cst.ConcatenatedString:
        left, right = string_value(node.left), string_value(node.right)
        return None if left is None or right is None else left + right
    return None


def dotted(expr: cst.CSTNode) -> str | None:
    """The dotted key an expression reads: ``self.card``, ``card["skills"]`` -> ``card.skills``."""
    if type(expr) is cst.Name:
        return expr.value
    if type(expr) is cst.Attribute:
        base = dotted(expr.value)
        return f"{base}.{expr.attr.value}" if base else None
    if type(expr) is cst.Subscript:
        if len(expr.slice) == 1 and type(expr.slice[0].slice) is cst.Index:
            key = string_value(expr.slice[0].slice.value)
            base = dotted(expr.value)
            if base and key and key.isidentifier():
                return f"{base}.{snake(key)}"
        return None
    if type(expr) is cst.Call:
        func = expr.func
        if type(func) is cst.Attribute:
            base = dotted(func.value)
            if func.attr.value == "get" and expr.args and base:
                key = string_value(expr.args[0].value)
                return f"{base}.{snake(key)}" if key and key.isidentifier() else None
            subset = any(a.keyword and a.keyword.value == "include" for a in expr.args)
            if func.attr.value in _IDENTITY_CONVERSIONS and base and not subset:
                return base
        last = func.value if type(func) is cst.Name else func.attr.value if type(func) is cst.Attribute else None
        if last in _IDENTITY_FUNCTIONS:
            positional = [a for a in expr.args if a.keyword is None]
            if len(positional) == 1 and not positional[0].star:
                return dotted(positional[0].value)  # MessageToDict(card, preserving_proto_field_name=True)
        if type(func) is cst.Name and func.value == "getattr" and len(expr.args) >= 2:
            base, key = dotted(expr.args[0].value), string_value(expr.args[1].value)
            return f"{base}.{snake(key)}" if base and key and key.isidentifier() else None
    return None


def prefixes(key: str) -> Iterator[str]:
    parts = key.split(".")
    for end in range(1, len(parts) + 1):
        yield ".".join(parts[:end])


def target_keys(target: cst.CSTNode) -> list[str]:
    """Keys bound by an assignment target, through tuple and list unpacking."""
    if isinstance(target, (cst.Tuple, cst.List)):
        return [key for element in target.elements for key in target_keys(element.value)]
    if isinstance(target, cst.StarredElement):
        return target_keys(target.value)
    key = dotted(target)
    if key is None and isinstance(target, cst.Subscript):  # `self.cards[name] = card`: the container holds it
        key = dotted(target.value)
    return [key] if key else []


# --- control structure --------------------------------------------------------------

LOOP_KINDS = frozenset({"for", "while", "comprehension"})


@dataclass(eq=False)
class Frame:
    """An open control construct: ``if``, loop, ``try``, ``with``, function, class."""

    kind: str
    node: cst.CSTNode
    start: int
    path: "Path" = ()  # where the construct itself sits
    end: int = 0
    branch: str = ""
    #: For each branch (``body``, ``orelse``...) whose block always leaves, how.
    exits: dict[str, str] = field(default_factory=dict)
    #: The condition of an ``if`` or ``while``.
    test: "Test | None" = None


Path = tuple[tuple[Frame, str], ...]


@dataclass(eq=False)
class Expr:
    """What an expression reads: dotted keys, calls inside it, strings, JSON-RPC methods."""

    node: cst.CSTNode | None = None
    keys: set[str] = field(default_factory=set)
    calls: list["Call"] = field(default_factory=list)
    strings: list[str] = field(default_factory=list)
    rpc_methods: set[str] = field(default_factory=set)
    names: set[str] = field(default_factory=set)

    def reads_any(self, keys: set[str] | frozenset[str]) -> bool:
        return not self.keys.isdisjoint(keys)


@dataclass(eq=False)
class Fact:
    node: cst.CSTNode
    scope: "Scope"
    order: int
    path: Path

    @property
    def loops(self) -> list[Frame]:
        return [frame for frame, branch in self.path if frame.kind in LOOP_KINDS and branch == "body"]


@dataclass(eq=False)
class Call(Fact):
    callee: str | None = None  # dotted text of the called expression
    method: str | None = None  # its last name
    receiver: str | None = None  # dotted key of what the method is called on
    args: Expr = field(default_factory=Expr)
    end: int = 0
    #: Filled by the API model: what this call means (``send``, ``card-fetch``...).
    roles: set[str] = field(default_factory=set)
    qualified: str | None = None

    def keyword(self, name: str) -> cst.Arg | None:
        node = self.node
        assert isinstance(node, cst.Call)
        for arg in node.args:
            if arg.keyword and arg.keyword.value == name:
                return arg
        return None

    @property
    def call(self) -> cst.Call:
        assert isinstance(self.node, cst.Call)
        return self.node


@dataclass(eq=False)
class Bind(Fact):
    """``targets = value`` in any spelling: assignment, ``for``, ``with ... as``, walrus."""

    targets: list[str] = field(default_factory=list)
    value: Expr = field(default_factory=Expr)
    kind: str = "assign"
    annotation: str | None = None  # `self.card: AgentCard | None = None`


@dataclass(eq=False)
class Test(Fact):
    """A condition: of an ``if``/``elif``, ``while``, ``assert``, ternary or comprehension."""

    kind: str = "if"
    expr: Expr = field(default_factory=Expr)
    owner: cst.CSTNode | None = None


@dataclass(eq=False)
class Guard(Fact):
    """``if test: return``: what follows in the block runs only when ``test`` is ``polarity``."""

    test: Test | None = None
    polarity: bool = False
    exit_kind: str = "return"


@dataclass(eq=False)
class Exit(Fact):
    kind: str = "return"
    value: Expr = field(default_factory=Expr)


@dataclass(eq=False)
class Param:
    name: str
    annotation: str | None
    node: cst.Param


@dataclass(eq=False)
class Scope:
    """A function (or the module body): its facts, in source order."""

    node: cst.CSTNode
    name: str
    qualname: str
    class_name: str | None
    parent: "Scope | None"
    params: list[Param] = field(default_factory=list)
    calls: list[Call] = field(default_factory=list)
    binds: list[Bind] = field(default_factory=list)
    tests: list[Test] = field(default_factory=list)
    guards: list[Guard] = field(default_factory=list)
    exits: list[Exit] = field(default_factory=list)
    frames: list[Frame] = field(default_factory=list)

    @property
    def is_function(self) -> bool:
        return isinstance(self.node, cst.FunctionDef)


@dataclass(eq=False)
class ModuleModel:
    module: cst.Module
    path: str
    imports: dict[str, str] = field(default_factory=dict)
    scopes: list[Scope] = field(default_factory=list)
    #: Every string literal in the module, for A2A detection and card URLs.
    strings: set[str] = field(default_factory=set)
    rpc_methods: set[str] = field(default_factory=set)
    #: Names of the classes this module defines.
    classes: set[str] = field(default_factory=set)
    #: id(node) -> the innermost statement holding it; id(statement) -> the one holding that.
    statement_of: dict[int, cst.CSTNode | None] = field(default_factory=dict)
    parent_statement: dict[int, cst.CSTNode | None] = field(default_factory=dict)
    #: Filled by the API model.
    is_a2a: bool = False
    api: Any = None
    #: The shared flow analysis, created on first use (see ``a2alint.flow.flow_of``).
    flow: Any = None

    @property
    def calls(self) -> Iterator[Call]:
        for scope in self.scopes:
            yield from scope.calls


# --- the traversal -------------------------------------------------------------------

_CONTROL = {
    cst.If: "if",
    cst.While: "while",
    cst.For: "for",
    cst.Try: "try",
    cst.TryStar: "try",
    cst.With: "with",
    cst.ClassDef: "class",
    cst.ListComp: "comprehension",
    cst.SetComp: "comprehension",
    cst.DictComp: "comprehension",
    cst.GeneratorExp: "comprehension",
}
# (node type, attribute) whose expression is summarised into an Expr.
_COLLECTED = {
    (cst.Assign, "value"),
    (cst.AnnAssign, "value"),
    (cst.AugAssign, "value"),
    (cst.NamedExpr, "value"),
    (cst.If, "test"),
    (cst.While, "test"),
    (cst.Assert, "test"),
    (cst.IfExp, "test"),
    (cst.CompIf, "test"),
    (cst.Call, "args"),
    (cst.For, "iter"),
    (cst.CompFor, "iter"),
    (cst.WithItem, "item"),
    (cst.Return, "value"),
    (cst.Raise, "exc"),
}
_TEST_KINDS = {cst.If: "if", cst.While: "while", cst.Assert: "assert", cst.IfExp: "ifexp", cst.CompIf: "comprehension"}
_STATEMENTS = frozenset(
    {cst.SimpleStatementLine, cst.If, cst.For, cst.While, cst.Try, cst.TryStar, cst.With, cst.FunctionDef, cst.ClassDef, cst.Match}
)
_EXITS = {cst.Return: "return", cst.Raise: "raise", cst.Continue: "continue", cst.Break: "break"}


def _block_exit(block: cst.BaseSuite) -> str | None:
    """How a block always leaves, judged by its last statement."""
    body = block.body
    if not body:
        return None
    last = body[-1]
    if isinstance(last, cst.SimpleStatementLine) or isinstance(block, cst.SimpleStatementSuite):
        small = last.body[-1] if isinstance(last, cst.SimpleStatementLine) and last.body else last
        return _EXITS.get(type(small))
    if isinstance(last, cst.If) and last.orelse is not None:
        body_exit = _block_exit(last.body)
        else_exit = _block_exit(last.orelse.body) if isinstance(last.orelse, cst.Else) else None
        if body_exit and else_exit:
            return body_exit
    return None


def annotation_text(annotation: cst.Annotation | None) -> str | None:
    if annotation is None:
        return None
    node = annotation.annotation
    if isinstance(node, cst.Subscript):  # Optional[Task], list[Task]
        inner = node.slice[0].slice if node.slice and isinstance(node.slice[0].slice, cst.Index) else None
        return dotted(inner.value) if inner is not None else dotted(node.value)
    if isinstance(node, cst.BinaryOperation):  # Task | None
        return dotted(node.left)
    value = string_value(node)
    return value if value is not None else dotted(node)


class ModelBuilder:
    """Builds a :class:`ModuleModel` in one pass over the tree (driven by :func:`walk`)."""

    def __init__(self, model: ModuleModel) -> None:
        self.model = model
        self.order = 0
        self.frames: list[Frame] = []
        self.scopes: list[Scope] = []
        self.classes: list[str] = []
        self.collectors: list[Expr] = []
        self.saved_collectors: list[list[Expr]] = []  # a nested def starts afresh
        self.statements: list[cst.CSTNode] = []
        self.pending: dict[int, Expr] = {}  # id(node) -> collected Expr for (node, attribute)
        scope = Scope(model.module, "<module>", "<module>", None, None)
        model.scopes.append(scope)
        self.scopes.append(scope)

    # -- helpers --
    @property
    def scope(self) -> Scope:
        return self.scopes[-1]

    def path(self) -> Path:
        return tuple((frame, frame.branch) for frame in self.frames)

    # -- generic dispatch --
    def on_visit(self, node: cst.CSTNode) -> None:
        self.order += 1
        kind = type(node)
        statements = self.statements
        if kind in _STATEMENTS:
            self.model.parent_statement[id(node)] = statements[-1] if statements else None
            statements.append(node)
        self.model.statement_of[id(node)] = statements[-1] if statements else None
        handler = _ON_VISIT.get(kind)
        if handler is not None:
            handler(self, node)

    def on_leave(self, original_node: cst.CSTNode) -> None:
        kind = type(original_node)
        if kind in _STATEMENTS:
            self.statements.pop()
        handler = _ON_LEAVE.get(kind)
        if handler is not None:
            handler(self, original_node)

    def _enter_control(self, node: cst.CSTNode) -> None:
        kind = type(node)
        if kind is cst.ClassDef:
            self.classes.append(node.name.value)
            self.model.classes.add(node.name.value)
        frame = Frame(_CONTROL[kind], node, self.order, self.path())
        self.frames.append(frame)
        self.scope.frames.append(frame)

    def _leave_control(self, node: cst.CSTNode) -> None:
        frame = self.frames.pop()
        frame.end = self.order
        kind = type(node)
        if kind is cst.ClassDef:
            self.classes.pop()
        elif kind is cst.If:
            self._guard(node, frame)

    def _leave_block(self, node: cst.BaseSuite) -> None:
        if self.frames:
            frame = self.frames[-1]
            how = _block_exit(node)
            if how and frame.branch:
                frame.exits.setdefault(frame.branch, how)

    def on_visit_attribute(self, node: cst.CSTNode, attribute: str) -> None:
        if self.frames and self.frames[-1].node is node:
            self.frames[-1].branch = attribute
        if (type(node), attribute) in _COLLECTED:
            expr = Expr()
            self.collectors.append(expr)
            self.pending[id(node)] = expr
            if attribute in ("test",):
                self._test(node, expr)
            elif attribute == "iter":
                self._bind_loop(node, expr)
            elif attribute == "item":
                self._bind_with(node, expr)

    def on_leave_attribute(self, original_node: cst.CSTNode, attribute: str) -> None:
        if (type(original_node), attribute) in _COLLECTED:
            expr = self.collectors.pop()
            if attribute in ("iter", "item"):  # the target is bound once the value is computed
                bind = next(b for b in reversed(self.scope.binds) if b.node is original_node)
                bind.order = self.order
            if self.collectors:  # an inner expression is part of the outer one too
                outer = self.collectors[-1]
                outer.keys |= expr.keys
                outer.strings += expr.strings
                outer.rpc_methods |= expr.rpc_methods
                outer.names |= expr.names
                outer.calls += expr.calls

    # -- functions --
    def _enter_function(self, node: cst.FunctionDef) -> None:
        parent = self.scope
        class_name = self.classes[-1] if self.frames and self.frames[-1].kind == "class" else None
        prefix = f"{class_name}." if class_name else ("" if parent.name == "<module>" else f"{parent.qualname}.")
        scope = Scope(
            node,
            node.name.value,
            prefix + node.name.value,
            class_name,
            parent,
        )
        params = node.params
        for param in (*params.posonly_params, *params.params, *params.kwonly_params):
            scope.params.append(Param(param.name.value, annotation_text(param.annotation), param))
        for star in (params.star_arg, params.star_kwarg):
            if isinstance(star, cst.Param):
                scope.params.append(Param(star.name.value, None, star))
        self.model.scopes.append(scope)
        self.scopes.append(scope)
        self.frames.append(Frame("function", node, self.order))
        self.saved_collectors.append(self.collectors)
        self.collectors = []

    def _leave_function(self, node: cst.FunctionDef) -> None:
        self.scopes.pop()
        frame = self.frames.pop()
        frame.end = self.order
        self.collectors = self.saved_collectors.pop()

    # -- expressions --
    def _read(self, node: cst.CSTNode) -> None:
        if not self.collectors:
            return
        key = dotted(node)
        if key is None:
            return
        expr = self.collectors[-1]
        expr.keys.update(prefixes(key))
        if isinstance(node, cst.Name):
            expr.names.add(key)

    def _string(self, node: cst.CSTNode) -> None:
        value = string_value(node)
        if value is None:
            return
        self.model.strings.add(value)
        if self.collectors:
            self.collectors[-1].strings.append(value)

    def _dict_element(self, node: cst.DictElement) -> None:
        if string_value(node.key) == "method":
            method = string_value(node.value)
            if method is not None:
                self.model.rpc_methods.add(method)
                if self.collectors:
                    self.collectors[-1].rpc_methods.add(method)

    def _enter_call(self, node: cst.Call) -> None:
        callee = dotted(node.func)
        method = node.func.attr.value if isinstance(node.func, cst.Attribute) else callee
        receiver = dotted(node.func.value) if isinstance(node.func, cst.Attribute) else None
        call = Call(
            node,
            self.scope,
            self.order,
            self.path(),
            callee=callee,
            method=method,
            receiver=receiver,
        )
        self.scope.calls.append(call)
        if self.collectors:
            self.collectors[-1].calls.append(call)
            key = dotted(node)  # card.get("skills"), getattr(card, "x")
            if key:
                self.collectors[-1].keys.update(prefixes(key))

    def _leave_call(self, node: cst.Call) -> None:
        for call in reversed(self.scope.calls):
            if call.node is node:
                call.end = self.order
                call.args = self.pending.pop(id(node), Expr())
                call.args.node = node
                return

    # -- binds, tests, exits --
    def _bind_assignment(self, node: cst.CSTNode) -> None:
        value = self.pending.pop(id(node), None)
        if value is None:  # a bare annotation: `card: AgentCard`
            return
        value.node = node.value
        if isinstance(node, cst.Assign):
            targets = [key for t in node.targets for key in target_keys(t.target)]
        else:
            targets = target_keys(node.target)
        kind = "augassign" if isinstance(node, cst.AugAssign) else "assign"
        annotation = annotation_text(node.annotation) if isinstance(node, cst.AnnAssign) else None
        self.scope.binds.append(Bind(node, self.scope, self.order, self.path(), targets, value, kind, annotation))

    def _bind_loop(self, node: cst.CSTNode, expr: Expr) -> None:
        expr.node = node.iter
        bind = Bind(node, self.scope, self.order, self.path(), target_keys(node.target), expr, "for")
        self.scope.binds.append(bind)

    def _bind_with(self, node: cst.WithItem, expr: Expr) -> None:
        expr.node = node.item
        targets = target_keys(node.asname.name) if node.asname else []
        self.scope.binds.append(Bind(node, self.scope, self.order, self.path(), targets, expr, "with"))

    def _test(self, node: cst.CSTNode, expr: Expr) -> None:
        expr.node = node.test
        test = Test(node.test, self.scope, self.order, self.path(), _TEST_KINDS[type(node)], expr, node)
        self.scope.tests.append(test)
        if self.frames and self.frames[-1].node is node:
            self.frames[-1].test = test

    def _guard(self, node: cst.If, frame: Frame) -> None:
        test = frame.test
        if test is None:
            return
        body_exit, else_exit = frame.exits.get("body"), frame.exits.get("orelse")
        if body_exit and not (node.orelse and else_exit):
            polarity, how = False, body_exit
        elif else_exit and not body_exit:
            polarity, how = True, else_exit
        else:
            return
        self.scope.guards.append(Guard(node, self.scope, self.order, self.path(), test, polarity, how))

    def _exit(self, node: cst.CSTNode) -> None:
        value = self.pending.pop(id(node), Expr())
        value.node = getattr(node, "value", None) or getattr(node, "exc", None)
        self.scope.exits.append(Exit(node, self.scope, self.order, self.path(), _EXITS[type(node)], value))

    # -- imports --
    def _import(self, node: cst.Import | cst.ImportFrom) -> None:
        if isinstance(node, cst.Import):
            for alias in node.names:
                full = dotted(alias.name) or ""
                if alias.asname:
                    self.model.imports[dotted(alias.asname.name) or full] = full
                else:
                    self.model.imports.setdefault(full.split(".")[0], full.split(".")[0])
                    self.model.imports.setdefault(full, full)
            return
        module = ("." * len(node.relative)) + (dotted(node.module) or "" if node.module else "")
        if isinstance(node.names, cst.ImportStar):
            self.model.imports.setdefault(f"{module}.*", module)
            return
        for alias in node.names:
            name = dotted(alias.name) or ""
            local = dotted(alias.asname.name) if alias.asname else name
            self.model.imports[local or name] = f"{module}.{name}" if module else name


#: What the builder does on entering and on leaving each kind of node.
_ON_VISIT: dict[type, Callable[[ModelBuilder, cst.CSTNode], None]] = {
    **{kind: ModelBuilder._enter_control for kind in _CONTROL},
    cst.FunctionDef: ModelBuilder._enter_function,
    cst.Call: ModelBuilder._enter_call,
    cst.Name: ModelBuilder._read,
    cst.Attribute: ModelBuilder._read,
    cst.Subscript: ModelBuilder._read,
    cst.SimpleString: ModelBuilder._string,
    cst.FormattedString: ModelBuilder._string,
    cst.ConcatenatedString: ModelBuilder._string,
    cst.DictElement: ModelBuilder._dict_element,
    cst.Import: ModelBuilder._import,
    cst.ImportFrom: ModelBuilder._import,
}
_ON_LEAVE: dict[type, Callable[[ModelBuilder, cst.CSTNode], None]] = {
    **{kind: ModelBuilder._leave_control for kind in _CONTROL},
    **{kind: ModelBuilder._exit for kind in _EXITS},
    cst.FunctionDef: ModelBuilder._leave_function,
    cst.IndentedBlock: ModelBuilder._leave_block,
    cst.SimpleStatementSuite: ModelBuilder._leave_block,
    cst.Call: ModelBuilder._leave_call,
    cst.Assign: ModelBuilder._bind_assignment,
    cst.AnnAssign: ModelBuilder._bind_assignment,
    cst.AugAssign: ModelBuilder._bind_assignment,
    cst.NamedExpr: ModelBuilder._bind_assignment,
}


# --- the walk -----------------------------------------------------------------------------

#: Fields that hold only whitespace, comments and punctuation: never walked.
_LAYOUT_FIELDS = (
    "whitespace", "leading_lines", "lines_after_decorators", "lpar", "rpar", "header", "footer",
    "semicolon", "comma", "equal", "colon", "dot", "lbracket", "rbracket", "lbrace", "rbrace",
    "newline", "trailing_whitespace", "empty_lines", "asynchronous", "operator", "relative",
)
#: The fields walked, in the order the source spells them, where that differs from the
#: dataclass; labels (``card.skills``'s ``skills``, ``f(sort_keys=True)``'s ``sort_keys``)
#: are not reads and are not walked.
_SOURCE_ORDER = {
    cst.FunctionDef: ("decorators", "name", "params", "returns", "body"),
    cst.ClassDef: ("decorators", "name", "bases", "keywords", "body"),
    cst.Attribute: ("value",),
    cst.Arg: ("value",),
    cst.IfExp: ("body", "test", "orelse"),
    cst.ExceptHandler: ("type", "name", "body"),
    cst.ExceptStarHandler: ("type", "name", "body"),
    cst.Parameters: ("posonly_params", "params", "star_arg", "kwonly_params", "star_kwarg"),
    cst.MatchCase: ("pattern", "guard", "body"),
}
_FIELDS: dict[type, tuple[tuple[str, bool], ...]] = {}
_ENTER, _LEAVE, _ENTER_FIELD, _LEAVE_FIELD = range(4)


def _fields(kind: type) -> tuple[tuple[str, bool], ...]:
    """The walked fields of ``kind``, last first (the walk's stack reverses them), each
    with whether the builder listens to its events: every field of a node that opens a
    frame (its branches), and the collected ones."""
    fields = _FIELDS.get(kind)
    if fields is None:
        names = _SOURCE_ORDER.get(kind) or tuple(
            f.name for f in dataclasses.fields(kind) if not f.name.startswith(_LAYOUT_FIELDS)
        )
        framed = kind in _CONTROL or kind is cst.FunctionDef
        fields = _FIELDS[kind] = tuple((name, framed or (kind, name) in _COLLECTED) for name in reversed(names))
    return fields


_NODE_TYPES: dict[type, bool] = {}


def _is_node(kind: type) -> bool:
    """``issubclass(kind, cst.CSTNode)``, remembered: ``isinstance`` against libcst's
    abstract base class costs more than the rest of the walk."""
    answer = _NODE_TYPES.get(kind)
    if answer is None:
        answer = _NODE_TYPES[kind] = issubclass(kind, cst.CSTNode)
    return answer


def walk(root: cst.CSTNode, builder: ModelBuilder) -> None:
    """Visit every node below ``root`` in source order, with the events of a libcst
    visitor (``on_visit``, ``on_visit_attribute``, ``on_leave_attribute``, ``on_leave``);
    the attribute events only for the fields the builder listens to (see :func:`_fields`).

    libcst's own ``visit`` rebuilds every node on the way back up; walking the dataclass
    fields directly, and skipping layout, is several times faster and needs no recursion."""
    stack: list[tuple[int, cst.CSTNode, str]] = [(_ENTER, root, "")]
    pop, push, extend = stack.pop, stack.append, stack.extend
    while stack:
        action, node, name = pop()
        if action == _ENTER:
            builder.on_visit(node)
            push((_LEAVE, node, ""))
            for field_name, evented in _fields(type(node)):
                value = getattr(node, field_name)
                kind = type(value)
                if kind is tuple or kind is list:  # libcst's sequences hold nodes only
                    if not value:
                        continue
                    children = value
                elif _is_node(kind):
                    children = (value,)
                else:
                    continue
                if evented:
                    push((_LEAVE_FIELD, node, field_name))
                extend([(_ENTER, child, "") for child in reversed(children)])
                if evented:
                    push((_ENTER_FIELD, node, field_name))
        elif action == _LEAVE:
            builder.on_leave(node)
        elif action == _ENTER_FIELD:
            builder.on_visit_attribute(node, name)
        else:
            builder.on_leave_attribute(node, name)


def build_model(module: cst.Module, path: str) -> ModuleModel:
    model = ModuleModel(module, path)
    walk(module, ModelBuilder(model))
    return model
