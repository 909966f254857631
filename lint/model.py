"""One traversal of a parsed module into the facts every rule queries.

The :class:`ModuleModel` records, in source order, each function's calls,
assignments ("binds"), tests (``if``/``while``/``assert`` conditions), early
exits and returns, each with the control path that leads to it. Expressions
are summarised as the dotted keys they read (``card.skills``), the calls they
contain, the string literals and the literal fields (``task_id=``, ``"method":``)
in them, so questions such as "is this condition reading the fetched card?" are
set lookups, never re-walks.

The facts hold the syntax nodes they come from for the module being checked, but
nothing the project analysis needs is read from a node: a model whose nodes are
dropped (:func:`facts_of`) is what other modules' analyses see, and what the cache
keeps. Roles and types are resolved by :mod:`a2alint.apimodel`, values by
:mod:`a2alint.values`, flow questions by :mod:`a2alint.flow`.
"""

from __future__ import annotations

import dataclasses
import re
import threading
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import AbstractSet, Any, Callable, Iterator, Mapping, Sequence

import libcst as cst

from a2alint import apimodel

_CAMEL = re.compile(r"(?<=[a-z0-9])([A-Z])")
#: Methods whose result is the object itself in another form (a card stays a card).
IDENTITY_METHODS = frozenset({"model_dump", "dict", "to_dict", "model_copy", "copy", "json"})
#: The same as functions of their one positional argument (protobuf cards of a2a-sdk 1.x).
IDENTITY_FUNCTIONS = frozenset({"MessageToDict", "deepcopy", "dict"})
#: Methods that put their arguments into the object they are called on.
MUTATORS = frozenset({"update", "append", "extend", "setdefault", "add", "insert", "appendleft", "CopyFrom", "MergeFrom"})
#: How deep a test's shape is kept; deeper operands are summarised by the keys they read.
SHAPE_DEPTH = 12


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


class _Receivers(threading.local):  # the language server models documents in threads
    """While a method is modelled: its first parameter's name -> ``self`` (``cls`` in a
    classmethod). A method's receiver is known by its place, not by what it is called, so
    ``this.card`` is the key ``self.card`` (and every question about ``self`` holds)."""

    names: dict[str, str] = {}


_RECEIVERS = _Receivers()


def dotted(expr: cst.CSTNode) -> str | None:
    """The dotted key an expression reads: ``self.card``, ``card["skills"]`` -> ``card.skills``.

    An element of a container reads as the container (``self.peers[name]`` ->
    ``self.peers``): containers hold the values put into them. Conversions that keep
    an object what it is (``card.model_dump()``, ``MessageToDict(card)``) read it."""
    kind = type(expr)
    if kind is cst.Name:
        receivers = _RECEIVERS.names
        return receivers.get(expr.value, expr.value) if receivers else expr.value
    if kind is cst.Attribute:
        base = dotted(expr.value)
        return f"{base}.{expr.attr.value}" if base else None
    if kind is cst.Subscript:
        base = dotted(expr.value)
        if base and len(expr.slice) == 1 and type(expr.slice[0].slice) is cst.Index:
            key = string_value(expr.slice[0].slice.value)
            if key is not None:
                return f"{base}.{snake(key)}" if key.isidentifier() else None
        return base
    if kind is cst.Call:
        func = expr.func
        if type(func) is cst.Attribute:
            base = dotted(func.value)
            if not base:
                return None
            name = func.attr.value
            if name in ("get", "setdefault") and expr.args:
                # `card.get("skills")`, `params.setdefault("metadata", {})`; `peers.get(name)` is a call
                key = string_value(expr.args[0].value)
                return f"{base}.{snake(key)}" if key and key.isidentifier() else None
            subset = any(a.keyword and a.keyword.value in ("include", "exclude") for a in expr.args)
            if name in IDENTITY_METHODS and not subset:
                return base
            if name in ("values", "items") and not expr.args:
                return base
            return None
        last = func.value if type(func) is cst.Name else None
        if last in IDENTITY_FUNCTIONS:
            positional = [a for a in expr.args if a.keyword is None]
            if len(positional) == 1 and not positional[0].star:
                return dotted(positional[0].value)  # MessageToDict(card, preserving_proto_field_name=True)
        if last == "getattr" and len(expr.args) >= 2:
            base, key = dotted(expr.args[0].value), string_value(expr.args[1].value)
            return f"{base}.{snake(key)}" if base and key and key.isidentifier() else None
    if kind is cst.Await:
        return dotted(expr.expression) if type(expr.expression) is not cst.Call else None
    return None


def prefixes(key: str) -> tuple[str, ...] | list[str]:
    """``self.card.skills`` -> ``self``, ``self.card``, ``self.card.skills``."""
    if "." not in key:
        return (key,)
    parts = key.split(".")
    return [".".join(parts[:end]) for end in range(1, len(parts) + 1)]


def target_keys(target: cst.CSTNode) -> list[str]:
    """Keys bound by an assignment target, through tuple and list unpacking."""
    if type(target) in (cst.Tuple, cst.List):
        return [key for element in target.elements for key in target_keys(element.value)]
    if type(target) is cst.StarredElement:
        return target_keys(target.value)
    key = dotted(target)
    return [key] if key else []


def _held_tuple(bind: "Bind", binds_of: dict[str, list["Bind"]], scope: "Scope") -> "Bind | None":
    """The bind of the tuple ``bind`` unpacks element by element (``a, b = pair`` where
    ``pair = (x, y)`` is bound once, before it, and what ``x`` and ``y`` read is not bound
    in between), or None."""
    node = bind.node
    if bind.kind != "assign" or bind.weak or len(bind.targets) < 2 or type(node) is not cst.Assign or len(node.targets) != 1:
        return None
    target = node.targets[0].target
    if type(target) not in (cst.Tuple, cst.List) or len(target.elements) != len(bind.targets) \
            or any(type(e.value) not in (cst.Name, cst.Attribute) for e in target.elements):
        return None
    if type(node.value) is not cst.Name or any(p.name == node.value.value for p in scope.params):
        return None
    holders = binds_of.get(node.value.value, [])
    if len(holders) != 1:
        return None
    holder = holders[0]
    elements = holder.value.elements
    if holder.kind != "assign" or holder.weak or holder.order >= bind.order or elements is None \
            or len(elements) != len(bind.targets) or type(holder.value.node) is not cst.Tuple:
        return None
    read = {key.split(".")[0] for element in elements for key in element.keys}
    between = any(holder.order < other.order < bind.order for key in read for other in binds_of.get(key, ()))
    return None if between else holder


def _returned_attribute(scope: "Scope") -> str | None:
    """``x`` for a method whose whole body is ``return self.x`` (a getter), else None."""
    body = scope.node.body.body if type(scope.node.body) is cst.IndentedBlock else ()
    exits = scope.exits
    if len(body) != 1 or len(exits) != 1 or scope.binds or scope.calls or type(exits[0].value.node) is not cst.Attribute:
        return None
    [key] = exits[0].value.reads or [None]
    return key[len("self."):] if key and key.startswith("self.") and key.count(".") == 1 else None


def _store_read_back(bind: "Bind", getters: dict[str, str], binds_of: dict[str, list["Bind"]], scope: "Scope") -> "Bind | None":
    """The store ``self.x = value`` that ``bind`` (``name = self.get_x()``) reads straight
    back through a getter, or None."""
    if bind.kind != "assign" or bind.weak or len(bind.targets) != 1 or "." in bind.targets[0] or type(bind.node) is not cst.Assign:
        return None
    read = bind.value.node
    call = bind.direct
    if call is not None and call.node is read and call.receiver == "self" and not call.arguments:
        name, property_read = call.method, False
    elif type(read) is cst.Attribute and bind.copy_of and bind.copy_of.startswith("self.") and bind.copy_of.count(".") == 1:
        name, property_read = bind.copy_of[len("self."):], True
    else:
        return None
    attribute, is_property = getters.get(name or "", (None, False))
    if attribute is None or is_property != property_read:
        return None
    stores = [b for b in binds_of.get(f"self.{attribute}", ()) if b.order < bind.order]
    if len(stores) != 1 or stores[0].kind != "assign" or stores[0].weak or stores[0].targets != [f"self.{attribute}"]:
        return None
    store = stores[0]
    if type(store.node) is not cst.Assign or not _encloses(store.path, bind.path):
        return None
    own = {id(c) for c in bind.value.calls}
    if any(store.order < c.order < bind.order and id(c) not in own for c in scope.calls):
        return None
    read_keys = {key.split(".")[0] for key in store.value.keys}
    if any(store.order < other.order < bind.order for key in read_keys for other in binds_of.get(key, ())):
        return None
    return store


def _read_elsewhere(attribute: str, getter: str, methods, read_back: set[int], own: "Scope") -> bool:
    """``self.<attribute>`` is read in the class other than straight back where it is
    stored: by a method other than its getter ``own``, or through a call of the getter
    (or a read of it, when a property) that is not such a read-back."""
    key, through = f"self.{attribute}", f"self.{getter}"
    for scope in methods:
        if scope is own:
            continue
        exprs = [b.value for b in scope.binds] + [t.expr for t in scope.tests] + [e.value for e in (*scope.exits, *scope.yields)]
        exprs += [c.args for c in scope.calls]
        for expr in exprs:
            if key in expr.keys or (through in expr.keys and id(expr.node) not in read_back):
                return True
        for call in scope.calls:
            if call.receiver == key or (call.callee == through and id(call.node) not in read_back):
                return True
    return False


def _binds_by_target(scope: "Scope") -> dict[str, list["Bind"]]:
    found: dict[str, list[Bind]] = {}
    for bind in scope.binds:
        for target in bind.targets:
            found.setdefault(target, []).append(bind)
    return found


def _encloses(outer: "Path", inner: "Path") -> bool:
    """A fact on control path ``outer`` sits in a block that holds ``inner``'s."""
    return inner[:len(outer)] == outer


