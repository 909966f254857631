"""Where values come from: the provenance of every key of every function, project-wide.

A value is known by what produced it, never by its name: an Agent Card is what a
card fetch returned, what ``AgentCard(...)`` built, what a parameter annotated
``AgentCard`` or its callers hand in, what a project function returns because its
summary says so, or what was stored into an attribute or a container such a value
went into. Each key of each function has a set of *atoms* at each point:

- ``("card", origin)``: a whole card; ``("skills" | "capability" | "contract" | "data",
  origin)``: a value derived from its skills, its other capability fields, its contract
  fields or the rest of it;
- ``("client", origin)``: an A2A client made from that card (or connected by URL);
- ``("task", send)`` a task, response or task id a send returned; ``("status", call)``
  what the task's own status channel said (``get_task``, a status stream);
- ``("digest", origin)``: a canonical digest of card data (a frozen contract);
- ``("url", origin)`` a card URL; ``("rpc", role)`` a JSON-RPC method name;
  ``("rest", role)`` a REST path (``/message:send``, ``/tasks/{id}``);
  ``("rpc-body", role)`` a request body whose ``method`` is one;
- ``("state", name)`` a task state; ``("type", T)`` an instance of an SDK type (a
  canonical name) or of a project class (its :class:`ClassFacts`); ``("func", scope)``.

Within a function the atoms are *symbolic* in what enters it: ``("param", p, path)``,
``("attr", class, name, path)``, ``("global", model, name, path)``, and a few
wrappers whose meaning waits on them (a hash of a parameter is a digest when the
parameter is card data). A function's :class:`Summary` (what it returns, which roles
it plays and through which calls) is computed once, in those terms, and instantiated
at each call site with the call's arguments: summaries are context-sensitive for free.
:meth:`Analysis.resolve` turns symbolic atoms into concrete ones, going to the
callers of a function for its parameters. Which function a method call runs is read
from its own function, where an untyped parameter that every caller hands an instance
of one class (of the project or a library) has that class, as an annotation would give it
(:meth:`Analysis.callers_class`).
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass, field, replace
from typing import Callable, Iterable, Iterator

from a2alint import apimodel
from a2alint.apimodel import (
    CARD_FIELD,
    CARD_FIELD_NAMES,
    CARD_PATH_CONSTANTS,
    CARD_TYPES,
    HTTP_READS,
    HTTP_WRITES,
    JWS_CHECKS,
    METHOD_ROLES,
    QUALIFIED_PATTERNS,
    REST_READS,
    RETURNS,
    RPC_ROLES,
    canonical,
    is_card_url,
    rest_role,
)
from a2alint.control import checkpoint, common_loop, dominates, in_loop_body, runs_before, spend
from a2alint.model import IDENTITY_METHODS, Bind, Call, ClassFacts, Exit, Expr, Fact, ModuleModel, Param, Scope, annotation_types, snake

# --- atoms ---------------------------------------------------------------------------------

CARD, SKILLS, CAPABILITY, CONTRACT, DATA = "card", "skills", "capability", "contract", "data"
#: The one empty answer: the analysis remembers hundreds of thousands of them.
NOTHING: frozenset = frozenset()
_NO_CYCLE = 1 << 62  # (see Analysis.cycle_from)


def frozen(atoms: Iterable) -> frozenset:
    """``atoms`` as a frozenset, the shared one when there are none."""
    return frozenset(atoms) or NOTHING


CARD_KINDS = frozenset({CARD, SKILLS, CAPABILITY, CONTRACT, DATA})
CLIENT, TASK, STATUS, DIGEST = "client", "task", "status", "digest"
URL, RPC, REST, BODY_ROLE, STATE, TYPE, FUNC = "url", "rpc", "rest", "rpc-body", "state", "type", "func"
PARAM, ATTR, GLOBAL = "param", "attr", "global"
#: Wrappers whose meaning waits on a symbolic atom: a hash of it (a digest when it is
#: card data), a request body whose method it is, something derived from it, a client
#: made from it (when it is a card), the card a client holds, a fetch of it (when a URL).
HASH, BODY, DERIVED, CLIENT_OF, HELD, FETCH_OF = "hash", "body", "derived", "client-of", "held", "fetch-of"
#: A project object made of what a value holds (a card when it is card data; see ``Analysis.card_copy``).
COPY_OF = "copy-of"
#: What a request or message built from a symbolic value carries of it (see ``CARRIED``).
CARRY = "carry"
#: A card held in one field of a record (``result["agent_card"] = card``), or what a record's
#: construction gave a field (``Conn(card, client, digest)``): the record is not the card,
#: and its other fields are not card data. ``(FIELD, name, atom)``.
FIELD = "field"
SYMBOLIC = frozenset({PARAM, ATTR, GLOBAL, HASH, BODY, DERIVED, CLIENT_OF, HELD, FETCH_OF, COPY_OF, CARRY})

CAPABILITY_FIELDS = frozenset({"skills", "default_input_modes", "default_output_modes", "capabilities"})
CONTRACT_FIELDS = frozenset(
    {"protocol_version", "security_schemes", "security", "security_requirements", "supported_interfaces"}
)
#: Fields of a client that hold its card (0.2 ``A2AClient.agent_card``, ADK's ``_agent_card``).
#: Fields only an Agent Card has: reading one of a value reads it as a card.
CARD_OWN_FIELDS = CAPABILITY_FIELDS | CONTRACT_FIELDS
CLIENT_CARD_FIELDS = frozenset({"agent_card", "card", "_agent_card", "_card"})
#: Builtins whose result holds what their argument holds (elements of a container).
_KEEPING = frozenset({"sorted", "list", "tuple", "set", "frozenset", "reversed", "iter", "next", "enumerate",
                      "filter", "dict", "max", "min", "copy", "deepcopy", "cast", "anext", "aiter",
                      "get", "pop", "setdefault", "popitem", "values", "items"})
#: What serialises a request body for the wire: its text is still that body.
_SERIALISERS = frozenset({"json.dumps", "orjson.dumps", "ujson.dumps", "simplejson.dumps", "rapidjson.dumps"})
#: What parses text read from elsewhere: the data is what the text was (a card stays card data).
_PARSERS = frozenset({"json.loads", "orjson.loads", "ujson.loads", "simplejson.loads"})
#: Decorators that make a generator a context manager: ``with f() as x`` binds what it yields.
_CONTEXT_MANAGERS = frozenset({"contextlib.contextmanager", "contextlib.asynccontextmanager"})
#: Functions that build a card from data, in every SDK spelling.
CARD_BUILDERS = re.compile(r"(^|:|\.)(AgentCard(\.(model_validate(_json)?|parse_obj|parse_raw|from_dict|from_json|construct|model_construct))?|parse_agent_card|minimal_agent_card)$")
MAX_PATH = 4
#: The last names of the calls ``JWS_CHECKS`` knows (a cheap test before resolving names).
_JWS_NAMES = frozenset(p.rsplit(".", 1)[-1] for p in JWS_CHECKS)
#: What a request or message built from a value carries of it; a URL object or a request
#: made of a card URL (``yarl.URL(CARD_PATH)``, ``httpx.Request("GET", url)``) still names it.
CARRIED = frozenset({TASK, STATUS, DIGEST, STATE, URL})
#: How many callers up a parameter's value is looked for.
CALLER_DEPTH = 4


@dataclass(frozen=True)
class Guess:
    """A value taken for a card by its name alone: a parameter with no annotation and no
    caller in the project whose name says Agent Card (the last resort; see :func:`guessed`
    and :func:`is_card_name`)."""

    param: Param


#: The names that say Agent Card on their own (leading underscores aside): ``card``,
#: ``agent_card`` (``peer_agent_card``), and ``card`` after a word that says whose card it
#: is or which version of it (``peer_card``, ``fresh_card``); not another kind of card
#: (``credit_card``, ``id_card``, ``gift_card``).
_CARD_NAME = re.compile(
    r"_*((\w+_)?agent_|(peer|partner|remote|fresh|cached|new|old|current|latest|last|first|previous|pinned|approved|held)_)?card"
)


def is_card_name(name: str) -> bool:
    return bool(_CARD_NAME.fullmatch(name.rsplit(".", 1)[-1]))


def guessed(atom: tuple) -> bool:
    """The atom rests on a name alone (see :class:`Guess`)."""
    return len(atom) > 1 and isinstance(atom[1], Guess)


#: What an HTTP response that carries a card holds besides it: its status and headers
#: (an ``ETag`` kept from them is a validator, not card data). No card has these fields.
RESPONSE_FIELDS = frozenset({"status_code", "status", "ok", "is_success", "is_error", "headers"})


def project_field(atom: tuple, name: str) -> tuple | None:
    """What reading field ``name`` of a value with ``atom`` gives."""
    kind = atom[0]
    if kind == CARD:
        if name in RESPONSE_FIELDS:
            return None
        if name == "skills":
            return (SKILLS, atom[1])
        if name in CAPABILITY_FIELDS:
            return (CAPABILITY, atom[1])
        if name in CONTRACT_FIELDS:
            return (CONTRACT, atom[1])
        return (DATA, atom[1])
    if kind in (SKILLS, CAPABILITY, CONTRACT, DATA, TASK, STATUS, DIGEST, URL, RPC, REST, BODY_ROLE, STATE):
        return atom
    if kind == CLIENT:
        return (CARD, atom[1]) if name in CLIENT_CARD_FIELDS else None
    if kind == TYPE:
        target = atom[1]
        return (ATTR, target, name, ()) if isinstance(target, ClassFacts) else None
    if kind in (PARAM, ATTR, GLOBAL):
        path = atom[-1]
        return (*atom[:-1], (*path, name)) if len(path) < MAX_PATH else (DERIVED, atom)
    if kind == FIELD:
        return atom[2] if atom[1] == name else None
    if kind == BODY and name in _ENVELOPE_FIELDS:  # `rpc.data` of a request object: the envelope
        return atom
    if kind in (HASH, BODY, DERIVED, CLIENT_OF, HELD, FETCH_OF, COPY_OF):
        return wrap(DERIVED, atom)
    return None


def wrap(kind: str, atom: tuple) -> tuple:
    """``(kind, atom)``, where deriving is idempotent: what derives from a derived value
    derives from its source. Without this a value rebuilt from itself in a loop or a
    recursion would wrap without end and its atoms would never settle."""
    return atom if kind == DERIVED and atom[0] == DERIVED else (kind, atom)


#: Fields of a request object that hold the whole envelope it posts.
_ENVELOPE_FIELDS = frozenset({"data", "json", "body", "payload", "content"})


def _in_field(atoms: frozenset, targets: list[str], key: str) -> set[tuple]:
    """What a store into a field of ``key`` (``key.name = value``) gives ``key`` itself: a
    card or a client it stores stays in its field; the rest (task ids, digests, bodies)
    is carried by the whole."""
    names = {t[len(key) + 1 :].split(".")[0] for t in targets if t.startswith(key + ".")}
    if len(names) != 1:
        return set(atoms)
    name = next(iter(names))
    return {(FIELD, name, a) if a[0] in CARD_KINDS or a[0] == CLIENT else a for a in atoms}


def kept_in_fields(atoms: Iterable[tuple]) -> set[tuple]:
    """``atoms``, with what a record keeps in one of its fields as its own: a record that
    holds the card (``Peer(card, client)``) is made of that card."""
    return {a[2] if a[0] == FIELD else a for a in atoms}


def project_path(atoms: Iterable[tuple], path: Iterable[str]) -> frozenset:
    found = set(atoms)
    for name in path:
        found = {p for a in found if (p := project_field(a, name)) is not None}
        if not found:
            break
    return frozen(found)


def derive(atom: tuple) -> tuple | None:
    """What an opaque computation over a value (a comparison, a format, an unknown
    function) keeps of it: card data stays card data, a task id a task id."""
    kind = atom[0]
    if kind == FIELD:
        return derive(atom[2])
    if kind in (CARD, CLIENT):
        return (DATA, atom[1])
    if kind in (SKILLS, CAPABILITY, CONTRACT, DATA, TASK, STATUS, DIGEST, URL, STATE):
        return atom  # (a REST path is the literal's: `task_url + "/.well-known/..."` is none)
    if kind in SYMBOLIC:
        return atom if kind == DERIVED else (DERIVED, atom)
    return None


def derived(atoms: Iterable[tuple]) -> frozenset:
    return frozen(d for a in atoms if (d := derive(a)) is not None)


def kinds(atoms: Iterable[tuple]) -> set[str]:
    return {a[0] for a in atoms}


def cards_in(atoms: Iterable[tuple], whole: bool = False) -> list[tuple]:
    return [a for a in atoms if a[0] == CARD or (not whole and a[0] in CARD_KINDS)]


def literal_atoms(text: str, fact: Fact) -> set[tuple]:
    found: set[tuple] = set()
    if is_card_url(text):
        found.add((URL, fact))
    if text in RPC_ROLES:
        found.add((RPC, RPC_ROLES[text]))
    role = rest_role(text)
    if role:
        found.add((REST, role))
    for pattern, read in REST_READS:
        if pattern.search(text):
            found.add((REST, read))
    return found


# --- effects and summaries ----------------------------------------------------------------


@dataclass(frozen=True)
class Wire:
    """A call whose role waits on what it is given (symbolic atoms): an HTTP request, on
    what its URL and body hold; a JWS check, on whose token it checks (a card's or not)."""

    kind: str  # "read" or "write" (a request that may be either is both), or "check"
    url: frozenset
    body: frozenset
    checked: frozenset = NOTHING


@dataclass
class Summary:
    """What a function does, in terms of what enters it."""

    returns: frozenset = NOTHING
    #: (chain of calls from this function's call down to the one that plays the role, the
    #: role, or a :class:`Wire` whose role its caller's arguments decide).
    effects: list[tuple[tuple[Call, ...], str | Wire]] = field(default_factory=list)


def declared_method(cls: ClassFacts) -> str | None:
    """The JSON-RPC method a request model declares: ``method: Literal["tasks/send"] = "tasks/send"``."""
    _, bind = cls.fields.get("method", (None, None))
    texts = list(bind.value.texts) if bind is not None else []
    return next((t for t in texts if t in RPC_ROLES), None)


def decide_wire(wire: Wire, resolve) -> set[str]:
    """The roles a call of a :class:`Wire` plays once what it is given is known."""
    roles: set[str] = set()
    if wire.kind == "check":
        return {"verify-signature"} if any(a[0] in CARD_KINDS for a in resolve(wire.checked)) else roles
    url = resolve(wire.url)
    if "read" in wire.kind:
        if any(a[0] == URL for a in url):
            roles.add("card-fetch")
        roles.update(a[1] for a in url if a[0] == REST and a[1] == "get-task")
    if "write" in wire.kind:
        for atom in resolve(wire.body):
            if atom[0] == BODY_ROLE:
                roles.add(atom[1])
            elif atom[0] == TYPE and isinstance(atom[1], ClassFacts):  # a request model posted whole
                method = declared_method(atom[1])
                if method in RPC_ROLES:
                    roles.add(RPC_ROLES[method])
        roles.update(a[1] for a in url if a[0] == REST and a[1] in ("send", "cancel", "subscribe"))
    return roles


# --- one function ---------------------------------------------------------------------------


class ScopeValues:
    """The atoms of the keys of one function, symbolic in what enters it."""

    def __init__(self, analysis: "Analysis", scope: Scope, model: ModuleModel) -> None:
        self.analysis = analysis
        self.scope = scope
        self.model = model
        self.binds_of: dict[str, list[Bind]] = {}
        self.below: dict[str, list[Bind]] = {}  # key -> binds of keys below it (``msg.task_id`` for ``msg``)
        for bind in scope.binds:
            for target in bind.targets:
                self.binds_of.setdefault(target, []).append(bind)
                parts = target.split(".")
                for end in range(1, len(parts)):
                    self.below.setdefault(".".join(parts[:end]), []).append(bind)
        self.params = {p.name: p for p in scope.params}
        self.locals = set(self.params) | {
            t for b in scope.binds if not b.weak for t in b.targets if "." not in t
        }
        self._binds: dict[int, frozenset] = {}
        self._at: dict[tuple[str, int], frozenset] = {}
        self._results: dict[int, frozenset] = {}
        self._active: dict[tuple, int] = {}  # the questions being computed -> their depth (see _once)
        self._returns: frozenset | None = None
        self._held: dict[tuple[int, str], Bind] = {}

    # -- keys --
    def _once(self, cache: dict, key, compute, keep: bool = True) -> frozenset:
        """``compute()``, remembered in ``cache``; asked again while it is being computed
        (a loop's back edge, a recursive function), it holds nothing yet (see :meth:`Analysis.again`)."""
        found = cache.get(key)
        if found is not None:
            return found
        analysis, active = self.analysis, (id(cache), key)
        if analysis.again(self._active, active):
            return NOTHING
        spend(self.scope)
        analysis.begin(self._active, active)
        provisional = analysis.provisional
        try:
            found = compute()
        finally:
            final = analysis.end(self._active, active)
        if keep and final and analysis.provisional == provisional:  # not made of an answer given mid-decision
            cache[key] = found
        return found

    def at(self, key: str, fact: Fact | None) -> frozenset:
        """The atoms ``key`` holds where ``fact`` runs (``None``: anywhere in the function)."""
        memo = (key, id(fact))
        found = self._at.get(memo)  # (what _once asks first, without building the question)
        if found is not None:
            return found
        return self._once(self._at, memo, lambda: self._at_uncached(key, fact))

    def _at_uncached(self, key: str, fact: Fact | None) -> frozenset:
        binds, killed = self.reaching(key, fact)
        atoms: set[tuple] = set()
        for bind in binds:
            atoms |= self.bind_atoms(bind, key)
        for bind in self.below.get(key, ()):  # `request.metadata = {...}`: part of the request
            if bind not in binds and (fact is None or runs_before(bind, fact)):
                atoms |= _in_field(self.bind_atoms(bind, key), bind.targets, key)
        if not killed:
            atoms |= self.entry(key, fact)
        return frozen(atoms)

    def bind_atoms(self, bind: Bind, key: str) -> frozenset:
        """What ``bind`` gives ``key`` (which it binds, or a key above what it binds)."""
        targets = bind.targets
        if bind.keyed and targets and key == targets[0]:
            return NOTHING  # `for name, card in cards.items()`: the name is no card
        if len(targets) > 1 and key in targets and bind.kind == "assign":
            atoms = self.unpacked(bind, targets.index(key), len(targets))
            if atoms is not None:
                return atoms
        return self.bind(bind)

    def unpacked(self, bind: Bind, position: int, count: int, depth: int = 3) -> frozenset | None:
        """What the ``position``-th of ``count`` values ``bind``'s value unpacks into holds,
        where it is known element by element (``None`` where it is known only as a whole):
        a tuple written out, a project function's returns, a key holding one of these."""
        elements = bind.value.elements
        if elements is not None and len(elements) == count:
            return self.expr(elements[position], bind)
        if bind.direct is not None:  # `doc, digest = load(url)`
            target = self.analysis.project_function(bind.direct)
            if target is not None:
                atoms = self.analysis.instantiate_element(self, bind.direct, target, position, count)
                if any(a[0] == TASK for a in atoms):  # the task it submits, as this call's
                    atoms |= {(TASK, bind.direct)}
                return atoms
        if bind.copy_of is not None and depth > 0:  # `_, client = pair`
            return self.element(bind.copy_of, bind, position, count, depth - 1)
        return None

    def element(self, key: str, fact: Fact, position: int, count: int, depth: int) -> frozenset | None:
        """What the ``position``-th of ``count`` elements of ``key``'s value holds at
        ``fact``: from each bind that may have given it, or from its parameter's tuple
        annotation (``pair: tuple[Server, Client]``); ``None`` where one of them is known
        only as a whole."""
        binds, killed = self.reaching(key, fact)
        atoms: set[tuple] = set()
        for bind in binds:
            if bind.weak or bind.kind != "assign" or bind.targets != [key]:
                return None
            found = self.unpacked(bind, position, count, depth)
            if found is None:
                return None
            atoms |= found
        if not killed:
            param = self.params.get(key)
            types = annotation_types(param.annotation) if param is not None and param.annotation else ()
            if len(types) != count:
                return None
            atoms |= self.analysis.type_atoms(self, types[position], param)
        return frozen(atoms)

    def entry(self, key: str, fact: Fact | None) -> frozenset:
        """What ``key`` holds before this function binds it: part of a bound key, a
        parameter, the object's attribute, a module global, an import."""
        if "." in key:
            parent, _, name = key.rpartition(".")
            return project_path(self.at(parent, fact), [name])
        return self.analysis.name_atoms(self, key)

    def reaching(self, key: str, fact: Fact | None) -> tuple[list[Bind], bool]:
        """The binds of ``key`` whose value may be the one at ``fact``, and whether one of
        them surely replaced whatever it held before."""
        binds = self.binds_of.get(key, ())
        if not binds and "." in key:
            held = self.held_binds(key, fact)
            if held is not None:
                return held, True
        if fact is None:
            return list(binds), any(not b.weak for b in binds) and "." not in key and key not in self.params
        candidates = [b for b in binds if b is not fact and runs_before(b, fact)]
        killers = [b for b in candidates if not b.weak and dominates(b, fact)]
        if not killers:
            return candidates, False
        killer = max(killers, key=lambda b: b.order)
        kept = []
        for bind in candidates:
            if bind.order >= killer.order and bind.order < fact.order:
                kept.append(bind)
            elif bind.order > fact.order:  # from a later pass of a loop around both
                loop = common_loop(bind, fact)
                if loop is not None and not in_loop_body(killer, loop):
                    kept.append(bind)
        return kept, True

    def sources(self, key: str, fact: Fact | None, depth: int = 4) -> list[Bind]:
        """The binds that make what ``key`` holds at ``fact``, through copies of it
        (``tid = job["id"]``: the bind of ``job``'s ``id``)."""
        found: list[Bind] = []
        for bind in self.reaching(key, fact)[0]:
            copied = self.sources(bind.copy_of, bind, depth - 1) if bind.copy_of not in (None, key) and depth > 0 else []
            found += copied or [bind]
        return found

    def readers(self, call: Call) -> list[Bind]:
        """The binds that read ``call``'s result back from the record or dict that kept it
        (``held = {"card": fetch()}; card = held["card"]``)."""
        return [
            b for b in self.scope.binds if b.copy_of is not None and b.copy_of not in self.binds_of
            and any(c is call for s in self.sources(b.copy_of, b) for c in s.value.calls)
        ]

    def made_of(self, bind: Bind) -> list[Bind]:
        """``bind``, and when it copies a key, the binds that made that key
        (``cached = held["cached"]``: the bind that put it there)."""
        return [bind, *self.sources(bind.copy_of, bind)] if bind.copy_of is not None else [bind]

    def empty(self, bind: Bind) -> bool:
        """``bind`` gives its target nothing yet: ``None``, ``{}``, or a copy of one
        (``cards = state["cards"]`` where ``state = {"cards": {}}``)."""
        if bind.value.placeholder:
            return True
        copied = self.sources(bind.copy_of, bind) if bind.copy_of is not None and bind.direct is None else []
        return bool(copied) and all(b.value.placeholder for b in copied)

    def held_binds(self, key: str, fact: Fact | None) -> list[Bind] | None:
        """``state.card`` where every value ``state`` may have at ``fact`` was built here
        with the field spelt out (``state = {"card": card}``, ``state = PeerState(card,
        client)``): binds of the key to what each gave the field (``None`` where one of
        them is known only as a whole)."""
        parent, _, name = key.rpartition(".")
        binds, killed = self.reaching(parent, fact)
        if not killed or not binds:
            return None
        found = []
        for bind in binds:
            if bind.weak or bind.kind != "assign" or bind.targets != [parent]:
                return None
            value = self._field_value(bind, name)
            if value is None:
                return None
            memo = (id(bind), name)
            if memo not in self._held:
                self._held[memo] = replace(bind, targets=[key], value=value, annotation=None, direct=_the_call(value),
                                           copy_of=next(iter(value.reads)) if _copies(value) else None, shape=value.shape)
            found.append(self._held[memo])
        return found

    def _field_value(self, bind: Bind, name: str) -> Expr | None:
        """What ``bind``'s value spells out for its field ``name``: a dict literal's entry, a
        record constructor's argument."""
        if bind.value.entries is not None:
            return bind.value.entries.get(name)
        if bind.direct is not None:
            return self.analysis.field_given(bind.direct, name)
        return None

    def bind(self, bind: Bind) -> frozenset:
        """What ``bind``'s value holds (its annotation's say included)."""
        def compute() -> frozenset:
            atoms = self.expr(bind.value, bind)
            if bind.annotation:
                atoms |= self.analysis.type_atoms(self, bind.annotation, bind)
            return atoms

        return self._once(self._binds, id(bind), compute)

    # -- expressions --
    def expr(self, expr: Expr, fact: Fact) -> frozenset:
        atoms: set[tuple] = set()
        for key in expr.reads:
            atoms |= self.at(key, fact)
        for call in expr.top:
            atoms |= self.result(call)
        extra: set[tuple] = set()
        for key in expr.derived:
            extra |= self.at(key, fact)
        for call in expr.derived_top:
            extra |= self.result(call)
        atoms |= derived(extra)
        for text in expr.texts:
            atoms |= literal_atoms(text, fact)
        for method in expr.methods:
            if method in RPC_ROLES:
                atoms.add((BODY_ROLE, RPC_ROLES[method]))
        for key in expr.method_keys:
            for atom in self.at(key, fact):
                if atom[0] == RPC:
                    atoms.add((BODY_ROLE, atom[1]))
                elif atom[0] in SYMBOLIC:
                    atoms.add((BODY, atom))
        if expr.literal_state:
            atoms.add((STATE, expr.literal_state))
        return frozen(atoms)

    def argument(self, call: Call, index: int, keyword: str) -> frozenset:
        arg = call.argument(index, keyword)
        return self.expr(arg.value, call) if arg is not None else NOTHING

    def arguments(self, call: Call) -> frozenset:
        atoms: set[tuple] = set()
        for arg in call.arguments:
            atoms |= self.expr(arg.value, call)
        return frozen(atoms)

    def receiver(self, call: Call) -> frozenset:
        if call.receiver_call is not None:
            return self.result(call.receiver_call)
        if call.receiver:
            return self.at(call.receiver, call)
        return NOTHING

    def result(self, call: Call) -> frozenset:
        """What ``call`` returns (asked while its role is being decided, it is not final)."""
        keep = id(call) not in self.analysis.deciding
        return self._once(self._results, id(call), lambda: self.analysis.call_result(self, call), keep)

    def handed_out(self) -> list[Exit]:
        """Where the function hands its caller a value: its ``return``s, or, for a generator
        a decorator makes a context manager (``@asynccontextmanager``), its ``yield``s,
        which ``with f() as x`` binds (taken, like ``__enter__`` returning ``self``, for
        what the call gives)."""
        for name in self.scope.decorators:
            symbol = self.analysis.symbol(self.model, name)
            if symbol is not None and symbol.external in _CONTEXT_MANAGERS:
                return self.scope.yields
        return [e for e in self.scope.exits if e.kind == "return"]

    def returns_element(self, position: int, count: int) -> frozenset:
        """What the ``position``-th of ``count`` values a function returns is made of."""
        atoms: set[tuple] = set()
        for exit_ in self.handed_out():
            elements = exit_.value.elements
            if elements is not None and len(elements) == count:
                atoms |= self.expr(elements[position], exit_)
            else:
                atoms |= self.expr(exit_.value, exit_)
        return frozen(atoms)

    def returns(self) -> frozenset:
        if self._returns is not None:
            return self._returns
        self._returns = NOTHING  # a recursive function: what it returns elsewhere
        provisional = self.analysis.provisional
        atoms: set[tuple] = set()
        try:
            for exit_ in self.handed_out():
                atoms |= self.expr(exit_.value, exit_)
        finally:
            self._returns = None
        found = frozen(atoms)
        if self.analysis.provisional == provisional:  # not made of an answer given mid-question
            self._returns = found
        return found


# --- the project -----------------------------------------------------------------------------


@dataclass
class Target:
    """What a call runs: a project function (or a class's constructor), or an external
    name (canonical: ``a2a:Client.send_message``, ``httpx.get``)."""

    function: Scope | None = None
    model: ModuleModel | None = None
    cls: ClassFacts | None = None
    external: str | None = None
    #: The receiver is bound to the function's first parameter (a method called on an object).
    bound: bool = False


class Analysis:
    """The project-wide value analysis: one per run, answers memoised."""

    def __init__(self, project, configured: dict[str, tuple[str, ...]] | None = None) -> None:
        self.project = project
        self.configured = {role: tuple(patterns) for role, patterns in (configured or {}).items()}
        self._values: dict[int, ScopeValues] = {}
        self._models: dict[int, ModuleModel] = {}  # id(module scope) -> model
        self._roles: dict[int, frozenset[str]] = {}
        self._targets: dict[int, list[Target]] = {}
        self._finding: set[int] = set()  # ids of the calls whose targets are being found
        self._passing: set[int] = set()  # ids of the parameters whose callers are being read (see callers_class)
        #: What the targets of a call say, once they are final: its external names, its project function.
        self._externals: dict[int, list[str]] = {}
        self._functions: dict[int, Target | None] = {}
        self._http: dict[int, bool] = {}
        self._jws: dict[int, tuple | None] = {}  # see _jws_spec
        self._globals_of: dict[int, frozenset[str]] = {}  # see module_names
        self._near_calls: dict[tuple, tuple[int, list[Call]]] = {}  # see _nearby
        self._summaries: dict[int, Summary] = {}
        self._summarising: set[int] = set()
        self._params: dict[tuple, frozenset] = {}
        self._attrs: dict[tuple, frozenset] = {}
        self._globals: dict[tuple, frozenset] = {}
        self._resolving: dict = {}  # the questions being answered -> their depth (see again)
        self._class_of: dict[int, ClassFacts] = {}
        self._bound: dict[int, frozenset[str]] = {}
        self._named: dict[int, dict[str, list[Scope]]] = {}  # id(model) -> function name -> its functions
        self._owned: dict[int, dict[str, list[Scope]]] = {}  # id(model) -> qualname of an owner -> its functions
        self._built: _Index | None = None
        self._symbols: dict[tuple, Target | None] = {}
        self._resolved: dict[tuple, frozenset] = {}
        self._effects: dict[tuple, list] = {}
        self._elements: dict[tuple, frozenset] = {}
        self._registrations: dict[int, Call | None] = {}
        self._chains: dict[tuple, list[Call]] = {}
        self._builders: dict[int, list[Call]] = {}  # id(scope) -> its calls that build a card
        self._lookups: set[int] = set()  # ids of card-fetch calls that are registry lookups, not HTTP
        self._entering: dict[int, frozenset[int]] = {}  # id(scope) -> ids of its calls a `with` enters
        self._callers: dict[int, tuple[int, list[Call]]] = {}  # id(scope) -> (modules loaded, callers)
        #: Calls whose roles are being decided (a result asked for meanwhile is not final).
        self.deciding: set[int] = set()
        #: How many times a call's roles were asked while being decided (each answer not final).
        self.provisional = 0
        #: How deep the questions being answered are nested, and the least depth of one asked
        #: again meanwhile (a cycle still open), else ``_NO_CYCLE`` (see :meth:`again`).
        self.asking, self.cycle_from = 0, _NO_CYCLE

    def forget(self) -> None:
        """Forget every answer: a question given up midway (the budget spent, or nested
        past the interpreter's limit) leaves some behind made of what it had reached, which
        later files of the run would take as complete."""
        self.__init__(self.project, self.configured)  # type: ignore[misc]

    def release(self) -> None:
        """Forget every answer: the run is over. Its tables hold cycles through the facts,
        which a process running without the cyclic collector (the language server) frees
        at once this way."""
        self.__dict__.clear()

    def replaced(self, model: ModuleModel, path) -> "Analysis":
        """A fresh analysis of this project with ``model`` as the module at ``path`` (a fixed
        text): no answer kept, as any may rest on that module, but the index of what the
        modules hold made from this one's, which only that module's entries change."""
        fresh = Analysis(self.project.replaced(model, path), self.configured)
        if self._built is not None:
            fresh._built = self._built.replacing(self.project.loaded(path), model)
        return fresh

    # -- questions asked while they are being answered (cycles) --
    def again(self, active: dict, memo) -> bool:
        """Whether ``memo`` is being answered (``active``: those being answered, by depth):
        asked again meanwhile (a loop's back edge, a recursion) it has no answer yet, and
        what is asked on the way round, made of that, keeps none."""
        depth = active.get(memo)
        if depth is not None:
            self.cycle_from = min(self.cycle_from, depth)
        return depth is not None

    def begin(self, active: dict, memo) -> None:
        self.asking += 1
        active[memo] = self.asking

    def end(self, active: dict, memo) -> bool:
        """``memo`` is answered: whether the answer is final, so worth keeping (no cycle
        through a question asked before it is still open). Only the question a cycle
        started from keeps its answer: which of the others is asked first must not change
        what they say."""
        depth = active.pop(memo)
        self.asking -= 1
        if self.cycle_from < depth:
            return False
        self.cycle_from = _NO_CYCLE
        return True

    # -- what the loaded modules hold, by name (rebuilt when more modules are loaded) --
    def _index(self) -> "_Index":
        if self._built is None:
            self._built = _Index()
        self._built.update(self.project.models())
        return self._built

    # -- where things live --
    def model_of(self, scope: Scope) -> ModuleModel:
        model = self._models.get(id(scope))
        if model is not None:
            return model
        root = scope
        while root.parent is not None:
            root = root.parent
        model = self._models.get(id(root))
        if model is None:
            for candidate in self.project.models():
                self._models[id(candidate.scopes[0])] = candidate
            model = self._models[id(root)]
        self._models[id(scope)] = model
        return model

    def _near(self, model: ModuleModel, scope: Scope) -> bool:
        """Whether code in ``scope`` can reach what ``model`` defines: it is in that module
        or in one within reach of it in the import graph (a module that imports neither it
        nor anything that does cannot call it, store into its objects or subclass it)."""
        other = self.model_of(scope)
        return other is model or self.project.near(model, other)

    def values(self, scope: Scope) -> ScopeValues:
        found = self._values.get(id(scope))
        if found is None:
            found = self._values[id(scope)] = ScopeValues(self, scope, self.model_of(scope))
        return found

    def class_of(self, scope: Scope) -> ClassFacts | None:
        """The class a method belongs to."""
        if scope.class_name is None:
            return None
        found = self._class_of.get(id(scope))
        if found is None:
            model = self.model_of(scope)
            qualname = scope.qualname.rsplit(".", 1)[0]
            found = next((c for c in model.classes.values() if c.qualname == qualname), model.classes.get(scope.class_name))
            if found is not None:
                self._class_of[id(scope)] = found
        return found

    def methods(self, cls: ClassFacts, model: ModuleModel) -> list[Scope]:
        return self._functions_by(self._owned, model, _owner).get(cls.qualname, [])

    def functions_named(self, model: ModuleModel, name: str) -> list[Scope]:
        """The functions (and methods) of ``model`` called ``name``, in source order."""
        return self._functions_by(self._named, model, _name).get(name, [])

    @staticmethod
    def _functions_by(table: dict, model: ModuleModel, key: Callable[[Scope], str]) -> dict[str, list[Scope]]:
        """The functions of ``model`` by ``key``, in source order, kept in ``table``."""
        found = table.get(id(model))
        if found is None:
            found = table[id(model)] = {}
            for scope in model.scopes:
                if scope.is_function:
                    found.setdefault(key(scope), []).append(scope)
        return found

    def model_of_class(self, cls: ClassFacts) -> ModuleModel | None:
        return self.model_of(cls.scope) if cls.scope is not None else None

    def method(self, cls: ClassFacts, name: str, depth: int = 0) -> tuple[Scope, ModuleModel] | None:
        """``name`` on ``cls`` or the first of its bases that defines it."""
        model = self.model_of_class(cls)
        if model is None:
            return None
        for scope in self.methods(cls, model):
            if scope.name == name:
                return scope, model
        if depth < 6:
            for base in self.bases(cls):
                found = self.method(base, name, depth + 1)
                if found is not None:
                    return found
        return None

    def bases(self, cls: ClassFacts) -> list[ClassFacts]:
        model = self.model_of_class(cls)
        found = []
        for base in cls.bases:
            symbol = self.symbol(model, base, cls.scope) if model is not None else None
            if symbol is not None and symbol.cls is not None:
                found.append(symbol.cls)
        return found

    def subclasses(self, cls: ClassFacts) -> list[ClassFacts]:
        home = self.model_of_class(cls)
        return [
            other for other in self._index().entries("by_base", cls.name)
            if other is not cls and (other.scope is None or self._near(home, other.scope)) and cls in self.bases(other)
        ]

    # -- names --
    def symbol(self, model: ModuleModel, text: str, scope: Scope | None = None, depth: int = 0) -> Target | None:
        """What a dotted name means at module level: a function or class of this module or
        of another project module it imports, or an external name."""
        memo = (id(model), text)
        if memo in self._symbols:
            return self._symbols[memo]
        self._symbols[memo] = None  # an import cycle: nothing, until it is known
        found = self._symbols[memo] = self._symbol(model, text, depth)
        return found

    def _symbol(self, model: ModuleModel, text: str, depth: int) -> Target | None:
        parts = text.split(".")
        for end in range(len(parts), 0, -1):
            head = ".".join(parts[:end])
            rest = parts[end:]
            if end == 1 and head in model.classes:
                found = self._member(Target(cls=model.classes[head], model=model), rest)
                if found is not None:
                    return found
            if end == 1:
                function = next((s for s in self.functions_named(model, head) if s.parent is model.scopes[0]), None)
                if function is not None:
                    return Target(function=function, model=model) if not rest else None
            if head in model.imports:
                target = model.imports[head]
                inside = self.project.module(target, model) if depth < 8 else None
                if inside is not None:
                    other, remainder = inside
                    name = ".".join([remainder, *rest] if remainder else rest)
                    if not name:
                        return Target(model=other)
                    return self.symbol(other, name, None, depth + 1) if depth < 8 else None
                return Target(external=canonical(".".join([target.lstrip("."), *rest])))
        return None

    def _member(self, target: Target, rest: list[str]) -> Target | None:
        if not rest:
            return target
        if target.cls is not None and len(rest) == 1:
            found = self.method(target.cls, rest[0])
            if found is not None:
                return Target(function=found[0], model=found[1], cls=target.cls)
        return None

    def name_atoms(self, values: ScopeValues, name: str) -> frozenset:
        """What a name holds where the function does not bind it: a parameter, ``self``,
        an enclosing function's local, a module global, a function, a class, an import."""
        scope = values.scope
        param = values.params.get(name)
        if param is None and name in values.locals and scope.is_function:
            return NOTHING  # a local not bound yet where it is read
        if param is not None:
            if param.index == 0 and scope.class_name and "staticmethod" not in scope.decorators:
                cls = self.class_of(scope)
                if cls is not None:
                    return frozenset({(TYPE, cls)})
            return frozenset({(PARAM, param, ())})
        parent = scope.parent
        while parent is not None and parent.parent is not None:  # closures
            outer = self.values(parent)
            if name in outer.locals:
                return outer.at(name, None)
            parent = parent.parent
        model = values.model
        module = model.scopes[0]
        if scope is not module and name in self.bound_names(model):
            return frozenset({(GLOBAL, model, name, ())})
        if scope is module and name in values.binds_of:
            return NOTHING
        symbol = self.symbol(model, name)
        if symbol is None:  # `from .config import CARD_URL`: a value, not a function or class
            return self.imported_value(model, name) if name in model.imports else NOTHING
        if symbol.function is not None:
            return frozenset({(FUNC, symbol.function)})
        if symbol.cls is not None:  # a project class: its attributes (``Method.SEND_MESSAGE``) are its own
            return frozenset({(TYPE, symbol.cls)})
        if symbol.external is not None:
            last = symbol.external.rsplit(".", 1)[-1].rsplit(":", 1)[-1]
            if last in CARD_PATH_CONSTANTS:
                return frozenset({(URL, symbol.external)})
        return NOTHING

    def bound_names(self, model: ModuleModel) -> frozenset[str]:
        """The names some bind of the module binds (module globals are among them)."""
        found = self._bound.get(id(model))
        if found is None:
            found = self._bound[id(model)] = frozenset(t for s in model.scopes for b in s.binds for t in b.targets)
        return found

    def module_names(self, model: ModuleModel) -> frozenset[str]:
        """The names the module's own top level binds (its globals, dotted ones included)."""
        found = self._globals_of.get(id(model))
        if found is None:
            found = self._globals_of[id(model)] = frozenset(t for b in model.scopes[0].binds for t in b.targets)
        return found

    def imported_value(self, model: ModuleModel, name: str, depth: int = 0) -> frozenset:
        """What a name imported from a project module holds there (re-exports followed)."""
        inside = self.project.module(model.imports[name], model)
        if inside is None:
            return NOTHING
        other, remainder = inside
        if not remainder or "." in remainder:
            return NOTHING
        if remainder in other.imports:
            return self.imported_value(other, remainder, depth + 1) if depth < 8 else NOTHING
        return self.global_atoms(other, remainder)

    def type_atoms(self, values: ScopeValues, annotation: str, origin: Fact | Param) -> frozenset:
        """What an annotation says a value is (a fixed-length tuple: what its elements are)."""
        atoms: set[tuple] = set()
        for text in annotation_types(annotation):
            qualified = self.qualify(values, text) if text else None
            if qualified is None:
                continue
            atoms.add((TYPE, qualified))
            if isinstance(qualified, ClassFacts):
                continue
            if qualified in CARD_TYPES:
                atoms.add((CARD, origin))
            elif qualified in apimodel.TASK_EVENT_TYPES:
                atoms.add((STATUS, origin))
        return frozen(atoms)

    def qualify(self, values: ScopeValues, text: str) -> str | ClassFacts | None:
        """A type named in an annotation: a project class or a canonical external name."""
        symbol = self.symbol(values.model, text)
        if symbol is None:
            return None
        if symbol.cls is not None and symbol.function is None:
            return symbol.cls
        return symbol.external

    # -- symbolic atoms made concrete --
    def resolve(self, atoms: Iterable[tuple], local: bool | str = False, depth: int = CALLER_DEPTH) -> frozenset:
        """``atoms`` with what is symbolic replaced by what it stands for. ``local``: a
        parameter stands for what its annotation or its name says, never for what its
        callers pass (what a call *is* does not depend on who calls its function);
        ``"own"``: the same, but what the object holds comes from wherever it was stored
        (what a function and its object make, without what its callers hand it)."""
        if isinstance(atoms, frozenset):
            for atom in atoms:  # (a loop, not any(): most answers hold nothing symbolic)
                if atom[0] in SYMBOLIC:
                    break
            else:
                return atoms
            memo = (atoms, local, depth)
            known = self._resolved.get(memo)
            if known is not None:
                return known
            result = self._resolve(atoms, local, depth)
            if not self._resolving:  # not inside a cycle's guard: final
                self._resolved[memo] = result
            return result
        return self._resolve(atoms, local, depth)

    def _resolve(self, atoms: Iterable[tuple], local: bool | str, depth: int) -> frozenset:
        found: set[tuple] = set()
        for atom in atoms:
            kind = atom[0]
            if kind not in SYMBOLIC:
                found.add(atom)
            elif kind == PARAM:  # (a field of what it holds may be symbolic: `executor.profile`, an attribute)
                found |= self.resolve(project_path(self.param_atoms(atom[1], local is not False, depth), atom[2]), local, depth)
            elif kind == ATTR:
                found |= self.resolve(project_path(self.attr_atoms(atom[1], atom[2], local is True, depth), atom[3]), local, depth)
            elif kind == GLOBAL:
                found |= self.resolve(project_path(self.global_atoms(atom[1], atom[2]), atom[3]), local, depth)
            elif kind == DERIVED:
                found |= derived(self.resolve([atom[1]], local, depth))
            elif kind == HASH:
                inner = self.resolve([atom[2]], local, depth)
                if any(a[0] in CARD_KINDS for a in inner):
                    found.add((DIGEST, atom[1]))
                    found |= derived(inner)  # a digest of card data is derived from that card
            elif kind == CARRY:
                found |= {a for a in self.resolve([atom[1]], local, depth) if a[0] in CARRIED}
            elif kind == BODY:
                found |= {(BODY_ROLE, a[1]) for a in self.resolve([atom[1]], local, depth) if a[0] == RPC}
            elif kind == CLIENT_OF:
                found |= {(CLIENT, a[1]) for a in self.resolve([atom[1]], local, depth) if a[0] == CARD}
            elif kind == HELD:
                found |= {(CARD, a[1]) for a in self.resolve([atom[1]], local, depth) if a[0] == CLIENT}
            elif kind == FETCH_OF:
                if any(a[0] == URL for a in self.resolve([atom[2]], local, depth)):
                    found.add((CARD, atom[1]))
            elif kind == COPY_OF:
                if any(a[0] in (CARD, DATA) for a in self.resolve([atom[2]], local, depth)):
                    found.add((CARD, atom[1]))
        return frozen(found)

    def param_atoms(self, param: Param, local: bool, depth: int) -> frozenset:
        memo = (id(param), local, depth)
        found = self._params.get(memo)
        if found is not None:
            return found
        if self.again(self._resolving, memo):
            return NOTHING
        self.begin(self._resolving, memo)
        try:
            found = self._param_atoms(param, local, depth)
        finally:
            final = self.end(self._resolving, memo)
        if final:
            self._params[memo] = found
        return found

    def _param_atoms(self, param: Param, local: bool, depth: int) -> frozenset:
        scope = self.scope_of_param(param)
        if scope is None:
            return NOTHING
        values = self.values(scope)
        atoms: set[tuple] = set()
        if param.annotation:
            atoms |= self.type_atoms(values, param.annotation, param)
        registered = self.registration(scope)
        if registered is not None and param is self.first_argument(scope):
            atoms.add((STATUS, registered))  # a consumer of task events: the status stream
        if atoms or param.star:
            return frozen(atoms)
        callers = self.callers(scope) if not local else []
        if callers and depth > 0:
            for call in callers:
                caller = self.values(call.scope)
                given = self.given(call, scope, param, caller)
                atoms |= self.resolve(given, False, depth - 1)
            return frozen(atoms)
        if is_card_name(param.name) and not (local is False and callers) and (
            not param.annotation or self.read_as_card(scope, param.name)
        ):  # (a type that is no card type, `dict` or `str`, says more than the name, unless read as a card)
            atoms.add((CARD, Guess(param)))
        return frozen(atoms)

    def read_as_card(self, scope: Scope, key: str, depth: int = 2) -> bool:
        """``key`` is read as an Agent Card in ``scope``: a field only a card has
        (``card["securitySchemes"]``, ``card.get("skills")``), there or in a project function
        it is handed to whole (``contract_hash(card)``)."""
        prefix = key + "."
        exprs = [*(b.value for b in scope.binds), *(t.expr for t in scope.tests), *(e.value for e in scope.exits),
                 *(c.args for c in scope.calls)]
        if any(k.startswith(prefix) and k[len(prefix):].split(".")[0] in CARD_OWN_FIELDS for e in exprs for k in e.keys):
            return True
        if depth <= 0:
            return False
        for call in scope.calls:
            target = self.project_function(call) if any(a.value.reads == {key} for a in call.arguments) else None
            if target is None or target.function is scope:
                continue
            offset = self.offset(call, target.function)
            for param in target.function.params:
                given = call.argument(param.index - offset, param.name)
                if given is not None and given.value.reads == {key} and self.read_as_card(target.function, param.name, depth - 1):
                    return True
        return False

    def first_argument(self, scope: Scope) -> Param | None:
        params = [p for p in scope.params if not p.star]
        if scope.class_name and "staticmethod" not in scope.decorators and params:
            params = params[1:]
        return params[0] if params else None

    def scope_of_param(self, param: Param) -> Scope | None:
        return self._index().scope_of_param.get(id(param))

    def given(self, call: Call, scope: Scope, param: Param, caller: ScopeValues) -> frozenset:
        """What ``call`` (which runs ``scope``) passes for ``param``, in the caller's terms."""
        offset = self.offset(call, scope)
        position = param.index - offset
        arg = call.keyword(param.name)
        if arg is None and position >= 0:
            arg = call.positional(position)
        if arg is None:
            if position == -1 and offset == 1 and self.bound(call, scope):
                return caller.receiver(call)
            return NOTHING
        return caller.expr(arg.value, call)

    def keyword_given(self, call: Call, name: str, caller: ScopeValues) -> frozenset:
        """What ``call`` passes as keyword ``name``: the argument, or that key of a
        ``**kwargs`` it passes on."""
        arg = call.keyword(name)
        if arg is not None:
            return caller.expr(arg.value, call)
        found: set[tuple] = set()
        for arg in call.arguments:
            if arg.star == "**":
                found |= project_path(caller.expr(arg.value, call), [name])
        return frozen(found)

    def offset(self, call: Call, scope: Scope) -> int:
        """How many of ``scope``'s leading parameters the call does not pass positionally:
        ``self`` of a method called on an object, or of a constructor."""
        if not scope.class_name or "staticmethod" in scope.decorators:
            return 0
        targets = self.targets(call)
        target = next((t for t in targets if t.function is scope), None)
        if target is None:
            return 1
        return 1 if target.bound or scope.name == "__init__" or "classmethod" in scope.decorators else 0

    def bound(self, call: Call, scope: Scope) -> bool:
        return any(t.function is scope and t.bound for t in self.targets(call))

    def attr_atoms(self, cls: ClassFacts, name: str, local: bool, depth: int) -> frozenset:
        """What ``self.<name>`` holds on instances of ``cls``: every store into it, in any
        method of the class, its bases and subclasses, or through any object known to be
        one, and what the class declares for it."""
        memo = (id(cls), name, local)
        found = self._attrs.get(memo)
        if found is not None:
            return found
        if self.again(self._resolving, memo):
            return NOTHING
        self.begin(self._resolving, memo)
        atoms: set[tuple] = set()
        try:
            family = [cls, *self.bases(cls), *self.subclasses(cls)]
            for member in family:
                model = self.model_of_class(member)
                if model is None:
                    continue
                declared = member.fields.get(name)
                if declared is not None and member.scope is not None:
                    annotation, bind = declared
                    holder = self.values(member.scope)
                    if annotation:
                        atoms |= self.type_atoms(holder, annotation, bind if bind is not None else member)
                    if bind is not None:
                        atoms |= self.resolve(holder.bind(bind), local, depth)
                for method in self.methods(member, model):
                    values = self.values(method)
                    for bind in values.binds_of.get(f"self.{name}", ()):
                        atoms |= self.resolve(values.bind(bind), local, depth)
                        if bind.annotation:
                            atoms |= self.type_atoms(values, bind.annotation, bind)
            for values, bind in self.stores_through_objects(cls, name):
                atoms |= self.resolve(values.bind(bind), local, depth)
        finally:
            final = self.end(self._resolving, memo)
        found = frozen(atoms)
        if final:
            self._attrs[memo] = found
        return found

    def record(self, call: Call) -> ClassFacts | None:
        """The project record class ``call`` constructs: a dataclass (attrs, a ``NamedTuple``),
        whose constructor takes its fields in the order they are declared."""
        target = next((t for t in self.targets(call) if t.cls is not None and t.function is None), None)
        if target is None or target.model is None:
            return None
        cls, imports = target.cls, target.model.imports
        made = any(imported_name(d, imports) in RECORD_DECORATORS for d in cls.decorators)
        return cls if made or any(imported_name(b, imports) in RECORD_BASES for b in cls.bases) else None

    def field_given(self, call: Call, name: str) -> Expr | None:
        """What ``call`` gives field ``name`` of the record it constructs, by keyword or by
        position (``None``: not a record's field, or left to its default)."""
        cls = self.record(call)
        if cls is None or name not in cls.fields:
            return None
        positional = record_positions(cls)
        given = call.keyword(name) or (call.positional(positional.index(name)) if name in positional else None)
        return given.value if given is not None and not any(a.star for a in call.arguments) else None

    def stores_through_objects(self, cls: ClassFacts, name: str) -> Iterator[tuple[ScopeValues, Bind]]:
        """``host.peers[name] = card`` where ``host`` is an instance of ``cls``."""
        home = self.model_of_class(cls)
        for bind, owner in self._index().entries("stores", name):
            if not self._near(home, bind.scope):
                continue
            values = self.values(bind.scope)
            held = values.at(owner, bind)
            if owner in values.params and not bind.scope.class_name:  # a helper handed the object
                held = self.resolve(held)
            if any(a[0] == TYPE and a[1] is cls for a in held):
                yield values, bind

    def names_stored_through_objects(self, cls: ClassFacts) -> set[str]:
        """The attributes code outside ``cls``'s methods stores on its instances (a helper
        handed ``self`` that sets ``self.frozen``)."""
        return {name for name in list(self._index().stores) if next(self.stores_through_objects(cls, name), None)}

    def global_atoms(self, model: ModuleModel, name: str) -> frozenset:
        """What a module-level name holds: its module-level binds and the stores into it
        (``_CARDS[url] = card``) in the module's functions."""
        memo = (id(model), name)
        found = self._globals.get(memo)
        if found is not None:
            return found
        if self.again(self._resolving, memo):
            return NOTHING
        self.begin(self._resolving, memo)
        atoms: set[tuple] = set()
        try:
            for scope in model.scopes:
                values = self.values(scope)
                if scope.is_function and name in values.locals:
                    continue
                for bind in values.binds_of.get(name, ()):
                    atoms |= self.resolve(values.bind(bind))
        finally:
            final = self.end(self._resolving, memo)
        found = frozen(atoms)
        if final:
            self._globals[memo] = found
        return found

    # -- calls --
    def targets(self, call: Call) -> list[Target]:
        """What ``call`` runs, as far as the project and the API model tell."""
        key = id(call)
        found = self._targets.get(key)
        if found is not None:
            return found
        if key in self._finding:  # asked while being found (a recursive call): nothing yet
            self.provisional += 1
            return []
        self._finding.add(key)
        provisional = self.provisional
        try:
            found = self._find_targets(call)
        finally:
            self._finding.discard(key)
        if self.provisional == provisional:  # not made of an answer given mid-question
            self._targets[key] = found
        return found

    def _find_targets(self, call: Call) -> list[Target]:
        values = self.values(call.scope)
        model = values.model
        callee = call.callee
        found: list[Target] = []
        if call.method == "super" or (call.receiver_call is not None and call.receiver_call.callee == "super"):
            cls = self.class_of(call.scope) if call.method != "super" else None
            if cls is not None:
                for base in self.bases(cls):
                    method = self.method(base, call.method)
                    if method is not None:
                        return [Target(function=method[0], model=method[1], cls=base, bound=True)]
            return []
        if callee is None and call.receiver_call is None:
            return []
        is_method = call.receiver is not None or call.receiver_call is not None
        if not is_method:  # `f(...)`, `Cls(...)`, `handler(...)`
            root = callee
            held = root in values.locals or root in values.params or (
                root in self.bound_names(model) and root not in model.imports and root not in model.classes
                and not any(s.parent is model.scopes[0] for s in self.functions_named(model, root))
            )
            if held:
                return self._held_targets(values, root, call)
            symbol = self.symbol(model, root, call.scope)
            if symbol is None and root in model.imports:  # a value another module holds (`from .trust import verify`)
                return self._held_targets(values, root, call)
            if symbol is None:
                named = self.functions_named(model, root)
                nested = next((s for s in named if s.parent is call.scope.parent), None)
                inner = next((s for s in named if s.parent is call.scope), None)
                chosen = inner or nested
                return [Target(function=chosen, model=model)] if chosen is not None else []
            return [self._constructor(symbol)] if symbol.cls is not None and symbol.function is None else [symbol]
        if callee and values.held_binds(callee, call) is not None:  # a record's field: `verify = held.verify; verify(card)`
            return self._held_targets(values, callee, call)
        # a method: on what?
        receiver = values.receiver(call)
        receiver_root = (call.receiver or "").split(".")[0]
        if call.receiver_call is None and receiver_root not in values.locals and receiver_root not in values.params:
            # `module.f()`, `Cls.method()`, `httpx.get()`: a dotted name at module level
            if not (receiver_root == "self" or self._bound_name(values, receiver_root)):
                symbol = self.symbol(model, callee, call.scope) if callee else None
                if symbol is not None:
                    if symbol.function is not None and symbol.cls is not None:
                        return [Target(function=symbol.function, model=symbol.model, cls=symbol.cls)]
                    if symbol.cls is not None:
                        return [self._constructor(symbol)]
                    return [symbol]
        known = self.resolve(receiver, local=True) or self.callers_class(receiver, CALLER_DEPTH)
        for atom in sorted(known, key=self._target_order):
            if atom[0] == TYPE:
                kind = atom[1]
                if isinstance(kind, ClassFacts):
                    method = self.method(kind, call.method)
                    if method is not None:
                        found.append(Target(function=method[0], model=method[1], cls=kind, bound=True))
                        continue
                    held = self.attr_atoms(kind, call.method, True, 2)  # `self.verify = create_signature_verifier(...)`
                    for value in sorted(held, key=self._target_order):
                        if value[0] == FUNC:
                            found.append(Target(function=value[1], model=self.model_of(value[1])))
                        elif value[0] == TYPE and isinstance(value[1], str):
                            found.append(Target(external=f"{value[1]}.__call__"))
                    if not held:
                        found.append(Target(cls=kind, external=f"local:{kind.name}.{call.method}"))
                else:
                    found.append(Target(external=f"{kind}.{call.method}"))
            elif atom[0] == CLIENT and not any(a[0] == TYPE for a in receiver):
                found.append(Target(external=f"a2a:Client.{call.method}"))
        return found

    def callers_class(self, atoms: frozenset, depth: int) -> frozenset:
        """``{(TYPE, cls)}`` when ``atoms`` is an untyped parameter (nothing known of it in
        its function) for which every call of its function in the project passes an
        instance of the one class ``cls``, of the project or a library (a ``hashlib``
        hash), or such a parameter of its own: its type, known from its callers as an
        annotation would make it known; for a field of it (``self._strategy`` in a helper
        handed ``self``), what the class holds there. Else nothing."""
        atom = next(iter(atoms)) if len(atoms) == 1 else None
        if depth <= 0 or atom is None or atom[0] != PARAM:
            return NOTHING
        if atom[2]:
            kind = self.callers_class(frozenset({(PARAM, atom[1], ())}), depth)
            return self.resolve(project_path(kind, atom[2]), local=True) if kind else NOTHING
        param = atom[1]
        scope = self.scope_of_param(param)
        if id(param) in self._passing:  # asked again while its callers are read: nothing yet
            self.provisional += 1
            return NOTHING
        if scope is None or param.annotation or param.star:
            return NOTHING
        passed: set[tuple] = set()
        self._passing.add(id(param))
        try:
            for call in self.callers(scope):
                given = self.given(call, scope, param, self.values(call.scope))
                kinds = {a for a in self.resolve(given, local=True) or self.callers_class(given, depth - 1) if a[0] == TYPE}
                if len(kinds) != 1:
                    return NOTHING
                passed |= kinds
        finally:
            self._passing.discard(id(param))
        return frozen(passed) if len(passed) == 1 else NOTHING

    def _held_targets(self, values: ScopeValues, root: str, call: Call) -> list[Target]:
        """What ``root(...)`` runs where ``root`` holds a value: a function, a class (``cls``),
        a callable an external call returned."""
        found = []
        held = values.at(root, call)  # (`def opened(cls, card): return cls(...)`: the class its callers hand it)
        for atom in sorted(self.resolve(held, local=True) or self.callers_class(held, CALLER_DEPTH), key=self._target_order):
            if atom[0] == FUNC:
                found.append(Target(function=atom[1], model=self.model_of(atom[1])))
            elif atom[0] == TYPE and isinstance(atom[1], ClassFacts) and root == "cls":  # `cls(...)`
                found.append(self._constructor(Target(cls=atom[1], model=self.model_of_class(atom[1]))))
            elif atom[0] == TYPE and isinstance(atom[1], str):  # `verify = create_signature_verifier(...); verify(card)`
                found.append(Target(external=f"{atom[1]}.__call__"))
        return found

    def _target_order(self, atom: tuple) -> tuple:
        """What a call may run, from the atoms of what it calls, in an order every run agrees
        on: a set of atoms iterates by their hashes, and an object's hash is its address, so
        a receiver that is both a ``python_a2a`` client and a client made from a card named
        one or the other first from run to run. Types and functions first, by name, then by
        module and place; then the rest by kind (a client made from a card is the fallback
        when no type is known)."""
        kind, value = atom[0], atom[1] if len(atom) > 1 else None
        if kind != TYPE and kind != FUNC:
            return (1, kind, "", 0)
        if isinstance(value, str):
            return (0, value, "", 0)
        scope = value if isinstance(value, Scope) else getattr(value, "scope", None)  # a function; a class's enclosing scope
        model = self.model_of(scope) if scope is not None else None
        return (0, getattr(value, "qualname", ""), model.path if model is not None else "", scope.index if scope is not None else 0)

    def _bound_name(self, values: ScopeValues, name: str) -> bool:
        model = values.model
        return name in self.module_names(model) and name not in model.imports

    def _constructor(self, symbol: Target) -> Target:
        init = self.method(symbol.cls, "__init__")
        if init is not None:
            return Target(function=init[0], model=init[1], cls=symbol.cls)
        return Target(cls=symbol.cls, model=symbol.model)

    def external_names(self, call: Call) -> list[str]:
        key = id(call)
        found = self._externals.get(key)
        if found is None:
            found = [t.external for t in self.targets(call) if t.external]
            if key in self._targets:  # the targets are final
                self._externals[key] = found
        return found

    def project_function(self, call: Call) -> Target | None:
        key = id(call)
        found = self._functions.get(key, False)
        if found is False:
            found = next((t for t in self.targets(call) if t.function is not None), None)
            if key in self._targets:
                self._functions[key] = found
        return found

    # -- roles: what a call means, whoever calls its function --
    def roles(self, call: Call) -> frozenset[str]:
        found = self._roles.get(id(call))
        if found is None:
            if id(call) in self.deciding:
                self.provisional += 1
                return NOTHING
            checkpoint()
            self.deciding.add(id(call))
            try:
                found = self._roles[id(call)] = frozen(self._roles_of(call))
            finally:
                self.deciding.discard(id(call))
            call.roles = found
            names = self.external_names(call)
            call.qualified = names[0] if names else None
        return found

    def _roles_of(self, call: Call) -> set[str]:
        values = self.values(call.scope)
        model = values.model
        names = self.external_names(call)
        roles: set[str] = set()
        for name in names:
            roles.update(role for role, pattern in QUALIFIED_PATTERNS.items() if pattern.match(name))
            if self._conditional_fetch(name, call, values):
                roles.add("card-fetch")
        raw = self._raw_name(call, model)
        for role, patterns in self.configured.items():
            if apimodel.name_patterns(patterns).match(*names, raw, call.callee):
                roles.add(role)
        project = self.project_function(call)
        if not roles and not names and project is None and model.is_a2a and self._counts_by_name(call, values):
            roles.add(METHOD_ROLES[call.method])
        wire = self.pending(call)
        if wire is not None:
            roles |= decide_wire(wire, lambda atoms: self.resolve(atoms, local=True))
        if project is None and not roles:
            roles |= self._rpc_helper_roles(call)
        if self._verifies(call, project, model, names):
            roles.add("verify-signature")
        if not roles and self._resolves_a_card(values, call):
            roles.add("card-fetch")  # `result = await registry.find_agent(s, task)` ... `AgentCard(**json.loads(...))`
            if not self.is_http(call):
                self._lookups.add(id(call))
        return roles

    def _counts_by_name(self, call: Call, values: ScopeValues) -> bool:
        """Whether the method's name alone gives ``call`` its role (``client.send_message(...)``
        on a receiver whose type is out of sight, not a function of this module): the name
        fallback, which applies only in a module that imports A2A code."""
        if call.method not in METHOD_ROLES:
            return False
        model = values.model
        defined_here = call.receiver in (None, "self", "cls") and bool(self.functions_named(model, call.method))
        typed = any(a[0] == TYPE for a in self.resolve(values.receiver(call), local=True))
        return not defined_here and not typed and (call.method not in apimodel.SDK_ONLY_METHODS or model.imports_sdk)

    def unread_by_name(self, model: ModuleModel) -> Call | None:
        """The first call of ``model`` that the name fallback would have read as an A2A call
        had the module imported A2A code (``--verbose`` says so: the remedy is to declare
        the wrapper in ``[tool.a2alint.api]``)."""
        if model.is_a2a:
            return None
        for call in model.calls:
            if (
                call.method in METHOD_ROLES and not self.roles(call) and not self.external_names(call)
                and self.project_function(call) is None and self._counts_by_name(call, self.values(call.scope))
            ):
                return call
        return None

    def handed_back_part(self, call: Call) -> str | None:
        """The key, in ``call``'s function, of the part of an argument that the project
        function ``call`` runs returns (``meta = metadata_of(body)``, which returns
        ``body["params"].setdefault("metadata", {})``: ``body.params.metadata``)."""
        target = self.project_function(call)
        if target is None:
            return None
        returned = self.values(target.function).returns()
        if len(returned) != 1 or next(iter(returned))[0] != PARAM:
            return None
        [(_, param, path)] = returned
        arg = call.argument(param.index - self.offset(call, target.function), param.name)
        if arg is None or not _copies(arg.value):
            return None
        return ".".join((next(iter(arg.value.reads)), *path))

    def handed_back(self, call: Call, position: int = 0, count: int = 1):
        """The argument of ``call`` that the project function it calls returns as it was
        given (``a2a_with_contract_hash(message, card)`` hands back ``message``, its
        metadata set): what the call's value is, for questions about its content. Of a
        function that returns ``count`` values, the ``position``-th
        (``payload, kw = self._apply_interceptors(method, payload, kw)``)."""
        target = self.project_function(call)
        if target is None:
            return None
        values = self.values(target.function)
        returned = values.returns() if count == 1 else values.returns_element(position, count)
        params = {a[1] for a in returned if a[0] == PARAM and not a[2]}
        if len(params) != 1:  # (what it sets on the object comes with it: the digest in its metadata)
            return None
        (param,) = params
        return call.argument(param.index - self.offset(call, target.function), param.name)

    def registry_lookup(self, call: Call) -> bool:
        """``call`` resolves a card through something that is not an HTTP request for it (an
        MCP tool, a registry client out of sight) whose result the function builds a card
        from: a re-read, but not one an HTTP validator could answer."""
        return "card-fetch" in self.roles(call) and id(call) in self._lookups

    def card_builders(self, scope: Scope) -> list[Call]:
        """The calls of ``scope`` that build a card (``AgentCard(**data)``), by the names
        they are imported by: resolving calls while a role is being decided would keep
        half-answers."""
        found = self._builders.get(id(scope))
        if found is None:
            imports = self.model_of(scope).imports
            found = self._builders[id(scope)] = [
                c for c in scope.calls
                if c.callee and (
                    CARD_BUILDERS.search(imports.get(c.callee.split(".")[0], "") + "." + c.callee)
                    or (c.callee.endswith("loads") and imported_name(c.callee, imports) in _PARSERS and parses_card_field(c))
                )
            ]
        return found

    def _resolves_a_card(self, values: ScopeValues, call: Call) -> bool:
        """``call`` reads something at run time from outside (it is awaited, or an HTTP read)
        that the function then builds a card from (``AgentCard(**data)``,
        ``AgentCard.model_validate(...)``): a registry lookup that resolves the card."""
        scope = call.scope
        builders = [c for c in self.card_builders(scope) if c.order > call.order]
        if not builders:
            return False
        reads = self.is_http(call) and (call.method or "").lstrip("_") in HTTP_READS  # (no values asked while deciding)
        if not (call.awaited or reads):
            return False
        held: set[str] = set()
        for bind in scope.binds:  # what holds the result, through the binds made from it
            if bind.order > call.order and (any(c is call for c in bind.value.calls) or bind.value.keys & held):
                held.update(bind.targets)
        for builder in builders:
            if any(c is call for a in builder.arguments for c in a.value.calls) or any(a.value.keys & held for a in builder.arguments):
                return True
        return False

    @staticmethod
    def _verifies(call: Call, project: "Target | None", model: ModuleModel, names: list[str]) -> bool:
        """A check of a card's signature: a fetch given ``signature_verifier=``, a jws/jwt
        check of the card's ``signatures``, or (out of sight, in A2A code) a function named
        for verifying a card or its signature (not ``create_signature_verifier``, which
        the API model knows makes one)."""
        if call.keyword("signature_verifier") is not None:
            return True
        if call.method in ("verify", "decode", "verify_jws", "decode_complete") and any(
            k.endswith(".signatures") for k in call.args.keys
        ):
            return True
        name = call.method or ""
        out_of_sight = project is None and not names
        return out_of_sight and model.is_a2a and name[:1].islower() and bool(apimodel.VERIFY_NAME.search(name))

    @staticmethod
    def _raw_name(call: Call, model: ModuleModel) -> str | None:
        root = (call.callee or "").split(".")[0]
        if root in model.imports and call.callee:
            return model.imports[root] + call.callee[len(root):]
        return None

    def _conditional_fetch(self, name: str, call: Call, values: ScopeValues) -> bool:
        """Calls that fetch only for some arguments (a URL rather than a card)."""
        if name in ("a2a:create_client", "a2a:ClientFactory.connect", "adk:RemoteA2aAgent"):
            if name == "adk:RemoteA2aAgent":
                arg = call.keyword("agent_card") or call.positional(1)
            else:
                arg = call.argument(0, "agent")
            if arg is None:
                return False
            atoms = self.resolve(values.expr(arg.value, call), local=True)
            if any(a[0] in (CARD, CLIENT) or (a[0] == TYPE and a[1] in CARD_TYPES) for a in atoms):
                return False
            if not atoms and arg.value.reads and all(is_card_name(k) for k in arg.value.reads):
                return False  # `connect(self.card)` whose origin is out of sight: a card, by its name
            return True
        if name == "fasta2a:A2AClient":
            flag = call.keyword("fetch_card")
            return flag is not None and flag.value.reads == {"True"} or (flag is not None and "True" in flag.value.keys)
        return False

    def wire(self, call: Call) -> Wire | None:
        """The HTTP request ``call`` makes, if it is one: its URL and body atoms."""
        if not self.is_http(call):
            return None
        method = (call.method or "").lstrip("_")
        values = self.values(call.scope)
        kind = ""
        if method in HTTP_READS:
            kind += "read"
        if method in HTTP_WRITES:
            kind += "write"
        if method in apimodel.HTTP_VERB_ARGUMENTS:
            verb_at, url_at = apimodel.HTTP_VERB_ARGUMENTS[method]
            verb = call.argument(verb_at, "method")
            text = (verb.text or "").upper() if verb is not None else ""
            kind = "read" if text == "GET" else "write" if text in ("POST", "PUT") else "readwrite"
            url = values.argument(call, url_at, "url")
        elif method == "urlopen":
            url = values.argument(call, 0, "url")
            if call.argument(1, "data") is not None:
                kind = "write"
            request = self.urllib_request(values, call)
            if request is not None:  # `urlopen(Request(url, data=body))`: the request says what it is
                url = values.argument(request, 0, "url")
                verb = request.argument(3, "method")
                posted = request.argument(1, "data") is not None or (verb is not None and (verb.text or "").upper() == "POST")
                kind = "write" if posted else "read"
                return Wire(kind, url, values.argument(request, 1, "data"))
        else:
            url = values.argument(call, 0, "url")
        if not kind:
            return None
        body: set[tuple] = set()
        for keyword in ("json", "data", "content", "body"):
            body |= self.keyword_given(call, keyword, values)
        if "write" in kind and method == "post":
            body |= values.argument(call, 1, "__body__")
        return Wire(kind, url, frozen(body))

    def pending(self, call: Call) -> Wire | None:
        """The :class:`Wire` of a call whose role waits on what it is given."""
        return self.wire(call) or self.signature_check(call)

    def signature_check(self, call: Call) -> Wire | None:
        """A JWS check by PyJWT or jwcrypto (``apimodel.JWS_CHECKS``), with the token it
        checks: a check of a card's signature when that token is made from the card (a
        push notification's JWT is not). A token object's ``verify()`` checks what was
        loaded into it before (``token.deserialize(f"{sig['protected']}.{payload}...")``)."""
        spec = self._jws_spec(call)
        if spec is None:
            return None
        token, key = spec
        if key is not None and call.argument(*key) is None:
            return None  # parsed, not verified
        values = self.values(call.scope)
        checked = set(values.argument(call, *token)) if token is not None else set()
        if call.receiver:
            checked |= values.receiver(call)
            for load in call.scope.calls:
                loaded = self._jws_spec(load) if load.order < call.order and load.receiver == call.receiver else None
                if loaded is not None and loaded[0] is not None:
                    checked |= values.argument(load, *loaded[0])
        return Wire("check", NOTHING, NOTHING, frozen(checked))

    def _jws_spec(self, call: Call) -> tuple | None:
        """What ``JWS_CHECKS`` says of the call, by what it names (an alias included)."""
        key = id(call)
        if key in self._jws:
            return self._jws[key]
        names = [n for n in self.external_names(call) if n.rsplit(".", 1)[-1] in _JWS_NAMES]
        found = next((JWS_CHECKS[p] for n in names for p in JWS_CHECKS if fnmatch.fnmatchcase(n, p)), None)
        if key in self._targets:  # the names are final
            self._jws[key] = found
        return found

    def urllib_request(self, values: ScopeValues, call: Call) -> Call | None:
        """The ``urllib.request.Request`` that ``urlopen(...)`` opens: built in its argument,
        or in the bind of the name it is given."""
        argument = call.argument(0, "url")
        if argument is None:
            return None
        candidates = list(argument.value.top)
        if not candidates and len(argument.value.reads) == 1:
            binds = values.sources(next(iter(argument.value.reads)), call)
            candidates = [b.direct for b in binds if b.direct is not None]
        return next((c for c in candidates if any(n.endswith("urllib.request.Request") for n in self.external_names(c))), None)

    def is_http(self, call: Call) -> bool:
        """``call`` is made on an HTTP client (``httpx.get``, a ``requests.Session``, an
        ``aiohttp.ClientSession``): by its type, else by the receiver's name."""
        key = id(call)
        found = self._http.get(key)
        if found is None:
            found = self._is_http(call)
            if key in self._targets:
                self._http[key] = found
        return found

    def _is_http(self, call: Call) -> bool:
        for name in self.external_names(call):
            if name.split(".")[0] in apimodel.HTTP_PACKAGES:
                return True
        if self.project_function(call) is not None or self.external_names(call):
            return False
        receiver = (call.receiver or "").rsplit(".", 1)[-1].lower()
        return bool(receiver) and any(word in receiver for word in ("http", "session", "requests", "httpx")) or (
            "client" in receiver and "a2a" not in receiver and (call.method or "") in ("get", "post")
        )

    def _rpc_helper_roles(self, call: Call) -> set[str]:
        """``self._rpc("SendMessage", params)`` on a helper out of sight: the method name
        passed as a literal to something named for making requests."""
        method = (call.method or "").lstrip("_")
        first = call.positional(0)
        if first is None or first.text not in RPC_ROLES or not apimodel.RPC_HELPER.search(method):
            return set()
        return {RPC_ROLES[first.text]}

    # -- results --
    def call_result(self, values: ScopeValues, call: Call) -> frozenset:
        roles = self.roles(call)
        atoms: set[tuple] = set()
        names = self.external_names(call)
        project = self.project_function(call)
        if "card-fetch" in roles:
            returned = next((RETURNS[n] for n in names if n in RETURNS), None)
            if returned is not None and returned not in CARD_TYPES:
                atoms |= {(TYPE, returned), (CLIENT, call)}
            elif any(n.endswith(("A2AClient", "A2AClient.__init__")) for n in names):
                atoms |= {(TYPE, names[0]), (CLIENT, call)}
            else:
                atoms.add((CARD, call))
            return frozen(atoms)
        wire = self.wire(call)
        if wire is not None and "read" in wire.kind:  # `httpx.get(url)` in a helper: a card when `url` is one
            atoms |= {(FETCH_OF, call, a) for a in wire.url if a[0] in SYMBOLIC}
        if roles & {"send", "get-task", "subscribe", "cancel"}:  # what the task's channel answers
            atoms.add((TASK if "send" in roles else STATUS, call))
            return frozen(atoms)
        if wire is not None:  # a response: nothing of what was sent comes back in it
            return frozen(atoms)
        if project is not None and project.function is not None:
            atoms |= self.instantiate_returns(values, call, project)
            if self.chain(call, "send"):  # a task submitted through a wrapper or a transport
                atoms.add((TASK, call))
            elif any(self.chain(call, role) for role in ("get-task", "subscribe")):
                atoms.add((STATUS, call))
            if project.cls is not None and project.function.name == "__init__":
                atoms |= {(TYPE, project.cls), *self.card_copy(values, call)}
            return frozen(atoms | self._with_value(values, call))
        target = next((t for t in self.targets(call) if t.cls is not None and t.function is None), None)
        if target is not None and not names:  # `Phase(observed)`: a state stays the state it is made from
            states = {a for a in values.arguments(call) if a[0] in (STATUS, STATE)}
            return frozenset({*atoms, (TYPE, target.cls), *states, *self.card_copy(values, call), *self._with_value(values, call),
                              *self.fields_kept(values, call)})
        if any(n in _SERIALISERS for n in names) or (call.method == "encode" and call.receiver_call is not None):
            body = values.arguments(call) if names else values.receiver(call)  # `json.dumps(payload).encode()`
            return frozenset({a for a in body if a[0] in (BODY_ROLE, BODY)} | derived(body))
        if any(n in _PARSERS for n in names):
            card = {(CARD, call)} if parses_card_field(call) else set()
            return frozenset(card | derived(values.arguments(call)))
        for name in names:
            atoms |= self._external_result(values, call, name)
        if not names:
            for atom in self.resolve(values.at(call.callee, call), local=True) if call.callee and not call.receiver else ():
                if atom[0] == FUNC:  # a function held in a name: `handler = self.on_update; handler(x)`
                    atoms |= self.instantiate_returns(values, call, Target(function=atom[1], model=self.model_of(atom[1])))
        if not atoms and not roles:
            capture = self.configured.get("contract-capture")
            name = call.method or ""
            captured = capture is not None and apimodel.name_patterns(capture).match(
                *names, self._raw_name(call, values.model), call.callee
            )
            if capture is None and project is None:  # a capture out of sight, by its name
                captured = any(fnmatch.fnmatchcase(name, p) for p in apimodel.CONTRACT_CAPTURE_NAMES)
            if captured:  # what it hashes is what the digest derives from
                return frozenset({(DIGEST, call), *derived(values.arguments(call))})
            if not names or call.method in _KEEPING or (call.method or "").lstrip("_") in _KEEPING:
                atoms |= self._opaque(values, call)
        return frozen(atoms)

    def fields_kept(self, values: ScopeValues, call: Call) -> set[tuple]:
        """What a record's construction gives its fields, each in its field
        (``Conn(card=card, client=client)``): whoever the record is handed to, its
        ``.client`` is that client. Resolved here, where what a parameter holds is what its
        annotation says (a card guessed by a parameter's name is left out)."""
        cls = self.record(call)
        if cls is None:
            return set()
        found: set[tuple] = set()
        for name in cls.fields:
            given = self.field_given(call, name)
            if given is not None:
                given_atoms = self.resolve(values.expr(given, call), local=True)
                found |= {(FIELD, name, a) for a in given_atoms if a[0] not in (TYPE, FUNC) and not guessed(a)}
        return found

    @staticmethod
    def card_copy(values: ScopeValues, call: Call) -> set[tuple]:
        """A project object made of a card's fields under their own names is that card in
        the project's own class: ``AgentCard(**data)``, ``PeerCard(name=d["name"],
        url=d["url"])`` (two fields at least); not a record that keeps some of them under
        names of its own (``Job(card_version=card.version)``)."""
        sources: set[tuple] = set()
        named = []
        for arg in call.arguments:
            if arg.star == "**":
                sources |= values.expr(arg.value, call)
            elif arg.keyword and len(arg.value.reads) == 1:
                base, _, field_name = next(iter(arg.value.reads)).rpartition(".")
                if base and field_name == snake(arg.keyword):
                    named.append(base)
        if len(named) >= 2:
            for base in set(named):
                sources |= values.at(base, call)
        copies = {(CARD, call)} if any(a[0] in (CARD, DATA) for a in sources) else set()
        return copies | {(COPY_OF, call, a) for a in sources if a[0] in SYMBOLIC}

    def _external_result(self, values: ScopeValues, call: Call, name: str) -> set[tuple]:
        last = name.rsplit(":", 1)[-1].rsplit(".", 1)[-1]
        if name in RETURNS:
            returned = RETURNS[name]
            if returned in CARD_TYPES:
                if last == "get_card":  # 0.3's `client.get_card()`: the card the client holds
                    return {(HELD, a) if a[0] in SYMBOLIC else (CARD, a[1]) for a in values.receiver(call) if a[0] in (CLIENT, *SYMBOLIC)}
                return {(CARD, call), (TYPE, returned)}
            return {(TYPE, returned), *self._clients_of(values, call)}
        if CARD_BUILDERS.search(name) or (last == "ParseDict" and any("AgentCard" in a.value.keys for a in call.arguments)):
            return {(CARD, call), *derived(values.arguments(call))}  # a card built from what was read
        if name.split(".")[0] in ("hashlib", "hmac"):
            inner = set(values.arguments(call)) | set(values.receiver(call))
            found = {(TYPE, name)} if last[:1].islower() and "." not in name.split(".", 1)[-1] else set()
            for atom in inner:
                if atom[0] == HASH or atom[0] == DIGEST:
                    found.add(atom)
                elif atom[0] in CARD_KINDS:
                    found |= {(DIGEST, call), (DATA, atom[1])}
                elif atom[0] in SYMBOLIC:
                    found.add((HASH, call, atom))
            return found
        if last in ("TaskState",) or name.endswith("TaskState"):  # `TaskState(observed)`: what it is made from
            return {(STATE, "?"), *(a for a in values.arguments(call) if a[0] in (TASK, STATUS) or a[0] in SYMBOLIC)}
        if last in _KEEPING:  # `d.get(k)` holds what `d` holds; `sorted(xs)` what `xs` holds
            held = values.receiver(call) if (call.receiver or call.receiver_call) else values.arguments(call)
            return {a for a in held if a[0] not in (TYPE, FUNC)}
        if last[:1].isupper():  # an SDK type: a request or message carries what it is given
            given = values.arguments(call)
            carried = {a for a in given if a[0] in CARRIED} | {(CARRY, a) for a in given if a[0] in SYMBOLIC}
            return {(TYPE, name), *self._clients_of(values, call), *carried}
        return set(self._opaque(values, call))

    def _clients_of(self, values: ScopeValues, call: Call) -> set[tuple]:
        """A client made from a card (``ClientFactory.create(card)``, ``A2AClient(http, agent_card=card)``)."""
        found: set[tuple] = set()
        for atom in values.arguments(call):
            if atom[0] == CARD:
                found.add((CLIENT, atom[1]))
            elif atom[0] in SYMBOLIC:
                found.add((CLIENT_OF, atom))
        return found

    def _opaque(self, values: ScopeValues, call: Call) -> frozenset:
        """What a call out of sight returns: something derived from what it is given."""
        atoms = set(values.arguments(call)) | set(values.receiver(call))
        method = (call.method or "").lstrip("_")
        if call.receiver_call is not None and method in IDENTITY_METHODS:  # `(await http.get(url)).json()`
            return frozen(a for a in values.receiver(call) if a[0] not in (TYPE, FUNC))
        if method in _KEEPING or call.callee in _KEEPING:
            return frozen(a for a in atoms if a[0] not in (TYPE, FUNC))
        return derived(atoms) | {a for a in atoms if a[0] == REST}  # `urljoin(base, "/message:stream")`

    def instantiate_returns(self, values: ScopeValues, call: Call, target: Target) -> frozenset:
        summary = self.summary(target.function)
        return self.instantiate(summary.returns, values, call, target.function)

    def instantiate_element(self, values: ScopeValues, call: Call, target: Target, position: int, count: int) -> frozenset:
        memo = ("element", id(target.function), position, count)
        atoms = self._elements.get(memo)
        if atoms is None:
            if self.again(self._resolving, memo):
                return NOTHING
            self.begin(self._resolving, memo)
            try:
                atoms = self.values(target.function).returns_element(position, count)
            finally:
                final = self.end(self._resolving, memo)
            if final:
                self._elements[memo] = atoms
        return self.instantiate(atoms, values, call, target.function)

    def instantiate(self, atoms: Iterable[tuple], values: ScopeValues, call: Call, function: Scope) -> frozenset:
        """``atoms`` of ``function`` in the terms of ``call``'s caller: each parameter
        replaced by what the call passes for it."""
        found: set[tuple] = set()
        for atom in atoms:
            found |= self._substitute(atom, values, call, function)
        return frozen(found)

    def _substitute(self, atom: tuple, values: ScopeValues, call: Call, function: Scope) -> set[tuple]:
        spend(function)
        kind = atom[0]
        if kind == PARAM:
            param = atom[1]
            if not any(p is param for p in function.params):
                return {atom}
            if param.star == "**" and atom[2]:  # `kwargs["json"]`: the keyword the call passes
                return set(project_path(self.keyword_given(call, atom[2][0], values), atom[2][1:]))
            if param.star == "**":  # `Message(..., **fields)`: every keyword no other parameter takes
                named = {p.name for p in function.params}
                extra = [a for a in call.arguments if a.star == "**" or (a.keyword and a.keyword not in named)]
                return {found for a in extra for found in values.expr(a.value, call)}
            return set(project_path(self.given(call, function, param, values), atom[2]))
        if kind in (HASH, FETCH_OF, COPY_OF):
            inner = self._substitute(atom[2], values, call, function)
            return {(kind, atom[1], i) for i in inner} if inner else set()
        if kind in (BODY, DERIVED, CLIENT_OF, HELD, CARRY):
            inner = self._substitute(atom[1], values, call, function)
            result = set()
            for i in inner:
                if i[0] in SYMBOLIC:
                    result.add(wrap(kind, i))
                else:
                    result |= self.resolve([(kind, i)])
            return result
        return {atom}

    # -- summaries --
    def summary(self, scope: Scope) -> Summary:
        found = self._summaries.get(id(scope))
        if found is not None:
            return found
        if id(scope) in self._summarising:
            return Summary()  # recursion: the fixed point is reached from the outside in
        self._summarising.add(id(scope))
        provisional = self.provisional
        try:
            values = self.values(scope)
            returns = values.returns() if scope.is_function else NOTHING
            found = Summary(returns=returns)
        finally:
            self._summarising.discard(id(scope))
        if self.provisional == provisional:  # not made of an answer given mid-question
            self._summaries[id(scope)] = found
        return found

    def effects(self, scope: Scope, role: str) -> list[tuple[tuple[Call, ...], Wire | None]]:
        """How ``scope`` plays ``role``: chains of calls down to the one that plays it,
        each with the :class:`Wire` that decides it when its callers' arguments do."""
        memo = ("effects", id(scope), role)
        found = self._effects.get(memo)
        if found is not None:
            return found
        if self.again(self._resolving, memo):
            return []
        checkpoint()
        self.begin(self._resolving, memo)
        chains: list[tuple[tuple[Call, ...], Wire | None]] = []
        try:
            for call in scope.calls:
                if role in self.roles(call):
                    chains.append(((call,), None))
                    continue
                wire = self.pending(call)
                if wire is not None and _symbolic(wire):
                    chains.append(((call,), wire))
                    continue
                functions = self.run_by(call)
                if not functions:
                    continue
                values = self.values(scope)
                # One chain says that the call plays the role, and one per distinct wire when
                # that waits on this function's callers: every path through a web of helpers
                # calling helpers would be exponentially many.
                plays = False
                waiting: set[Wire] = set()
                for function in functions:
                    for inner, inner_wire in self.effects(function, role):
                        if inner_wire is None:
                            if not plays:
                                chains.append(((call, *inner), None))
                                plays = True
                            continue
                        bound = self.bind_wire(inner_wire, values, call, function)
                        if _symbolic(bound):
                            if bound not in waiting:
                                waiting.add(bound)
                                chains.append(((call, *inner), bound))
                        elif not plays and role in decide_wire(bound, lambda atoms: self.resolve(atoms, local=True)):
                            chains.append(((call, *inner), None))
                            plays = True
        finally:
            final = self.end(self._resolving, memo)
        if final:
            self._effects[memo] = chains
        return chains

    def bind_wire(self, wire: Wire, values: ScopeValues, call: Call, function: Scope) -> Wire:
        """``wire`` of ``function`` in the terms of ``call``'s caller."""
        return Wire(
            wire.kind,
            self.instantiate(wire.url, values, call, function),
            self.instantiate(wire.body, values, call, function),
            self.instantiate(wire.checked, values, call, function) if wire.checked else NOTHING,
        )

    def chain(self, call: Call, role: str) -> list[Call]:
        """The calls from ``call`` down to the one that plays ``role``, through project
        functions: ``[call]`` when it plays it itself, ``[]`` when nothing does."""
        memo = (id(call), role)
        found = self._chains.get(memo)
        if found is None:
            found = self._chain(call, role)
            if not self.deciding and not self._resolving:  # an answer given mid-cycle is not final
                self._chains[memo] = found
        return found

    def _chain(self, call: Call, role: str) -> list[Call]:
        if role in self.roles(call):
            return [call]
        for function in self.run_by(call):
            for inner, wire in self.effects(function, role):
                if wire is None:
                    return [call, *inner]
                values = self.values(call.scope)
                bound = self.bind_wire(wire, values, call, function)
                if role in decide_wire(bound, lambda atoms: self.resolve(atoms, local=True)):
                    return [call, *inner]
        return []

    def run_by(self, call: Call) -> list[Scope]:
        """The project functions ``call`` runs (not its own function, when it recurses): the
        one it calls, and the ``__aenter__``/``__enter__`` a ``with`` runs on what it returns."""
        target = self.project_function(call)
        found = [target.function] if target is not None and target.function is not call.scope else []
        entered = self.entered(call)
        return found + [entered] if entered is not None and entered is not call.scope else found

    def _with_value(self, values: ScopeValues, call: Call) -> frozenset:
        """What ``async with Session(url) as client`` gives ``client``: what the class's
        ``__aenter__`` returns (a call whose object a ``with`` enters is only seen there)."""
        entered = self.entered(call)
        return self.instantiate_returns(values, call, Target(function=entered, model=self.model_of(entered))) if entered else NOTHING

    def entered(self, call: Call) -> Scope | None:
        """``async with Session(url) as client``: the ``__aenter__`` (``__enter__``) of the
        project class ``call`` makes, which gives the ``with`` its value."""
        entering = self._entering.get(id(call.scope))
        if entering is None:
            entering = self._entering[id(call.scope)] = frozenset(
                id(b.direct) for b in call.scope.binds if b.kind == "with" and b.direct is not None
            )
        if id(call) not in entering:
            return None
        for target in self.targets(call):
            if target.cls is not None:
                for name in _ENTERS:
                    found = self.method(target.cls, name)
                    if found is not None:
                        return found[0]
        return None

    # -- callers --
    def callers(self, scope: Scope) -> list[Call]:
        """The calls, anywhere in the project, that run ``scope``."""
        model = self.model_of(scope)
        names = [scope.name]
        if scope.name == "__init__":
            cls = self.class_of(scope)
            names = [cls.name] if cls is not None else []
            names += ["cls", "super", "__init__"]
        elif scope.name in _ENTERS:  # `async with Session(url) as client`: the constructor's call
            cls = self.class_of(scope)
            names = [cls.name] if cls is not None else []
        before = len(self.project.models())
        self.project.importers(model, names)
        loaded = self.project.models()
        if len(loaded) != before:
            for candidate in loaded:
                self._models[id(candidate.scopes[0])] = candidate
        known = self._callers.get(id(scope))
        if known is not None and known[0] == len(loaded):
            return known[1]  # asked before, and no module was loaded since
        found = [
            call for name in names for call in self._nearby(model, "calls", name)
            if any(t.function is scope for t in self.targets(call)) or self.entered(call) is scope
        ]
        if not self.deciding and not self._resolving:
            self._callers[id(scope)] = (len(loaded), found)
        return found

    def _nearby(self, model: ModuleModel, table: str, name: str) -> list[Call]:
        """The calls of the loaded modules within reach of ``model`` that the index's
        ``table`` (``calls``: by called name, ``passed``: by a name passed) files under
        ``name``; kept until another module is loaded."""
        index = self._index()
        loaded = len(self.project.models())
        memo = (id(model), table, name)
        known = self._near_calls.get(memo)
        if known is not None and known[0] == loaded:
            return known[1]
        entries = getattr(index, table).get(name)
        if not entries:
            return []
        near = self.project.near_ids(model)
        if near is None:
            chosen = list(entries.values())
        elif len(entries) <= len(near):
            chosen = [entry for key, entry in entries.items() if key in near]
        else:  # (in the order the modules were loaded)
            chosen = sorted((entries[key] for key in near if key in entries), key=lambda entry: entry[0])
        found = [call for _, calls in chosen for call in calls]
        self._near_calls[memo] = (loaded, found)
        return found

    def registration(self, scope: Scope) -> Call | None:
        """A call that registers ``scope`` to receive a task's events: passed to a send or
        subscribe, or as a consumer (``add_event_consumer``, ``consumers=[...]``)."""
        if id(scope) in self._registrations:
            return self._registrations[id(scope)]
        self._registrations[id(scope)] = None
        found = None
        if scope.is_function:
            model = self.model_of(scope)
            for call in self._nearby(model, "passed", scope.name):
                consumer = call.method in ("add_event_consumer", "ClientFactory", "create", "connect", "consume") or any(
                    a.keyword in ("consumers", "consumer", "on_event", "callback") for a in call.arguments
                )
                if not (consumer or self.roles(call) & {"send", "subscribe"}):
                    continue
                values = self.values(call.scope)
                if any(a[0] == FUNC and a[1] is scope for a in self.resolve(values.arguments(call), local=True)):
                    found = call
                    break
        self._registrations[id(scope)] = found
        return found


def parses_card_field(call: Call) -> bool:
    """``json.loads(item["AgentCard"])``, ``json.loads(resp["Item"]["AgentCard"]["S"])``: the
    text parsed is a record's field named for the card type (how registries and
    directories keep a card), so what it gives is a card."""
    first = call.positional(0)
    if first is None:
        return False
    named = not CARD_FIELD_NAMES.isdisjoint(first.value.texts)  # `load(db)["agent_card"]`: no key path to read
    return named or any(CARD_FIELD in key.split(".")[1:] for key in first.value.reads)


#: What makes a class a record whose constructor takes its fields in order (dataclasses, attrs).
RECORD_DECORATORS = frozenset({
    "dataclasses.dataclass", "pydantic.dataclasses.dataclass", "attr.s", "attr.attrs", "attr.define", "attr.frozen",
    "attr.mutable", "attrs.define", "attrs.frozen", "attrs.mutable",
})
RECORD_BASES = frozenset({"typing.NamedTuple", "msgspec.Struct"})


def record_positions(cls: ClassFacts) -> list[str]:
    """The fields a record's constructor takes by position: those annotated, in order, up
    to a ``KW_ONLY`` marker, without class variables and those left out (``field(init=False)``)."""
    found = []
    for name, (annotation, default) in cls.fields.items():
        if not annotation or annotation.split("[")[0].endswith("ClassVar"):
            continue
        if annotation.endswith("KW_ONLY"):
            break
        if not (default is not None and default.direct is not None and default.direct.keyword("init") is not None):
            found.append(name)
    return found


def _the_call(expr: Expr) -> Call | None:
    """The call ``expr`` is, when it is nothing else (``await fetch()``)."""
    made_of_one = len(expr.top) == 1 and not (expr.reads or expr.derived or expr.derived_top or expr.texts)
    return expr.top[0] if made_of_one else None


def _copies(expr: Expr) -> bool:
    """``expr`` is one key read as it is (``card``, ``state.card``)."""
    return len(expr.reads) == 1 and not (expr.top or expr.derived or expr.derived_top or expr.texts)


def imported_name(callee: str, imports: dict[str, str]) -> str:
    """``callee`` by the name its root is imported as (``loads`` -> ``json.loads``)."""
    root = callee.split(".")[0]
    return imports.get(root, root) + callee[len(root):]


#: The methods a ``with`` statement runs to get its value.
_ENTERS = ("__aenter__", "__enter__")


def _owner(scope: Scope) -> str:
    return scope.qualname.rsplit(".", 1)[0]


def _name(scope: Scope) -> str:
    return scope.name


class _Index:
    """The loaded modules' calls, stores and classes, by the names a question starts from;
    a module is added once, when it is first loaded. Each table holds, per name, each
    module's entries by ``id(module)``, in the order the modules were loaded, with when
    it was loaded."""

    #: by called name, by a name passed as an argument, by the attribute of
    #: ``owner.attribute = ...`` (``(bind, owner)``), by a base class's name
    TABLES = ("calls", "passed", "stores", "by_base")

    def __init__(self) -> None:
        self.calls: dict[str, dict[int, tuple[int, list[Call]]]] = {}
        self.passed: dict[str, dict[int, tuple[int, list[Call]]]] = {}
        self.stores: dict[str, dict[int, tuple[int, list[tuple[Bind, str]]]]] = {}
        self.by_base: dict[str, dict[int, tuple[int, list[ClassFacts]]]] = {}
        self.scope_of_param: dict[int, Scope] = {}
        self._added: dict[int, int] = {}  # id(module) -> when it was loaded
        self._size = 0
        #: In an index made by :meth:`replacing`, the (table, name) whose modules it
        #: copied; the others' it shares with the index it was made from (None: owns all).
        self._own: set[tuple[str, str]] | None = None

    def update(self, models: list[ModuleModel]) -> None:
        if len(models) == self._size:
            return
        self._size = len(models)
        for model in models:
            if id(model) not in self._added:
                self._added[id(model)] = order = len(self._added) + 1
                for table, names in _index_entries(model).items():
                    for name, found in names.items():
                        self._modules(table, name)[id(model)] = (order, found)
                self._params(model, add=True)

    def replacing(self, old: ModuleModel | None, new: ModuleModel) -> "_Index":
        """This index with ``new`` loaded in place of ``old`` (a fixed text of that module):
        what a fresh index of the project with ``new`` in it holds, in the same order, with
        only the names of those two modules copied (a fixed file is checked again in its
        project: rebuilt, the index cost as much as the rest of the check). Used while this
        one is not updated (it shares the rest with it)."""
        other = _Index()
        for table in self.TABLES:
            setattr(other, table, dict(getattr(self, table)))
        other.scope_of_param, other._added, other._size, other._own = dict(self.scope_of_param), dict(self._added), self._size, set()
        order = other._added.pop(id(old), None)
        if order is None:  # not in this index yet: :meth:`update` adds ``new`` where a fresh index has it
            return other
        other._added[id(new)] = order
        removed, added = _index_entries(old), _index_entries(new)
        for table in self.TABLES:
            held = getattr(other, table)
            for name in {*removed[table], *added[table]}:
                found = added[table].get(name)
                modules = _replaced_in(held.get(name, {}), id(old), id(new), None if found is None else (order, found))
                if modules:
                    held[name] = modules
                    other._own.add((table, name))
                else:
                    del held[name]
        other._params(old, add=False)  # type: ignore[arg-type]
        other._params(new, add=True)
        return other

    def _modules(self, table: str, name: str) -> dict[int, tuple[int, list]]:
        """The modules ``table`` holds under ``name``, to be changed (copied first when they
        are shared with the index this one was made from)."""
        held = getattr(self, table)
        modules = held.get(name)
        if modules is None or (self._own is not None and (table, name) not in self._own):
            modules = held[name] = dict(modules or {})
            if self._own is not None:
                self._own.add((table, name))
        return modules

    def _params(self, model: ModuleModel, add: bool) -> None:
        for scope in model.scopes:
            for param in scope.params:
                if add:
                    self.scope_of_param[id(param)] = scope
                else:
                    self.scope_of_param.pop(id(param), None)

    def entries(self, table: str, name: str) -> Iterator:
        """What ``table`` holds under ``name``, module by module in the order they were
        loaded, with those of the modules a question on the way loads."""
        done: set[int] = set()
        while True:
            modules = getattr(self, table).get(name, {})
            pending = [key for key in modules if key not in done]
            if not pending:
                return
            for key in pending:
                done.add(key)
                yield from modules[key][1]


def _replaced_in(modules: dict[int, tuple], old: int, new: int, entry: tuple | None) -> dict[int, tuple]:
    """``modules`` (id(module) -> (when it was loaded, its entries), in that order) without
    module ``old``'s entries, with module ``new``'s ``entry`` (if any) where its order puts it."""
    if entry is not None and old in modules:  # (the common case: the same names in both)
        return {(new if key == old else key): (entry if key == old else held) for key, held in modules.items()}
    kept = {}
    for key, held in modules.items():
        if entry is not None and held[0] > entry[0]:
            kept[new], entry = entry, None
        if key != old:
            kept[key] = held
    if entry is not None:
        kept[new] = entry
    return kept


def _index_entries(model: ModuleModel) -> dict[str, dict[str, list]]:
    """What :class:`_Index` files of one module: table -> name -> its entries."""
    by_base: dict[str, list[ClassFacts]] = {}
    for cls in model.classes.values():
        for base in cls.bases:
            by_base.setdefault(base.rsplit(".", 1)[-1], []).append(cls)
    calls: dict[str, list[Call]] = {}
    passed: dict[str, list[Call]] = {}
    stores: dict[str, list[tuple[Bind, str]]] = {}
    for scope in model.scopes:
        for call in scope.calls:
            name = call.method if call.receiver or call.receiver_call else call.callee
            if name:
                calls.setdefault(name, []).append(call)
            for given in call.args.names | {k.split(".", 1)[1] for k in call.args.keys if k.startswith("self.") and k.count(".") == 1}:
                passed.setdefault(given, []).append(call)
        for bind in scope.binds:
            for target in bind.targets:
                owner, _, attribute = target.rpartition(".")
                if owner and (owner != "self" or not scope.class_name):  # (a method's own are its class's)
                    stores.setdefault(attribute, []).append((bind, owner))
    return {"calls": calls, "passed": passed, "stores": stores, "by_base": by_base}


def _symbolic(wire: Wire) -> bool:
    return any(a[0] in SYMBOLIC for a in (*wire.url, *wire.body, *wire.checked))