def _weak_target(target: cst.CSTNode) -> bool:
    """``d[k] = v`` adds to what ``d`` holds; it does not replace it."""
    if type(target) is cst.Subscript:
        inner = target.slice[0].slice if len(target.slice) == 1 else None
        return not (type(inner) is cst.Index and string_value(inner.value) is not None)
    return False


def is_none(node: cst.CSTNode | None) -> bool:
    return type(node) is cst.Name and node.value == "None"


def is_placeholder(value: cst.CSTNode | None) -> bool:
    """``None``, ``{}``, ``[]``, ``()``, ``dict()``: nothing held yet."""
    kind = type(value)
    if kind is cst.Name:
        return value.value == "None"
    if kind in (cst.Dict, cst.List, cst.Tuple, cst.Set):
        return not value.elements
    if kind is cst.Call:
        return type(value.func) is cst.Name and value.func.value in ("dict", "list", "set", "tuple") and not value.args
    return False


def or_default(node: cst.CSTNode) -> cst.CSTNode:
    """``x`` of ``(x or {})``: what a method called on it is called on, as far as what it
    holds goes (``(card.get("capabilities") or {}).get("extensions")``)."""
    if type(node) is cst.BooleanOperation and type(node.operator) is cst.Or and is_placeholder(node.right):
        return node.left
    return node


# --- control structure --------------------------------------------------------------

LOOP_KINDS = frozenset({"for", "while", "comprehension"})


@dataclass(eq=False, repr=False)
class Frame:
    """An open control construct: ``if``, loop, ``try``, ``with``, function, class."""

    kind: str
    node: cst.CSTNode | None
    start: int
    path: "Path" = ()  # where the construct itself sits
    end: int = 0
    branch: str = ""
    #: For each branch (``body``, ``orelse``...) whose block always leaves, how.
    exits: dict[str, str] = field(default_factory=dict)
    #: The condition of an ``if`` or ``while``.
    test: "Test | None" = None
    #: A ``for`` over ``itertools.count()`` / ``cycle`` / ``repeat``, a ``while True``.
    endless: bool = False
    #: A ``with`` whose items cancel what they wrap after a delay (``asyncio.timeout(30)``).
    deadline: bool = False

    def __getstate__(self) -> dict:
        return {**self.__dict__, "node": None}

    def __repr__(self) -> str:
        return f"Frame({self.kind}@{self.start})"


Path = tuple[tuple[Frame, str], ...]


#: The container each collection field of an expression grows into (see :meth:`Expr.grown`).
_CONTAINERS: dict[str, type] = {
    "keys": set, "reads": set, "calls": list, "top": list, "derived": set, "derived_top": list, "strings": list,
    "rpc_methods": set, "names": set, "texts": list, "methods": set, "method_keys": set, "slots": dict, "fields": dict,
}
#: The fields an enclosing expression takes from one inside it, and those it takes only
#: when the inner one is part of its value (not a called expression, a subscript's index...).
_SHARED_FIELDS = ("keys", "strings", "rpc_methods", "names", "calls", "fields")
_VALUE_FIELDS = ("reads", "top", "derived", "derived_top", "texts", "methods", "method_keys", "slots")
#: What the value of ``x.update(y)`` takes from each argument: what it is made of, while
#: the slots (``{"params": params}``) stay with the dict literal that spells them.
_ARGUMENT_FIELDS = _VALUE_FIELDS[:-1]


class Expr:
    """What an expression reads: dotted keys, calls inside it, strings, literal fields.

    Every field starts as the class's shared empty value, immutable, and a field gets a
    container of its own only when the model builder puts something in it
    (:meth:`grown`): most fields of most expressions stay empty, a large project holds
    millions of expressions, and building one costs no more than the fields it fills."""

    node: cst.CSTNode | None = None
    #: Every dotted key read, with its prefixes (``card.skills`` gives ``card`` too).
    keys: AbstractSet[str] = frozenset()
    #: The keys the value is made of: read outside any call in it, longest form only.
    reads: AbstractSet[str] = frozenset()
    calls: Sequence["Call"] = ()
    #: The calls the value is made of: not inside another call of it.
    top: Sequence["Call"] = ()
    #: Keys and calls the value is computed from by an operator (``a == b``, ``x + "/y"``,
    #: ``not x``, an f-string): it derives from them without being them.
    derived: AbstractSet[str] = frozenset()
    derived_top: Sequence["Call"] = ()
    strings: Sequence[str] = ()
    rpc_methods: AbstractSet[str] = frozenset()
    names: AbstractSet[str] = frozenset()
    #: The string literals the value is made of (outside any call in it).
    texts: Sequence[str] = ()
    #: What a ``"method"`` key of a dict the value is made of holds: literal method names,
    #: and the keys read there (``{"method": method}``).
    methods: AbstractSet[str] = frozenset()
    method_keys: AbstractSet[str] = frozenset()
    #: Keys of dicts it is made of whose value is a plain name: ``{"params": params}`` ->
    #: ``{"params": "params"}`` (a body that passes on what it is given).
    slots: Mapping[str, str] = MappingProxyType({})
    #: Literal fields in it: dict keys and call keywords (snake case) -> whether the value
    #: given is something other than ``None`` (``Message(task_id=tid)`` -> ``{"task_id": True}``).
    fields: Mapping[str, bool] = MappingProxyType({})
    #: The value is ``None``, an empty literal or an empty constructor.
    placeholder: bool = False
    #: The value is a ``TaskState`` member, a task-state string or name.
    literal_state: str | None = None
    #: For a tuple literal (``return doc, digest``): what each element is made of.
    elements: list["Expr"] | None = None
    #: For a dict literal whose keys are all spelt out (``{"card": card}``): what each
    #: key's value is made of, by the key a read of it names (``entry["card"]`` -> ``card``).
    entries: dict[str, "Expr"] | None = None
    #: The value's form when it is a condition and is held on its way (a dict entry, an
    #: argument): ``{"lost": a - b}``, as a test's (see :func:`shape_of`).
    shape: tuple = ()

    def __init__(self, node: cst.CSTNode | None = None, **fields: object) -> None:
        self.node = node
        if fields:
            self.__dict__.update(fields)

    def reads_any(self, keys: set[str] | frozenset[str]) -> bool:
        return not self.keys.isdisjoint(keys)

    def grown(self, name: str):
        """The collection field ``name`` as a container of this expression's own, to add to."""
        state = self.__dict__
        value = state.get(name)
        if value is None:
            value = state[name] = _CONTAINERS[name]()
        return value

    def absorb(self, inner: "Expr", names: tuple[str, ...]) -> None:
        """Add what ``inner`` (an expression inside this one) holds in fields ``names``."""
        theirs, mine = inner.__dict__, self.__dict__
        for name in names:
            value = theirs.get(name)
            if value:
                held = mine.get(name)
                if held is None:
                    mine[name] = type(value)(value)
                elif type(held) is list:
                    held.extend(value)
                else:
                    held.update(value)

    def __getstate__(self) -> dict:
        """The fields it filled (an expression's facts are pickled for the cache and the
        pool, and most of its fields are empty); its node stays with the tree."""
        return {name: value for name, value in self.__dict__.items() if name != "node" and value}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)

    def __repr__(self) -> str:
        return f"Expr({sorted(self.reads)}, {[c.callee for c in self.top]})"


@dataclass(eq=False, repr=False)
class Fact:
    node: cst.CSTNode | None
    scope: "Scope"
    order: int
    path: Path

    @property
    def loops(self) -> list[Frame]:
        return [frame for frame, branch in self.path if frame.kind in LOOP_KINDS and branch == "body"]

    def __getstate__(self) -> dict:
        return {**self.__dict__, "node": None}

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.scope.qualname}@{self.order})"


@dataclass(eq=False)
class Argument:
    keyword: str | None
    star: str
    value: Expr
    #: The literal string given, if it is one.
    text: str | None = None
    none: bool = False


@dataclass(eq=False, repr=False)
class Call(Fact):
    callee: str | None = None  # dotted text of the called expression
    method: str | None = None  # its last name
    receiver: str | None = None  # dotted key of what the method is called on
    args: Expr = field(default_factory=Expr)
    arguments: list[Argument] = field(default_factory=list)
    end: int = 0
    #: The call whose result the method is called on (``a.b(c).d(e)``: ``a.b(c)`` for ``d``).
    receiver_call: "Call | None" = None
    #: Keys read in what is called (``self.steps[index].run``: ``self.steps``, ``index``).
    func_keys: frozenset[str] = frozenset()
    awaited: bool = False
    #: Filled by the API model: what this call means (``send``, ``card-fetch``...).
    roles: set[str] = field(default_factory=set)
    qualified: str | None = None

    def keyword(self, name: str) -> Argument | None:
        return next((a for a in self.arguments if a.keyword == name), None)

    def positional(self, index: int) -> Argument | None:
        found = [a for a in self.arguments if a.keyword is None and not a.star]
        return found[index] if 0 <= index < len(found) else None

    def argument(self, index: int, keyword: str) -> Argument | None:
        """The argument given for a parameter by keyword or by position."""
        return self.keyword(keyword) or self.positional(index)

    @property
    def call(self) -> cst.Call:
        assert isinstance(self.node, cst.Call)
        return self.node


@dataclass(eq=False, repr=False)
class Bind(Fact):
    """``targets = value`` in any spelling: assignment, ``for``, ``with ... as``, walrus,
    and ``x.update(y)`` / ``x.append(y)`` (a weak bind: ``x`` gains what ``y`` holds)."""

    targets: list[str] = field(default_factory=list)
    value: Expr = field(default_factory=Expr)
    kind: str = "assign"
    annotation: str | None = None  # `self.card: AgentCard | None = None`
    #: The call the value is (``x = f()``, ``x = await f()``).
    direct: "Call | None" = None
    #: The key the value copies (``c = card``, ``data = card.model_dump()``).
    copy_of: str | None = None
    #: Adds to what the target holds rather than replacing it (``d[k] = v``, ``+=``, mutators).
    weak: bool = False
    #: ``for key, value in d.items()`` / ``for i, x in enumerate(xs)``: the first target is a key.
    keyed: bool = False
    #: The value's form when it is a condition (``missing = x not in ids``), as a test's.
    shape: tuple = ()


@dataclass(eq=False, repr=False)
class Test(Fact):
    """A condition: of an ``if``/``elif``, ``while``, ``assert``, ternary or comprehension."""

    kind: str = "if"
    expr: Expr = field(default_factory=Expr)
    owner: cst.CSTNode | None = None
    #: The condition's form, for questions that need it without the tree (see :func:`shape_of`).
    shape: tuple = ()

    def __getstate__(self) -> dict:
        return {**self.__dict__, "node": None, "owner": None}


@dataclass(eq=False, repr=False)
class Guard(Fact):
    """``if test: return``: what follows in the block runs only when ``test`` is ``polarity``."""

    test: Test | None = None
    polarity: bool = False
    exit_kind: str = "return"


@dataclass(eq=False, repr=False)
class Exit(Fact):
    kind: str = "return"
    value: Expr = field(default_factory=Expr)
    #: For a ``return``: the returned value's form, as a test's (``return x in card.skills``).
    shape: tuple = ()


@dataclass(eq=False, repr=False)
class Param:
    name: str
    annotation: str | None
    node: cst.Param | None
    index: int = 0
    star: str = ""
    default_none: bool = False

    def __getstate__(self) -> dict:
        return {**self.__dict__, "node": None}

    def __repr__(self) -> str:
        return f"Param({self.name})"


@dataclass(eq=False, repr=False)
class Scope:
    """A function (or the module body): its facts, in source order."""

    node: cst.CSTNode | None
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
    #: ``yield value`` statements (kind ``"yield"``): what a context manager built on a
    #: generator hands to ``with ... as``. Not exits: the function goes on after them.
    yields: list[Exit] = field(default_factory=list)
    frames: list[Frame] = field(default_factory=list)
    #: Dotted names of the decorators (``functools.lru_cache``, ``classmethod``).
    decorators: list[str] = field(default_factory=list)
    #: The decorators' calls (``@cached(TTLCache(maxsize=8, ttl=300))``).
    decorator_calls: list[Call] = field(default_factory=list)
    is_async: bool = False
    is_function: bool = False
    #: Filled by the API model: the type each key is bound to (canonical names).
    types: dict[str, str] = field(default_factory=dict)
    #: Where the module's model puts this scope (``model.scopes[index]``).
    index: int = 0

    def __getstate__(self) -> dict:
        return {**self.__dict__, "node": None}

    def __repr__(self) -> str:
        return f"Scope({self.qualname})"


@dataclass(eq=False, repr=False)
class ClassFacts:
    """A class the module defines: its bases, decorators and declared fields."""

    name: str
    qualname: str
    bases: list[str] = field(default_factory=list)
    decorators: list[str] = field(default_factory=list)
    #: Class-level fields (``state: TaskState = TaskState.submitted``): name -> (annotation,
    #: the bind that gives its default, if any).
    fields: dict[str, tuple[str | None, "Bind | None"]] = field(default_factory=dict)
    #: The scope the class body's binds are recorded in.
    scope: Scope | None = None
    #: Attributes the class only ever reads straight back where it stores them, through
    #: a getter method (``self._card = card``; ``card = self.get_card()``) -> that getter.
    transient: dict[str, str] = field(default_factory=dict)

    def __repr__(self) -> str:
        return f"Class({self.qualname})"


@dataclass(eq=False, repr=False)
class ModuleModel:
    module: cst.Module | None
    path: str
    imports: dict[str, str] = field(default_factory=dict)
    scopes: list[Scope] = field(default_factory=list)
    #: Every string literal in the module, for A2A detection and card URLs.
    strings: set[str] = field(default_factory=set)
    rpc_methods: set[str] = field(default_factory=set)
    #: The classes this module defines, by name.
    classes: dict[str, ClassFacts] = field(default_factory=dict)
    #: id(node) -> the innermost statement holding it; id(statement) -> the one holding that.
    statement_of: dict[int, cst.CSTNode | None] = field(default_factory=dict)
    parent_statement: dict[int, cst.CSTNode | None] = field(default_factory=dict)
    #: Filled by the API model.
    is_a2a: bool = False
    imports_sdk: bool = False
    #: The module is part of a project's A2A code without being A2A code itself: it imports
    #: such a module or is imported by one (a contract helper, a wrapper's caller).
    in_project: bool = False
    api: Any = None
    #: The shared flow analysis, created on first use (see ``a2alint.flow.flow_of``).
    flow: Any = None
    #: The dotted module name the project gives this file (``pkg.client``), if any.
    name: str = ""
    #: Where its nodes are, created on first use (see ``a2alint.positions.Positions.of``).
    positions: Any = None
    #: id(top-level function) -> what it adds to the model, when built to be built again
    #: from (an editor's buffer: see :func:`build_model`).
    fragments: "dict[int, Fragment] | None" = None
    #: The last version of an edited buffer, for its positions to start from
    #: (``a2alint.positions.Earlier``); taken by the first placement.
    earlier: Any = None
    #: Where the lines that begin its top-level statements and clauses start
    #: (``a2alint.nesting.Nesting.tops``): its positions are then placed a top-level
    #: statement at a time, the ones asked for only.
    tops: "tuple[int, ...] | None" = None

    @property
    def calls(self) -> Iterator[Call]:
        for scope in self.scopes:
            yield from scope.calls

    def __repr__(self) -> str:
        return f"ModuleModel({self.name or self.path})"

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state.update(module=None, statement_of={}, parent_statement={}, api=None, flow=None, positions=None, fragments=None, earlier=None, tops=None)
        return state

    def keep_facts(self) -> None:
        """Let go of the tree, in place: the model keeps what :meth:`__getstate__` keeps
        (what other modules' questions read, and the cache), so the answers the project's
        analysis gave about its facts still hold. For a module whose own check is over."""
        if self.flow is not None:
            self.flow.release()
        self.__dict__.update(self.__getstate__())
        seen: set[int] = set()
        stack: list = [*self.scopes, *self.classes.values()]
        while stack:
            item = stack.pop()
            if id(item) in seen:
                continue
            seen.add(id(item))
            if isinstance(item, (list, tuple)):
                stack.extend(item)
            elif isinstance(item, dict):
                stack.extend(item.values())
            else:
                names = _FACT_FIELDS.get(type(item))
                if names is None:
                    continue
                if getattr(item, "node", None) is not None:
                    item.node = None
                if getattr(item, "owner", None) is not None:
                    item.owner = None
                stack.extend(getattr(item, name) for name in names)

    def release(self) -> None:
        """Break the model's cycles (a fact and its scope, the model and its flow and
        positions) for a model nobody asks again, so that it is freed without the cyclic
        collector. Its fragments are left whole: the next version of the buffer is built
        from them (:meth:`Fragment.release` lets one go)."""
        kept = {id(scope) for fragment in (self.fragments or {}).values() for scope in fragment.scopes}
        for scope in self.scopes:
            if id(scope) not in kept:
                _release_scope(scope)
        self.scopes, self.classes = [], {}
        if self.flow is not None:
            self.flow.release()
        self.flow = self.positions = self.api = self.earlier = None


def _release_scope(scope: Scope) -> None:
    for frame in scope.frames:
        frame.test = None  # an ``if``'s test sits inside its frame
    for name in ("params", "calls", "binds", "tests", "guards", "exits", "yields", "frames", "decorator_calls"):
        setattr(scope, name, [])
    scope.parent = None


#: What :meth:`ModuleModel.keep_facts` walks: the fields of each class of facts that can
#: hold other facts (read by name: reading an object's ``__dict__`` would build one).
_FACT_FIELDS: dict[type, tuple[str, ...]] = {
    kind: tuple(f.name for f in dataclasses.fields(kind) if f.name not in ("node", "owner"))
    for kind in (Frame, Call, Bind, Test, Guard, Exit, Argument, Param, Scope, ClassFacts)
}
_FACT_FIELDS[Expr] = ("calls", "top", "derived_top", "elements", "entries")


@dataclass(eq=False, repr=False)
class Fragment:
    """What one top-level function adds to its module's model: its scopes with their
    facts, the frames they sit in, its strings and where its nodes are. An editor's
    buffer keeps these, so that the next version's model reuses the functions the edit
    left alone instead of walking them again (the reparser keeps their nodes too)."""

    node: cst.FunctionDef
    #: The model builder's count of nodes before the function and after it.
    start: int
    end: int
    scopes: list[Scope]
    frames: list[Frame]
    strings: set[str]
    rpc_methods: set[str]
    statement_of: dict[int, cst.CSTNode | None]
    parent_statement: dict[int, cst.CSTNode | None]

    def install(self, builder: "ModelBuilder") -> None:
        """Put this function's facts into the model ``builder`` is building, where a walk
        of it would have put them: its node count moved to where the builder is, its
        scopes after the builder's, the answers of the last run's analysis forgotten."""
        model = builder.model
        delta = builder.order - self.start
        self.scopes[0].parent = model.scopes[0]
        for scope in self.scopes:
            scope.index = len(model.scopes)
            model.scopes.append(scope)
            for call in scope.calls:
                call.roles, call.qualified = set(), None
                if delta:
                    call.order += delta
                    call.end += delta
            if delta:
                for facts in (scope.binds, scope.tests, scope.guards, scope.exits, scope.yields):
                    for fact in facts:
                        fact.order += delta
        if delta:
            for frame in self.frames:
                frame.start += delta
                frame.end += delta
            self.start, self.end = self.start + delta, self.end + delta
        builder.order = self.end
        model.strings |= self.strings
        model.rpc_methods |= self.rpc_methods
        model.statement_of.update(self.statement_of)
        model.parent_statement.update(self.parent_statement)

    def release(self) -> None:
        """Break its cycles: it is no longer built from."""
        for scope in self.scopes:
            _release_scope(scope)
        self.scopes, self.frames = [], []


# --- shapes of conditions -------------------------------------------------------------------

_COMPARISONS = {
    cst.Equal: "==", cst.NotEqual: "!=", cst.Is: "is", cst.IsNot: "is not", cst.In: "in", cst.NotIn: "not in",
    cst.LessThan: "<", cst.LessThanEqual: "<=", cst.GreaterThan: ">", cst.GreaterThanEqual: ">=",
}


def expr_keys(node: cst.CSTNode) -> frozenset[str]:
    """Dotted keys read by one small expression (a condition's operand)."""
    found: set[str] = set()
    stack = [node]
    while stack:
        current = stack.pop()
        key = dotted(current)
        if key is not None:
            found.update(prefixes(key))
            if type(current) in (cst.Name, cst.Attribute):
                continue
        stack.extend(child_nodes(current))
    return frozenset(found)


def child_nodes(node: cst.CSTNode) -> list[cst.CSTNode]:
    """The nodes right below ``node`` in source order, whitespace left out (libcst's
    ``children`` costs a visit of the node)."""
    found: list[cst.CSTNode] = []
    for field_name, _ in reversed(_fields(type(node))):
        value = getattr(node, field_name)
        kind = type(value)
        if kind is tuple or kind is list:
            found.extend(value)
        elif _is_node(kind):
            found.append(value)
    return found


def shape_of(node: cst.CSTNode, calls: dict[int, int], depth: int = SHAPE_DEPTH, written: dict[int, cst.Call] | None = None) -> tuple:
    """The form of a condition, enough to ask what it tests without the tree:

    ``("not", s)``, ``("or", a, b)``, ``("and", a, b)``, ``("cmp", op, left, right, calls)``
    with the keys each operand reads and the calls the operands are (their indices, or
    ``-1``), ``("any", keys)`` / ``("all", keys)``, ``("call", i)`` (the ``i``-th call of the
    scope), ``("key", key)`` for a bare name or attribute, ``("true",)``, ``("other", keys)``.
    Tests of a collection's size are tests of the collection (``len(x) == 0`` is ``not x``);
    a difference of sets is true when they differ (``a - b``: an item of ``a`` is not in
    ``b``; ``a ^ b``: ``a != b``);
    a filtering comprehension is true when one item passes (``[s for s in xs if p]`` is
    ``any(p for s in xs)``), and ``all(not p ...)`` is ``not any(p ...)``. A call through a
    bound method or a partial is read as the call it makes (``written``: id -> that call)."""
    written = written or {}
    kind = type(node)
    if depth <= 0:
        return ("other", expr_keys(node))
    if kind is cst.UnaryOperation and type(node.operator) is cst.Not:
        return ("not", shape_of(node.expression, calls, depth - 1, written))
    if kind is cst.BooleanOperation:
        op = "and" if type(node.operator) is cst.And else "or"
        return (op, shape_of(node.left, calls, depth - 1, written), shape_of(node.right, calls, depth - 1, written))
    sized = _sized(node)
    if sized is not None:
        inner, empty = sized
        shape = shape_of(inner, calls, depth - 1, written)
        return ("not", shape) if empty else shape
    if kind is cst.Comparison and len(node.comparisons) == 1:
        target = node.comparisons[0]
        op = _COMPARISONS.get(type(target.operator), "?")
        right = "None" if is_none(target.comparator) else expr_keys(target.comparator)
        return ("cmp", op, expr_keys(node.left), right, (_call_of(node.left, calls), _call_of(target.comparator, calls)))
    if kind in (cst.ListComp, cst.SetComp, cst.DictComp) and node.for_in.ifs:
        return ("any", expr_keys(node))
    if kind is cst.BinaryOperation and type(node.operator) in _SET_DIFFERENCES:
        op = _SET_DIFFERENCES[type(node.operator)]
        return ("cmp", op, expr_keys(node.left), expr_keys(node.right), (_call_of(node.left, calls), _call_of(node.right, calls)))
    if kind is cst.Call:
        index = calls.get(id(node))
        node = written.get(id(node), node)
        name = dotted(node.func)
        if name == "all" and _negated_items(node):
            return ("not", ("any", expr_keys(node)))
        if name in ("any", "all"):
            return (name, expr_keys(node))
        key = dotted(node)  # `slot.get("remote_ref")`: a field read
        if key is not None and name and name.endswith(".get"):
            return ("key", key)
        if index is not None:
            return ("call", index)
    if kind is cst.Await and type(node.expression) is cst.Call and id(node.expression) in calls:
        return ("call", calls[id(node.expression)])
    if kind in (cst.Name, cst.Attribute, cst.Subscript):
        if kind is cst.Name and node.value == "True":
            return ("true",)
        key = dotted(node)
        if key is not None:
            return ("key", key)
    if kind is cst.Integer and node.value not in ("0",):
        return ("true",)
    return ("other", expr_keys(node))


#: Task states as A2A spells them (values, and the names of 1.x's enum).
TASK_STATES = frozenset(
    {"submitted", "working", "input-required", "input_required", "completed", "canceled", "cancelled",
     "failed", "rejected", "auth-required", "auth_required", "unknown"}
)


def literal_state(node: cst.CSTNode) -> str | None:
    """``TaskState.completed``, ``TaskState.TASK_STATE_FAILED``, ``"working"``: the state named."""
    text = string_value(node)
    if text is not None:
        if text.startswith("TASK_STATE_"):
            return text[len("TASK_STATE_") :].lower().replace("_", "-")
        return text if text in TASK_STATES else None
    key = dotted(node) if type(node) in (cst.Name, cst.Attribute) else None
    if key is None:
        return None
    last = key.rsplit(".", 1)[-1]
    if last.startswith("TASK_STATE_"):
        return last[len("TASK_STATE_") :].lower().replace("_", "-")
    if "." in key and key.rsplit(".", 1)[0].rsplit(".", 1)[-1] == "TaskState":
        return last.lower().replace("_", "-")
    return None


#: Set operators whose result is non-empty when the sets differ, as the comparison they make.
_SET_DIFFERENCES = {cst.Subtract: "not in", cst.BitXor: "!="}
#: The forms of a value that is a condition (not a name, a call or anything else).
_CONDITIONS = frozenset({"not", "and", "or", "cmp", "any", "all"})


def _may_be_condition(node: cst.CSTNode | None) -> bool:
    """Whether a bound value can have a condition's form (asked before working its form out)."""
    kind = type(node)
    if kind is cst.BinaryOperation:
        return type(node.operator) in _SET_DIFFERENCES
    if kind is cst.Call:
        return type(node.func) is cst.Name and node.func.value in ("any", "all", "len")
    return kind in (cst.Comparison, cst.UnaryOperation, cst.BooleanOperation, cst.ListComp, cst.SetComp, cst.DictComp)


def _call_of(node: cst.CSTNode, calls: dict[int, int]) -> int:
    """The index of the call an operand is (``skill_ids(card)``, awaited or not), else -1."""
    if type(node) is cst.Await:
        node = node.expression
    return calls.get(id(node), -1) if type(node) is cst.Call else -1


def _sized(node: cst.CSTNode) -> tuple[cst.CSTNode, bool] | None:
    """``len(x)`` tested for being zero or not: ``(x, True)`` for ``len(x) == 0`` (and
    ``< 1``, ``<= 0``), ``(x, False)`` for ``len(x)``, ``len(x) > 0`` (and ``!= 0``, ``>= 1``)."""
    if type(node) is cst.Comparison and len(node.comparisons) == 1:
        target = node.comparisons[0]
        bound = target.comparator.value if type(target.comparator) is cst.Integer else None
        op = _COMPARISONS.get(type(target.operator))
        inner = _len_argument(node.left)
        if inner is None or (op, bound) not in _SIZE_TESTS:
            return None
        return inner, _SIZE_TESTS[(op, bound)]
    inner = _len_argument(node)
    return (inner, False) if inner is not None else None


#: ``len(x) <op> <n>`` -> whether it holds when ``x`` is empty.
_SIZE_TESTS = {("==", "0"): True, ("<", "1"): True, ("<=", "0"): True, (">", "0"): False, ("!=", "0"): False, (">=", "1"): False}


def _len_argument(node: cst.CSTNode) -> cst.CSTNode | None:
    if type(node) is cst.Call and type(node.func) is cst.Name and node.func.value == "len" and len(node.args) == 1:
        return node.args[0].value
    return None


def _negated_items(node: cst.Call) -> bool:
    """``all(s.id != x for s in xs)`` / ``all(not p(s) for s in xs)``: that no item passes."""
    generator = node.args[0].value if len(node.args) == 1 else None
    if type(generator) not in (cst.GeneratorExp, cst.ListComp):
        return False
    item = generator.elt
    if type(item) is cst.UnaryOperation and type(item.operator) is cst.Not:
        return True
    return type(item) is cst.Comparison and len(item.comparisons) == 1 and type(item.comparisons[0].operator) in (cst.NotEqual, cst.NotIn)


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
    (cst.Arg, "value"),
    (cst.For, "iter"),
    (cst.CompFor, "iter"),
    (cst.WithItem, "item"),
    (cst.Return, "value"),
    (cst.Raise, "exc"),
    (cst.Expr, "value"),
    (cst.Element, "value"),
    (cst.DictElement, "value"),
}
#: Collected expressions whose reads and calls are part of the enclosing value too.
_PART_OF_VALUE = {(cst.NamedExpr, "value"), (cst.CompFor, "iter"), (cst.Element, "value"), (cst.DictElement, "value")}
_TEST_KINDS = {cst.If: "if", cst.While: "while", cst.Assert: "assert", cst.IfExp: "ifexp", cst.CompIf: "comprehension"}
_STATEMENTS = frozenset(
    {cst.SimpleStatementLine, cst.If, cst.For, cst.While, cst.Try, cst.TryStar, cst.With, cst.FunctionDef, cst.ClassDef, cst.Match}
)
_EXITS = {cst.Return: "return", cst.Raise: "raise", cst.Continue: "continue", cst.Break: "break"}
#: ``for _ in itertools.count()``: loops with no end of their own.
ENDLESS_ITERATORS = frozenset({"count", "cycle", "repeat"})


def is_endless(name: str, arguments: int) -> bool:
    """A call of ``name`` given ``arguments`` makes an iterator with no end: ``count()``,
    ``cycle(xs)``, ``repeat(x)``; ``repeat(x, 5)`` ends after five."""
    return name in ENDLESS_ITERATORS and not (name == "repeat" and arguments > 1)
#: Context managers that cancel what they wrap after a delay (asyncio, anyio, trio, async_timeout).
DEADLINE_SCOPES = frozenset({"timeout", "timeout_at", "fail_after", "fail_at", "move_on_after", "move_on_at"})


def _block_exit(block: cst.BaseSuite) -> str | None:
    """How a block always leaves, judged by its last statement."""
    body = block.body
    if not body:
        return None
    last = body[-1]
    if type(last) is cst.SimpleStatementLine or type(block) is cst.SimpleStatementSuite:
        small = last.body[-1] if type(last) is cst.SimpleStatementLine and last.body else last
        return _EXITS.get(type(small))
    if type(last) is cst.If and last.orelse is not None:
        body_exit = _block_exit(last.body)
        else_exit = _block_exit(last.orelse.body) if type(last.orelse) is cst.Else else None
        if body_exit and else_exit:
            return body_exit
    return None


def annotation_text(annotation: cst.Annotation | None) -> str | None:
    """The type an annotation gives a value, or what its container holds:
    ``Optional[Task]``, ``Task | None``, ``list[Task]``, ``dict[str, Task]`` -> ``Task``;
    a fixed-length tuple's element types, by position: ``tuple[Server, Client]`` ->
    ``Server, Client`` (see :func:`annotation_types`)."""
    if annotation is None:
        return None
    return _type_text(annotation.annotation)


def annotation_types(text: str) -> list[str]:
    """The types an annotation's text names: its one type, or a fixed-length tuple's by
    position (``"Server, Client"``; ``""`` for an element of no known type)."""
    return text.split(", ")


def _element_text(node: cst.CSTNode) -> str:
    """A fixed-length tuple's element, as one position of :func:`annotation_types`."""
    text = _type_text(node)
    return "" if text is None or text == "None" or ", " in text else text


def _type_text(node: cst.CSTNode) -> str | None:
    kind = type(node)
    if kind is cst.Subscript:
        elements = [e.slice.value for e in node.slice if type(e.slice) is cst.Index]
        container = (dotted(node.value) or "").rsplit(".", 1)[-1]
        if not elements:
            return dotted(node.value)
        if container in ("dict", "Dict", "Mapping", "MutableMapping", "defaultdict", "OrderedDict") and len(elements) == 2:
            return _type_text(elements[1])
        if container in ("Annotated", "ClassVar", "Final"):
            return _type_text(elements[0])
        if container in ("tuple", "Tuple") and len(elements) > 1 and not any(type(e) is cst.Ellipsis for e in elements):
            return ", ".join(_element_text(e) for e in elements)
        if container in ("Optional", "list", "List", "set", "Set", "frozenset", "tuple", "Tuple", "Sequence", "Iterable",
                         "AsyncIterator", "Iterator", "AsyncIterable", "Union", "deque", "Awaitable", "Coroutine"):
            found = [t for t in (_type_text(e) for e in elements) if t not in (None, "None", "...")]
            return found[0] if found else None
        return dotted(node.value)
    if kind is cst.BinaryOperation:  # Task | None
        left = _type_text(node.left)
        return left if left not in (None, "None") else _type_text(node.right)
    value = string_value(node)
    if value is not None:
        return value.split("|")[0].strip() or None
    return dotted(node)


def is_partial(call: cst.Call) -> bool:
    """``call`` makes a ``functools.partial``."""
    return dotted(call.func) in ("partial", "functools.partial")


class ModelBuilder:
    """Builds a :class:`ModuleModel` in one pass over the tree (driven by :func:`walk`)."""

    def __init__(self, model: ModuleModel) -> None:
        self.model = model
        self.order = 0
        self.frames: list[Frame] = []
        #: Each frame with its branch: the path to here, kept as frames open and close so
        #: that every path shares these pairs (a long ``elif`` chain nests as deep as it is
        #: long, and a pair per frame per path made its model quadratic in memory).
        self._pairs: list[tuple[Frame, str]] = []
        self._path: Path | None = None  # of the frames as they are; None once they change
        #: While a fragment is recorded: the frames made, and whether anything was put where
        #: a fragment cannot say (an import, a class: the module's own tables).
        self.made_frames: list[Frame] | None = None
        self.module_tables_changed = False
        self.scopes: list[Scope] = []
        self.classes: list[ClassFacts] = []
        self.collectors: list[Expr] = []
        self.saved_collectors: list[list[Expr]] = []  # a nested def starts afresh
        self.saved_receivers: list[dict[str, str]] = []  # those of the enclosing function
        #: id(scope) -> its names that hold a bound method (``send = client.send_message``), as bound last
        self.bound_methods: dict[int, dict[str, cst.Attribute]] = {}
        #: id(scope) -> its names that hold a ``functools.partial`` of a function, and id(call
        #: of one) -> the partial's call, whose arguments come first
        self.partials: dict[int, dict[str, cst.Call]] = {}
        self.partial_of: dict[int, cst.Call] = {}
        #: id(call through a bound method or a partial) -> the call it makes, written out
        self.written: dict[int, cst.Call] = {}
        self.statements: list[cst.CSTNode] = []
        self.pending: dict[int, Expr] = {}  # id(node) -> collected Expr for (node, attribute)
        #: Nodes whose key is part of a longer one being read (``card`` in ``card.skills``),
        #: or the called expression of a call: read, but not what a value is made of.
        self.inner: set[int] = set()
        #: id(call node) -> the open Call; id(node) -> the call whose receiver it is.
        self.open_calls: dict[int, Call] = {}
        self.receiver_of: dict[int, Call] = {}
        #: Calls currently being visited, with the collector open when each began.
        self.call_stack: list[tuple[Call, Expr | None]] = []
        self.call_ids: dict[int, int] = {}
        #: id(collector) -> how many operators are open in it (see ``Expr.derived``).
        self.deriving: dict[int, int] = {}
        self.awaiting: set[int] = set()  # calls under an ``await``
        self.not_sends: set[int] = set()  # ``"method"`` entries of envelopes that carry no message
        scope = Scope(model.module, "<module>", "<module>", None, None)
        model.scopes.append(scope)
        self.scopes.append(scope)

    # -- helpers --
    @property
    def scope(self) -> Scope:
        return self.scopes[-1]

    def path(self) -> Path:
        """The control path to here, one tuple shared by the facts it leads to."""
        if self._path is None:
            self._path = tuple(self._pairs)
        return self._path

    def _enter_control(self, node: cst.CSTNode) -> None:
        kind = type(node)
        frame = Frame(_CONTROL[kind], node, self.order, self.path())
        if self.made_frames is not None:
            self.made_frames.append(frame)
        if kind is cst.ClassDef:
            self.module_tables_changed = True
            qualname = ".".join([*(c.qualname for c in self.classes[-1:]), node.name.value])
            facts = ClassFacts(
                node.name.value,
                qualname,
                bases=[b for b in (dotted(arg.value) for arg in node.bases) if b],
                decorators=[d for d in (_decorator_name(dec) for dec in node.decorators) if d],
                scope=self.scope,
            )
            self.classes.append(facts)
            self.model.classes.setdefault(node.name.value, facts)
        elif kind is cst.While:
            test = node.test
            frame.endless = (type(test) is cst.Name and test.value == "True") or (
                type(test) is cst.Integer and test.value != "0"
            )
        elif kind is cst.For:
            iterated = node.iter
            if type(iterated) is cst.Call:
                func, partial = self._called(iterated.func)  # `count = itertools.count; for _ in count():`
                name = func.attr.value if type(func) is cst.Attribute else func.value if type(func) is cst.Name else ""
                given = len(iterated.args) + (len(partial.args) - 1 if partial is not None else 0)
                frame.endless = is_endless(name, given)
        elif kind is cst.With:
            frame.deadline = any(
                type(item.item) is cst.Call and (dotted(item.item.func) or "").rsplit(".", 1)[-1] in DEADLINE_SCOPES
                for item in node.items
            )
        self.frames.append(frame)
        self._pairs.append((frame, frame.branch))
        self._path = None
        self.scope.frames.append(frame)

    def _leave_control(self, node: cst.CSTNode) -> None:
        frame = self.frames.pop()
        self._pairs.pop()
        self._path = None
        frame.end = self.order
        kind = type(node)
        if kind is cst.ClassDef:
            facts = self.classes.pop()
            self._read_back_stored(node, facts)
            for bind in facts.scope.binds if facts.scope is not None else ():
                if bind.path and bind.path[-1][0] is frame and bind.kind == "assign":
                    for target in bind.targets:
                        if "." not in target:
                            facts.fields[target] = (bind.annotation, bind)
            declared = []  # in the order the class spells them: a dataclass's constructor takes them so
            for statement in node.body.body if type(node.body) is cst.IndentedBlock else ():
                for small in statement.body if type(statement) is cst.SimpleStatementLine else ():
                    if type(small) is cst.AnnAssign and type(small.target) is cst.Name:
                        declared.append(small.target.value)
                        if small.value is None:
                            facts.fields.setdefault(small.target.value, (annotation_text(small.annotation), None))
            facts.fields = {**{name: facts.fields[name] for name in declared if name in facts.fields}, **facts.fields}
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
            self._pairs[-1] = (self.frames[-1], attribute)
            self._path = None
        kind = type(node)
        if (kind, attribute) in _COLLECTED:
            expr = Expr()
            self.collectors.append(expr)
            self.pending[id(node)] = expr
            if kind is cst.Call:
                for arg in node.args:
                    if arg.keyword is not None:
                        expr.grown("fields")[snake(arg.keyword.value)] = not is_none(arg.value)
            elif attribute == "test":
                self._test(node, expr)
            elif attribute == "iter":
                self._bind_loop(node, expr)
            elif attribute == "item":
                self._bind_with(node, expr)

    def on_leave_attribute(self, original_node: cst.CSTNode, attribute: str) -> None:
        kind = type(original_node)
        if (kind, attribute) in _COLLECTED:
            expr = self.collectors.pop()
            if attribute in ("iter", "item"):  # the target is bound once the value is computed
                bind = next(b for b in reversed(self.scope.binds) if b.node is original_node)
                bind.order = self.order
            if attribute == "test":
                test = next(t for t in reversed(self.scope.tests) if t.owner is original_node)
                test.shape = shape_of(original_node.test, self._call_index(), written=self.written)
            if self.collectors:  # an inner expression is part of the outer one too
                outer = self.collectors[-1]
                outer.absorb(expr, _SHARED_FIELDS)
                if (kind, attribute) in _PART_OF_VALUE:
                    outer.absorb(expr, _VALUE_FIELDS)

    def _call_index(self) -> dict[int, int]:
        """id(call node) -> its index in its scope's calls (for shapes)."""
        return self.call_ids

    # -- functions --
    def _enter_function(self, node: cst.FunctionDef) -> None:
        parent = self.scope
        class_name = self.classes[-1].name if self.frames and self.frames[-1].kind == "class" else None
        if class_name:
            prefix = f"{self.classes[-1].qualname}."
        else:
            prefix = "" if parent.name == "<module>" else f"{parent.qualname}."
        scope = Scope(node, node.name.value, prefix + node.name.value, class_name, parent)
        scope.is_function = True
        scope.is_async = node.asynchronous is not None
        scope.decorators = [d for d in (_decorator_name(dec) for dec in node.decorators) if d]
        params = node.params
        index = 0
        for param in (*params.posonly_params, *params.params):
            scope.params.append(_param(param, index))
            index += 1
        if isinstance(params.star_arg, cst.Param):
            scope.params.append(_param(params.star_arg, index, "*"))
            index += 1
        for param in params.kwonly_params:
            scope.params.append(_param(param, index))
            index += 1
        if params.star_kwarg is not None:
            scope.params.append(_param(params.star_kwarg, index, "**"))
        self.saved_receivers.append(_RECEIVERS.names)
        _RECEIVERS.names = self._receivers(scope, node)
        scope.index = len(self.model.scopes)
        self.model.scopes.append(scope)
        self.scopes.append(scope)
        frame = Frame("function", node, self.order)
        if self.made_frames is not None:
            self.made_frames.append(frame)
        self.frames.append(frame)
        self._pairs.append((frame, frame.branch))
        self._path = None
        self.saved_collectors.append(self.collectors)
        self.collectors = []

    def _receivers(self, scope: Scope, node: cst.FunctionDef) -> dict[str, str]:
        """The receiver names in force in ``scope``'s body: its own first parameter's when it
        is a method (also named ``self``/``cls`` in its facts), and those of the method it is
        nested in that its parameters do not shadow."""
        receivers = {name: canonical for name, canonical in _RECEIVERS.names.items() if not any(p.name == name for p in scope.params)}
        if scope.class_name and scope.params and "staticmethod" not in scope.decorators:
            first = scope.params[0]
            canonical = "cls" if "classmethod" in scope.decorators or node.name.value in ("__new__", "__init_subclass__") else "self"
            if first.name != canonical and not first.star:
                receivers[first.name] = canonical
                first.name = canonical
        return receivers

    def _leave_function(self, node: cst.FunctionDef) -> None:
        _RECEIVERS.names = self.saved_receivers.pop()
        scope = self.scopes.pop()
        decorators = {id(d.decorator) for d in node.decorators}
        scope.decorator_calls = [c for c in scope.calls if id(c.node) in decorators]
        frame = self.frames.pop()
        self._pairs.pop()
        self._path = None
        frame.end = self.order
        self.collectors = self.saved_collectors.pop()
        self._unpack_held_tuples(scope)

    def _unpack_held_tuples(self, scope: Scope) -> None:
        """``entry = (card, time.time())`` then ``card, fetched_at = entry``: each name
        unpacked from a tuple a local holds is bound as if to its element, one bind per
        name, so that what the element is (a call, a copy, a placeholder) is what the name
        is. Only where the holder is bound once and nothing its elements read is bound
        between it and the unpacking: the element is what it was when held."""
        binds_of = _binds_by_target(scope)
        unpacked: list[Bind] = []
        for bind in scope.binds:
            holder = _held_tuple(bind, binds_of, scope)
            if holder is None:
                unpacked.append(bind)
                continue
            for target, element, node in zip(bind.targets, holder.value.elements, holder.value.node.elements):
                unpacked.append(self._bound_as(bind, target, element, node.value))
        scope.binds[:] = unpacked

    def _bound_as(self, bind: Bind, target: str, value: Expr, node: cst.CSTNode) -> Bind:
        """``target``'s share of ``bind``, bound as if to ``value`` (whose tree is ``node``)."""
        one = Bind(bind.node, bind.scope, bind.order, bind.path, [target], value, annotation=bind.annotation)
        self._describe(one, node)
        one.shape = self._condition(node)
        return one

    def _read_back_stored(self, node: cst.ClassDef, facts: ClassFacts) -> None:
        """``self._card = card`` then ``card = self.get_card()`` (or ``self.card``, a
        property) in one method, where the getter only returns ``self._card``: the name is
        bound as if to what was stored, where nothing runs in between that could store
        another value (no other call, no other store of it, nothing it reads rebound)."""
        body = {id(s) for s in node.body.body} if type(node.body) is cst.IndentedBlock else set()
        methods = {s.name: s for s in self.model.scopes if s.is_function and id(s.node) in body}
        getters = {
            name: (attribute, "property" in s.decorators)
            for name, s in methods.items() if (attribute := _returned_attribute(s))
        }
        if not getters:
            return
        read_back: set[int] = set()  # the getter calls and reads turned into what was stored
        for scope in methods.values():
            binds_of = _binds_by_target(scope)
            for index, bind in enumerate(scope.binds):
                store = _store_read_back(bind, getters, binds_of, scope)
                if store is not None:
                    read_back.add(id(bind.value.node))
                    scope.binds[index] = self._bound_as(bind, bind.targets[0], store.value, store.node.value)
        facts.transient = {
            attribute: name for name, (attribute, is_property) in getters.items()
            if not is_property and not _read_elsewhere(attribute, name, methods.values(), read_back, methods[name])
        }

    # -- expressions --
    def _read(self, node: cst.CSTNode) -> None:
        if type(node) is cst.Name and node.value in ("None", "True", "False"):
            return
        inner = id(node) in self.inner
        if type(node) is not cst.Name:
            value = node.value
            self.inner.add(id(value))  # `card` in `card.skills`, `self.peers` in `self.peers[name]`
            if type(node) is cst.Subscript:  # the index is read, but the element is not made of it
                for element in node.slice:
                    if type(element.slice) is cst.Index:
                        self.inner.add(id(element.slice.value))
        if not self.collectors:
            return
        key = dotted(node)
        if key is None:
            if inner is False and type(node) is not cst.Name:
                self.inner.discard(id(node.value))  # `f()[0]`, `(a or b).c`: the inner part is read itself
            return
        expr = self.collectors[-1]
        expr.grown("keys").update(prefixes(key))
        if type(node) is cst.Name:
            expr.grown("names").add(key)
        if not inner:
            expr.grown("derived" if self.deriving.get(id(expr)) else "reads").add(key)

    def _enter_operator(self, node: cst.CSTNode) -> None:
        if self.collectors:
            key = id(self.collectors[-1])
            self.deriving[key] = self.deriving.get(key, 0) + 1

    def _leave_operator(self, node: cst.CSTNode) -> None:
        if self.collectors:
            key = id(self.collectors[-1])
            self.deriving[key] = self.deriving.get(key, 1) - 1

    def _string(self, node: cst.CSTNode) -> None:
        if type(node) is cst.FormattedString:
            self._enter_operator(node)
        value = string_value(node)
        if value is None:
            return
        self.model.strings.add(value)
        if self.collectors:
            expr = self.collectors[-1]
            expr.grown("strings").append(value)
            if not (self.call_stack and self.call_stack[-1][1] is expr):  # not in a called expression
                expr.grown("texts").append(value)

    def _dict(self, node: cst.Dict) -> None:
        """A JSON-RPC envelope that spells out its params without a message
        (``{"method": "message/send", "params": {"skill_id": s}}``) sends no A2A message:
        its method is a name borrowed for something else, not a task's submission."""
        elements = {string_value(e.key): e for e in node.elements if type(e) is cst.DictElement}
        method, params = elements.get("method"), elements.get("params")
        if method is None or params is None or type(params.value) is not cst.Dict:
            return
        if apimodel.RPC_ROLES.get(string_value(method.value) or "") != "send":
            return
        inner = [e for e in params.value.elements]
        spelt = all(type(e) is cst.DictElement and string_value(e.key) is not None for e in inner)
        if inner and spelt and not any(string_value(e.key) == "message" for e in inner):
            self.not_sends.add(id(method))

    def _dict_element(self, node: cst.DictElement) -> None:
        if id(node) in self.not_sends:
            return
        key = string_value(node.key)
        if key is None or not self.collectors:
            if key == "method":
                method = string_value(node.value)
                if method is not None:
                    self.model.rpc_methods.add(method)
            return
        expr = self.collectors[-1]
        expr.grown("fields")[snake(key)] = not is_none(node.value)
        held = _slot_key(node.value)
        if held:
            expr.grown("slots")[key] = held
        if key == "method":
            self._method(expr, node.value)

    def _method(self, expr: Expr, value: cst.CSTNode) -> None:
        """``expr`` builds a JSON-RPC envelope whose method is ``value`` (a literal, or a
        name that holds one)."""
        method = string_value(value)
        if method is not None:
            self.model.rpc_methods.add(method)
            expr.grown("rpc_methods").add(method)
            expr.grown("methods").add(method)
        else:
            held = dotted(value)
            if held:
                expr.grown("method_keys").add(held)

    def _called(self, func: cst.BaseExpression) -> tuple[cst.BaseExpression, cst.Call | None]:
        """What a call of ``func`` calls, through a name that holds a bound method (``send =
        client.send_message; send(request)``) or a ``functools.partial`` of a function
        (``send = partial(client.send_message, m); send()``), and that partial."""
        if type(func) is not cst.Name:
            return func, None
        partial = self.partials.get(id(self.scope), {}).get(func.value)
        if partial is not None:
            func = partial.args[0].value
        if type(func) is cst.Name:
            func = self.bound_methods.get(id(self.scope), {}).get(func.value, func)
        return func, partial

    def _enter_call(self, node: cst.Call) -> None:
        func, partial = self._called(node.func)
        if partial is not None:
            self.partial_of[id(node)] = partial
        if func is not node.func:  # the call it makes, the partial's arguments first
            self.written[id(node)] = node.with_changes(func=func, args=[*(partial.args[1:] if partial else ()), *node.args])
        callee = dotted(func)
        is_method = type(func) is cst.Attribute
        method = func.attr.value if is_method else callee
        receiver = dotted(or_default(func.value)) if is_method else None
        call = Call(node, self.scope, self.order, self.path(), callee=callee, method=method, receiver=receiver)
        call.awaited = id(node) in self.awaiting
        if type(func) is cst.Attribute and type(func.value) is not cst.Name:
            call.func_keys = expr_keys(func.value)
        self.call_ids[id(node)] = len(self.scope.calls)
        self.scope.calls.append(call)
        self.open_calls[id(node)] = call
        outer = self.receiver_of.pop(id(node), None)
        if outer is not None:
            outer.receiver_call = call
        if func is not node.func:  # through a bound method: its receiver was evaluated where it was bound
            inner = func.value.expression if type(func.value) is cst.Await else func.value
            index = self.call_ids.get(id(inner))
            call.receiver_call = self.scope.calls[index] if index is not None and type(inner) is cst.Call else None
        elif is_method:
            inner = or_default(func.value)
            if type(inner) is cst.Await:
                inner = inner.expression
            if type(inner) is cst.Call:
                self.receiver_of[id(inner)] = call
        self.inner.add(id(node.func))  # what is called is not what the value is made of
        collector = self.collectors[-1] if self.collectors else None
        nested = bool(self.call_stack) and self.call_stack[-1][1] is collector  # in the called expression
        self.call_stack.append((call, collector))
        if collector is not None:
            collector.grown("calls").append(call)
            if func is not node.func and call.receiver_call is not None:
                collector.grown("calls").append(call.receiver_call)  # evaluated where bound, called here
            key = dotted(self.written.get(id(node), node))  # card.get("skills"), getattr(card, "x"), card.model_dump()
            deriving = bool(self.deriving.get(id(collector)))
            if key:
                collector.grown("keys").update(prefixes(key))
                if not nested and id(node) not in self.inner:
                    collector.grown("derived" if deriving else "reads").add(key)
            elif not nested and id(node) not in self.inner:
                collector.grown("derived_top" if deriving else "top").append(call)

    def _leave_call(self, node: cst.Call) -> None:
        _, collector = self.call_stack.pop()
        call = self.open_calls.pop(id(node))
        call.end = self.order
        call.args = self.pending.pop(id(node), Expr())
        call.args.node = node
        for arg in node.args:
            value = self.pending.pop(id(arg), None) or Expr()
            value.node = arg.value
            value.shape, value.placeholder = self._condition(arg.value), is_placeholder(arg.value)
            keyword = arg.keyword.value if arg.keyword is not None else None
            call.arguments.append(Argument(keyword, arg.star, value, string_value(arg.value), is_none(arg.value)))
        partial = self.partial_of.pop(id(node), None)
        index = self.call_ids.get(id(partial)) if partial is not None else None
        if index is not None:
            given = self.scope.calls[index].arguments[1:]
            call.arguments[:0] = given
            for argument in given:  # what they hold is read by the call, as if written in it
                call.args.absorb(argument.value, _SHARED_FIELDS)
                if collector is not None:
                    collector.absorb(argument.value, _SHARED_FIELDS)
        method = call.keyword("method")
        if method is not None and collector is not None and (call.method or "")[:1].isupper():
            self._method(collector, method.value.node)  # `JSONRPC20Request(method=method, params=params)`
        if call.method in MUTATORS and call.receiver and call.arguments:
            value = Expr(node)  # what the call's arguments hold, as one value
            value.absorb(call.args, _SHARED_FIELDS)
            for argument in call.arguments:
                value.absorb(argument.value, _ARGUMENT_FIELDS)
            self.scope.binds.append(
                Bind(node, self.scope, self.order, call.path, [call.receiver], value, "mutate", weak=True)
            )

    def _await(self, node: cst.Await) -> None:
        if type(node.expression) is cst.Call:
            self.awaiting.add(id(node.expression))

    # -- binds, tests, exits --
    def _bind_assignment(self, node: cst.CSTNode) -> None:
        value = self.pending.pop(id(node), None)
        if value is None:  # a bare annotation: `card: AgentCard`
            return
        value.node = node.value
        kind = type(node)
        if kind is cst.Assign:
            targets = [key for t in node.targets for key in target_keys(t.target)]
            weak = all(_weak_target(t.target) for t in node.targets)
        else:
            targets = target_keys(node.target)
            weak = kind is cst.AugAssign or _weak_target(node.target)
        annotation = annotation_text(node.annotation) if kind is cst.AnnAssign else None
        self._elements(value, node.value)
        self._entries(value, node.value)
        bound, partials = self.bound_methods.setdefault(id(self.scope), {}), self.partials.setdefault(id(self.scope), {})
        for target in targets:
            bound.pop(target, None)
            partials.pop(target, None)
        if kind is cst.Assign and len(targets) == 1 and type(node.value) is cst.Attribute:
            bound[targets[0]] = node.value
        elif kind is cst.Assign and len(targets) == 1 and type(node.value) is cst.Call and node.value.args \
                and is_partial(node.value) and not node.value.args[0].keyword \
                and type(node.value.args[0].value) in (cst.Name, cst.Attribute):
            partials[targets[0]] = node.value
        bind = Bind(node, self.scope, self.order, self.path(), targets, value, "augassign" if kind is cst.AugAssign else "assign",
                    annotation, weak=weak)
        self._describe(bind, node.value)
        if kind is not cst.AugAssign:
            bind.shape = self._condition(node.value)
        self.scope.binds.append(bind)

    def _condition(self, value: cst.CSTNode | None) -> tuple:
        """The form of ``value`` when it is a condition (``missing = x not in ids``), else ``()``."""
        if not _may_be_condition(value):
            return ()
        shape = shape_of(value, self._call_index(), written=self.written)
        return shape if shape[0] in _CONDITIONS else ()

    def _elements(self, expr: Expr, value: cst.CSTNode | None) -> None:
        """A tuple's elements, each as its own expression (``doc, digest = load()``)."""
        if type(value) is cst.Tuple and value.elements and all(type(e) is cst.Element for e in value.elements):
            expr.elements = [self.pending.pop(id(e), None) or Expr() for e in value.elements]

    def _entries(self, expr: Expr, value: cst.CSTNode | None) -> None:
        """A dict literal's entries, each as its own expression (``{"card": card, "client": c}``)."""
        if type(value) is not cst.Dict or not value.elements:
            return
        keys = [string_value(e.key) if type(e) is cst.DictElement else None for e in value.elements]
        entries = [self.pending.pop(id(e), None) or Expr() for e in value.elements if type(e) is cst.DictElement]
        if all(key is not None and key.isidentifier() for key in keys):
            expr.entries = {snake(key): entry for key, entry in zip(keys, entries)}
            for entry, element in zip(entries, value.elements):
                entry.node, entry.shape, entry.placeholder = element.value, self._condition(element.value), is_placeholder(element.value)

    def _describe(self, bind: Bind, value: cst.CSTNode | None) -> None:
        """What a bind's value is, where the tree says it: a call, a copy, nothing yet."""
        inner = value.expression if type(value) is cst.Await else value
        if type(inner) is cst.Call and not is_partial(inner):  # a partial holds a callable, made by no call of it yet
            bind.direct = next((c for c in bind.value.calls if c.node is inner), None)
        if type(inner) in (cst.Name, cst.Attribute, cst.Subscript):
            bind.copy_of = dotted(inner)
        elif type(inner) is cst.Call:
            bind.copy_of = dotted(self.written.get(id(inner), inner))  # `dump = card.model_dump; d = dump()` copies the card
        bind.value.placeholder = is_placeholder(value)
        if type(inner) is cst.Call and (dotted(inner.func) or "").rsplit(".", 1)[-1] == "field":
            default = next((a.value for a in inner.args if a.keyword and a.keyword.value == "default"), None)
            inner = default if default is not None else inner  # a dataclass field's default
        bind.value.literal_state = literal_state(inner) if inner is not None else None

    def _bind_loop(self, node: cst.CSTNode, expr: Expr) -> None:
        expr.node = node.iter
        bind = Bind(node, self.scope, self.order, self.path(), target_keys(node.target), expr, "for")
        iterated = node.iter
        if type(node.target) is cst.Tuple and len(node.target.elements) == 2 and type(iterated) is cst.Call:
            func = iterated.func
            name = func.attr.value if type(func) is cst.Attribute else func.value if type(func) is cst.Name else ""
            bind.keyed = name in ("items", "enumerate")
        self.scope.binds.append(bind)

    def _bind_with(self, node: cst.WithItem, expr: Expr) -> None:
        expr.node = node.item
        targets = target_keys(node.asname.name) if node.asname else []
        self.scope.binds.append(Bind(node, self.scope, self.order, self.path(), targets, expr, "with"))

    def _leave_loop_or_with(self, node: cst.CSTNode) -> None:
        for bind in reversed(self.scope.binds):
            if bind.node is node:
                self._describe(bind, node.iter if type(node) is not cst.WithItem else node.item)
                break

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
        exit_ = Exit(node, self.scope, self.order, self.path(), _EXITS[type(node)], value)
        if type(node) is cst.Return and node.value is not None:
            self._elements(value, node.value)
            exit_.shape = shape_of(node.value, self._call_index(), written=self.written)
            value.placeholder = is_placeholder(node.value)
            value.literal_state = literal_state(node.value)
        self.scope.exits.append(exit_)

    def _expression_statement(self, node: cst.Expr) -> None:
        value = self.pending.pop(id(node), None)  # its calls are recorded; the value is dropped
        yielded = node.value.value if type(node.value) is cst.Yield else None
        if value is not None and yielded is not None and type(yielded) is not cst.From:  # ...unless yielded
            value.node = yielded
            self.scope.yields.append(Exit(node, self.scope, self.order, self.path(), "yield", value))

    # -- imports --
    def _import(self, node: cst.Import | cst.ImportFrom) -> None:
        self.module_tables_changed = True
        if type(node) is cst.Import:
            for alias in node.names:
                full = dotted(alias.name) or ""
                if alias.asname:
                    self.model.imports[dotted(alias.asname.name) or full] = full
                else:
                    self.model.imports.setdefault(full.split(".")[0], full.split(".")[0])
                    self.model.imports.setdefault(full, full)
            return
        module = ("." * len(node.relative)) + (dotted(node.module) or "" if node.module else "")
        if type(node.names) is cst.ImportStar:
            self.model.imports.setdefault(f"{module}.*", module)
            return
        for alias in node.names:
            name = dotted(alias.name) or ""
            local = dotted(alias.asname.name) if alias.asname else name
            if module.endswith("."):
                self.model.imports[local or name] = f"{module}{name}"
            else:
                self.model.imports[local or name] = f"{module}.{name}" if module else name


def _slot_key(value: cst.CSTNode) -> str | None:
    """The key a dict value passes on whole: a name, an attribute, or a conversion of one
    (``task.to_dict()``, ``message.model_dump(mode="json")``)."""
    kind = type(value)
    if kind in (cst.Name, cst.Attribute):
        return dotted(value)
    if kind is cst.Call and type(value.func) is cst.Attribute:
        name = value.func.attr.value
        if name in IDENTITY_METHODS or name.startswith(("to_", "as_", "model_dump", "serialize")):
            return dotted(value.func.value)
    return None


def _param(param: cst.Param, index: int, star: str = "") -> Param:
    return Param(param.name.value, annotation_text(param.annotation), param, index, star, is_none(param.default))


def _decorator_name(decorator: cst.Decorator) -> str | None:
    node = decorator.decorator
    return dotted(node.func) if type(node) is cst.Call else dotted(node)


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
    cst.Dict: ModelBuilder._dict,
    cst.Await: ModelBuilder._await,
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
    cst.Expr: ModelBuilder._expression_statement,
}


def _leave_for(builder: ModelBuilder, node: cst.For) -> None:
    builder._leave_loop_or_with(node)
    builder._leave_control(node)


def _leave_comp_for(builder: ModelBuilder, node: cst.CompFor) -> None:
    builder._leave_loop_or_with(node)


def _visit_operator(builder: ModelBuilder, node: cst.CSTNode) -> None:
    if type(node) is not cst.UnaryOperation or type(node.operator) is cst.Not:
        builder._enter_operator(node)


def _leave_operator(builder: ModelBuilder, node: cst.CSTNode) -> None:
    if type(node) is not cst.UnaryOperation or type(node.operator) is cst.Not:
        builder._leave_operator(node)


for _kind in (cst.Comparison, cst.BinaryOperation, cst.UnaryOperation):
    _ON_VISIT[_kind] = _visit_operator
    _ON_LEAVE[_kind] = _leave_operator
_ON_LEAVE[cst.FormattedString] = ModelBuilder._leave_operator
_ON_LEAVE[cst.For] = _leave_for
_ON_LEAVE[cst.CompFor] = _leave_comp_for
_ON_LEAVE[cst.WithItem] = ModelBuilder._leave_loop_or_with


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
_LEAVE, _ENTER_FIELD, _LEAVE_FIELD = range(3)


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


_Plan = tuple  # (walked fields, on_visit handler, on_leave handler, is a statement)
_PLANS: dict[type, _Plan] = {}


def _plan(kind: type) -> _Plan:
    """What the walk does with a node of ``kind``: its fields, its handlers, whether it is a
    statement (the innermost one holding the nodes below it)."""
    plan = _PLANS.get(kind)
    if plan is None:
        plan = _PLANS[kind] = (_fields(kind), _ON_VISIT.get(kind), _ON_LEAVE.get(kind), kind in _STATEMENTS)
    return plan


def walk(root: cst.CSTNode, builder: ModelBuilder) -> None:
    """Visit every node below ``root`` in source order, with the events of a libcst
    visitor (visit and leave a node, visit and leave one of its fields), the field events
    only for the fields the builder listens to (see :func:`_fields`) and a node's leave
    event only when something listens to it.

    libcst's own ``visit`` rebuilds every node on the way back up; walking the dataclass
    fields directly, skipping layout and without recursion, is several times faster. Each
    node costs a few dictionary operations here, so the dispatch is inlined."""
    model = builder.model
    statement_of, parent_statement = model.statement_of, model.parent_statement
    statements = builder.statements
    stack: list = [root]
    pop, push, extend = stack.pop, stack.append, stack.extend
    plans, node_types = _PLANS, _NODE_TYPES
    while stack:
        entry = pop()
        if type(entry) is not tuple:  # a node to enter
            node = entry
            kind = type(node)
            plan = plans.get(kind) or _plan(kind)
            fields, on_visit, on_leave, is_statement = plan
            builder.order += 1
            if is_statement:
                parent_statement[id(node)] = statements[-1] if statements else None
                statements.append(node)
            statement_of[id(node)] = statements[-1] if statements else None
            if on_visit is not None:
                on_visit(builder, node)
            if on_leave is not None or is_statement:
                push((_LEAVE, node, plan))
            for field_name, evented in fields:
                value = getattr(node, field_name)
                kind = type(value)
                if kind is tuple or kind is list:  # libcst's sequences hold nodes only
                    if not value:
                        continue
                    children = value
                elif node_types.get(kind) or (kind not in node_types and _is_node(kind)):
                    children = (value,)
                else:
                    continue
                if evented:
                    push((_LEAVE_FIELD, node, field_name))
                extend(reversed(children))
                if evented:
                    push((_ENTER_FIELD, node, field_name))
            continue
        action, node, detail = entry
        if action == _LEAVE:
            if detail[3]:
                statements.pop()
            if detail[2] is not None:
                detail[2](builder, node)
        elif action == _ENTER_FIELD:
            builder.on_visit_attribute(node, detail)
        else:
            builder.on_leave_attribute(node, detail)


def build_model(module: cst.Module, path: str, fragments: dict[int, Fragment] | None = None) -> ModuleModel:
    """The model of ``module``. With ``fragments`` (those of an earlier version of the
    same buffer, whose tree shares its unchanged statements), it is built statement by
    statement: a top-level function whose node is unchanged is installed from its
    fragment, not walked, and the model keeps the fragments of this version. Either way
    the facts are the ones one walk of the whole module makes."""
    _RECEIVERS.names = {}
    try:
        return _build_model(module, path, fragments)
    finally:
        _RECEIVERS.names = {}  # a walk stopped inside a method leaves no names in force


def _build_model(module: cst.Module, path: str, fragments: dict[int, Fragment] | None) -> ModuleModel:
    model = ModuleModel(module, path)
    builder = ModelBuilder(model)
    if fragments is None:
        walk(module, builder)
        return model
    model.fragments = {}
    builder.order += 1  # the module itself, as the walk counts it
    model.statement_of[id(module)] = None
    for name, _ in reversed(_fields(type(module))):
        value = getattr(module, name)
        for child in value if type(value) in (tuple, list) else ():  # its statements, header and footer
            if name != "body":
                walk(child, builder)
                continue
            fragment = fragments.get(id(child))
            if fragment is not None and fragment.node is child:
                fragment.install(builder)
            elif type(child) is cst.FunctionDef:
                fragment = _recorded(child, builder)
            else:
                walk(child, builder)
            if fragment is not None:
                model.fragments[id(child)] = fragment
    return model


def _recorded(node: cst.FunctionDef, builder: ModelBuilder) -> Fragment | None:
    """Walk the top-level function ``node``, keeping what it adds as a fragment (None when
    it also changes the module's own tables: an import, a class inside it)."""
    model = builder.model
    statement_of, parent_statement, strings, rpc_methods = model.statement_of, model.parent_statement, model.strings, model.rpc_methods
    first, start = len(model.scopes), builder.order
    builder.made_frames, builder.module_tables_changed = [], False
    fragment = Fragment(node, start, start, [], builder.made_frames, set(), set(), {}, {})
    model.statement_of, model.parent_statement = fragment.statement_of, fragment.parent_statement
    model.strings, model.rpc_methods = fragment.strings, fragment.rpc_methods
    try:
        walk(node, builder)
    finally:
        model.statement_of, model.parent_statement, model.strings, model.rpc_methods = statement_of, parent_statement, strings, rpc_methods
        builder.made_frames = None
    statement_of.update(fragment.statement_of)
    parent_statement.update(fragment.parent_statement)
    strings |= fragment.strings
    rpc_methods |= fragment.rpc_methods
    if builder.module_tables_changed:
        return None
    fragment.end, fragment.scopes = builder.order, model.scopes[first:]
    return fragment
