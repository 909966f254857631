"""Flow analysis: the questions rules ask of a module's facts.

"Which names hold an Agent Card here?", "which values derive from this call?",
"does this value reach a hash?". Answers are computed once per scope from the
facts the single traversal recorded, and cached on the :class:`Flow`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Iterator

import libcst as cst

from a2alint.apimodel import HTTP_READS, METHOD_ROLES
from a2alint.model import Bind, Call, Expr, Fact, Frame, ModuleModel, Path, Scope, Test, dotted, prefixes

_CARD_NAME = re.compile(r"(^|_)card$")
CARD_TYPES = frozenset({"a2a:AgentCard", "python_a2a:AgentCard", "fasta2a:AgentCard"})


def is_card_name(key: str) -> bool:
    """``card``, ``agent_card``, ``self._peer_card``: names code gives to an Agent Card."""
    return bool(_CARD_NAME.search(key.rsplit(".", 1)[-1]))


def bind_call(bind: Bind) -> Call | None:
    """The call a bind's value *is* (``x = f()``, ``x = await f()``), if any."""
    value = bind.value.node
    inner = value.expression if isinstance(value, cst.Await) else value
    return next((c for c in bind.value.calls if c.node is inner), None)


def implements_api(scope: Scope) -> bool:
    """A function that implements an A2A call itself (an SDK transport, a thin wrapper
    named ``send_message`` or ``_send_task``): its callers are the client code to judge."""
    return scope.is_function and scope.name.lstrip("_") in METHOD_ROLES


def flow_of(model: ModuleModel) -> "Flow":
    """The module's one flow analysis, shared by every rule."""
    if model.flow is None:
        model.flow = Flow(model)
    return model.flow


# --- control flow ------------------------------------------------------------------------

TASK_EVENT_TYPES = frozenset(
    {"a2a:Task", "a2a:TaskStatusUpdateEvent", "a2a:TaskArtifactUpdateEvent", "a2a:StreamResponse", "a2a:ClientEvent"}
)
HELPER_DEPTH = 3
#: Roles of the calls that act on a task.
TASK_ROLES = frozenset({"send", "cancel", "subscribe", "get-task"})
#: What a readiness probe reads of an HTTP response (see Flow.is_probe).
STATUS_FIELDS = {"status_code", "status", "ok", "is_success", "is_error"}
_STATUS_CHECKS = {"raise_for_status"}


@dataclass(frozen=True)
class Anchor:
    """Why a point runs after the task was submitted: a node and a label for the reader."""

    node: cst.CSTNode
    label: str
    #: Call sites of same-module helpers on the way, innermost first.
    via: tuple[tuple[cst.CSTNode, str], ...] = ()
    #: ``node`` is the send itself (not a poll, a handler or a consumer registration).
    is_send: bool = False
    #: The function ``node`` is in.
    scope: Scope | None = None
    #: The point runs while the task is in flight: inside its stream or polling loop, or
    #: in a handler of its updates (not merely after an earlier send).
    live: bool = False

    def notes(self) -> list[tuple[cst.CSTNode, str]]:
        return [(self.node, self.label), *self.via]

    def path(self) -> list[cst.CSTNode]:
        """The anchor and the helper call sites, in execution order."""
        return [self.node, *(node for node, _ in reversed(self.via))]


@dataclass(frozen=True)
class Origin:
    """Where a value comes from: a fetch (maybe inside a helper), a parameter, a bind."""

    node: cst.CSTNode  # the fetch or helper call site, the parameter, or the bind
    key: str
    how: str  # "fetched", "received" or "set"
    #: The same-module helper whose call fetches it, if any.
    helper: str | None = None
    #: The bind that gives it the value, if it is not a parameter.
    bind: Bind | None = None

    def here(self, scope: Scope) -> str:
        """``fetched here``, ``fetched here, by load_card()``, ``set here, in __init__()``."""
        text = f"{self.how} here"
        if self.helper:
            text += f", by {self.helper}()"
        if self.bind is not None and self.bind.scope is not scope:
            text += f", in {self.bind.scope.name}()"
        return text


def exclusive(a: Fact, b: Fact) -> bool:
    """``a`` and ``b`` sit in different branches of one ``if`` or ``try``: never both run."""
    for (frame_a, branch_a), (frame_b, branch_b) in zip(a.path, b.path):
        if frame_a is not frame_b:
            return False
        if branch_a != branch_b:
            return frame_a.kind == "if" and {branch_a, branch_b} == {"body", "orelse"}
    return False


def leaves_before(first: Fact, second: Fact) -> bool:
    """``first`` sits in a branch that always returns or raises before ``second`` is reached."""
    shared = 0
    for (frame_a, branch_a), (frame_b, branch_b) in zip(first.path, second.path):
        if frame_a is not frame_b or branch_a != branch_b:
            break
        shared += 1
    for frame, branch in first.path[shared:]:
        if frame.exits.get(branch) in ("return", "raise"):
            return True
    return False


def runs_before(first: Fact, second: Fact) -> bool:
    """In one scope, can ``second`` run after ``first`` has run (same pass, or a later
    iteration of a loop around both)?"""
    if exclusive(first, second) or leaves_before(first, second):
        return False
    if first.order < second.order:
        return True
    return any(loop in second.loops for loop in first.loops)


def in_loop_body(fact: Fact, frame: Frame) -> bool:
    return (frame, "body") in fact.path


# --- expressions over card fields ----------------------------------------------------------

CAPABILITY_FIELDS = frozenset({"skills", "default_input_modes", "default_output_modes", "capabilities"})
CONTRACT_FIELDS = frozenset(
    {"protocol_version", "security_schemes", "security", "security_requirements", "supported_interfaces"}
)


def expr_keys(node: cst.CSTNode) -> set[str]:
    """Dotted keys read by one small expression (a condition's operand)."""
    found: set[str] = set()
    stack = [node]
    while stack:
        current = stack.pop()
        key = dotted(current)
        if key is not None:
            found.update(prefixes(key))
            if isinstance(current, (cst.Name, cst.Attribute)):
                continue
        stack.extend(current.children)
    return found


def field_of(key: str) -> str:
    return key.rsplit(".", 1)[-1]


#: ``TaskUpdater`` methods that move a task's state (all a2a-sdk versions), and the failing ones.
TASK_TRANSITIONS = frozenset(
    {"update_status", "complete", "failed", "reject", "submit", "start_work", "cancel", "requires_input", "requires_auth"}
)
FAILING_TRANSITIONS = frozenset({"failed", "reject", "cancel"})


def updater_transition(call: Call, methods: frozenset[str] = TASK_TRANSITIONS) -> bool:
    """``updater.failed()``: a ``TaskUpdater``-style call that moves a task's state."""
    return call.method in methods and "updater" in (call.receiver or "").lower()


def _is_hashlib(call: Call) -> bool:
    name = call.qualified or ""
    return name.startswith("hashlib.") or name.startswith("hmac.")


class Flow:
    """The flow analysis of one module, shared by every rule; answers are cached."""

    def __init__(self, model: ModuleModel) -> None:
        self.model = model
        self.api = model.api
        self._cards: dict[object, set[str]] = {}
        self._callees: dict[int, Scope | None] = {}
        self._chains: dict[tuple[int, str, int], list[Call]] = {}
        #: (class name or None, function name) -> the first such function of the module.
        self._functions: dict[tuple[str | None, str], Scope] = {}
        for scope in model.scopes:
            if scope.is_function:
                self._functions.setdefault((scope.class_name, scope.name), scope)
        self._callers: dict[int, list[Call]] | None = None
        self._module_names = {t for b in model.scopes[0].binds for t in b.targets}

    # -- values --
    def outlives_the_call(self, key: str) -> bool:
        """``key`` is kept beyond the function: on the object, or in a module-level name."""
        return key.startswith("self.") or key.split(".")[0] in self._module_names

    def derived(self, scope: Scope, keys: Iterable[str] = (), calls: Iterable[Call] = ()) -> dict[str, int]:
        """Keys whose value derives from ``keys`` or from the results of ``calls``, with the
        order of the first bind that made them so. Follows assignments, unpacking, ``for``
        targets, ``with ... as`` and comprehension variables to a fixed point."""
        seeds = set(keys)
        seed_calls = {id(c) for c in calls}
        found: dict[str, int] = {key: 0 for key in seeds}
        changed = True
        while changed:
            changed = False
            for bind in scope.binds:
                feeds = bind.value.reads_any(found.keys()) or any(id(c) in seed_calls for c in bind.value.calls)
                if not feeds:
                    continue
                for target in bind.targets:
                    if target not in found:
                        found[target] = bind.order
                        changed = True
        return found

    def card_keys(self, scope: Scope) -> set[str]:
        """Keys that hold an Agent Card (or a dict of one) in ``scope``."""
        if id(scope) in self._cards:
            return self._cards[id(scope)]
        env = self.api.env(scope)
        seeds = {key for key, kind in env.items() if kind in CARD_TYPES}
        seeds |= {p.name for p in scope.params if is_card_name(p.name)}
        card_binds: set[str] = set()
        other_binds: set[str] = set()
        for bind in scope.binds:
            is_card = self._binds_card(bind)
            for target in bind.targets:
                if is_card_name(target):
                    seeds.add(target)
                elif is_card:
                    card_binds.add(target)
                else:
                    other_binds.add(target)
        # A name also bound to something else (`resp` reused for GET /tasks/{id}) is not a card.
        seeds |= card_binds - other_binds
        for key in list(env):
            if is_card_name(key):
                seeds.add(key)
        for call in scope.calls:
            for key in (call.receiver, call.callee):
                if key and key.startswith("self.") and is_card_name(key.split(".")[1]):
                    seeds.add(".".join(key.split(".")[:2]))
        # Aliases: `c = card`, `data = card.model_dump()`.
        changed = True
        while changed:
            changed = False
            for bind in scope.binds:
                source = dotted(bind.value.node) if bind.value.node is not None else None
                if source in seeds and len(bind.targets) == 1 and bind.targets[0] not in seeds:
                    seeds.add(bind.targets[0])
                    changed = True
        self._cards[id(scope)] = seeds
        return seeds

    def is_card_value(self, node: cst.CSTNode, scope: Scope) -> bool:
        """``node`` is a whole card: ``card``, ``card.model_dump()``, ``MessageToDict(card)``."""
        key = dotted(node)
        if key is None and isinstance(node, cst.Call) and node.args:
            callee = dotted(node.func) or ""
            if callee.rsplit(".", 1)[-1] in ("MessageToJson", "vars", "asdict"):  # MessageToDict: see dotted()
                key = dotted(node.args[0].value)
        if key is None and isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
            if node.func.attr.value in ("model_dump_json", "json", "SerializeToString", "to_json"):
                key = dotted(node.func.value)
        if key is None and isinstance(node, cst.Attribute) and node.attr.value == "__dict__":
            key = dotted(node.value)
        return key is not None and key in self.card_keys(scope)

    def _binds_card(self, bind: Bind) -> bool:
        """The bind stores a card: a card-typed call, a fetch (``httpx.get(card_url).json()``),
        or a same-module helper that returns a fetched card."""
        call = bind_call(bind)
        if call is not None and self.api.type_of_call(call) in CARD_TYPES:
            return True
        for inner in bind.value.calls:
            if "card-fetch" in inner.roles:
                return True
            target = self.callee(inner)
            if target is not None and target is not bind.scope and self.returns_from(target, "card-fetch") is not None:
                return True
        return False

    def card_data(self, scope: Scope) -> set[str]:
        """Keys holding a card or anything derived from one (``contract = {...card...}``)."""
        key = ("data", id(scope))
        if key not in self._cards:
            self._cards[key] = set(self.derived(scope, self.card_keys(scope)))
        return self._cards[key]

    def reads_card(self, keys: set[str], scope: Scope) -> bool:
        return not keys.isdisjoint(self.card_data(scope))

    # -- sinks --
    def hash_sinks(self, scope: Scope) -> list[Call]:
        """Calls that compute a digest: ``hashlib.*``, ``hmac.*``, ``.update()`` of a hash
        object, and the built-in ``hash()``."""
        hash_objects = {
            target
            for bind in scope.binds
            if (call := bind_call(bind)) is not None and _is_hashlib(call)
            for target in bind.targets
        }
        return [
            call
            for call in scope.calls
            if _is_hashlib(call)
            or self.is_builtin(call, "hash")
            or (call.method in ("update", "digest_update") and call.receiver in hash_objects)
        ]

    def feeds(self, producer: Call, sinks: list[Call]) -> Call | None:
        """The sink ``producer``'s result reaches: directly, or through assignments."""
        for sink in sinks:
            if sink is not producer and any(inner is producer for inner in sink.args.calls):
                return sink
        flowing = self.derived(producer.scope, calls=[producer])
        for sink in sinks:
            if sink.order > producer.order and sink.args.reads_any(flowing.keys()):
                return sink
        return None

    @staticmethod
    def call_reads(call: Call) -> set[str]:
        """Keys a whole call expression reads: its arguments and those of calls in its
        receiver (``A2ACardResolver(http, url).get_agent_card()`` reads ``url``)."""
        keys = set(call.args.keys)
        for other in call.scope.calls:
            if call.order < other.order <= call.end:
                keys |= other.args.keys
        if call.receiver:
            keys.add(call.receiver)
        return keys

    @staticmethod
    def argument_texts(call: Call, hops: int = 2) -> list[str]:
        """Strings and keys that flow into ``call``'s arguments, through up to ``hops``
        assignments: ``message = Message(metadata={"contract_digest": d}); send(message)``."""
        texts = [*call.args.strings, *call.args.keys]
        wanted = set(call.args.keys)
        for _ in range(hops):
            feeding = [b for b in call.scope.binds if b.order < call.order and wanted.intersection(b.targets)]
            wanted = {k for b in feeding for k in b.value.keys}
            texts += [t for b in feeding for t in (*b.value.strings, *b.value.keys)]
        return texts

    def is_builtin(self, call: Call, name: str) -> bool:
        """A call of the built-in ``name``, not shadowed by an import or a definition."""
        return call.callee == name and name not in self.model.imports and name not in self.api.defined

    # -- control flow: submission points, guards, helpers of the same module --
    def callee(self, call: Call) -> Scope | None:
        """The function of this module (or method of the caller's class) ``call`` runs."""
        if id(call) in self._callees:
            return self._callees[id(call)]
        text = call.callee or ""
        qualified = call.qualified or ""
        if "." not in text:
            found = self._functions.get((None, text))
        elif call.receiver in ("self", "cls") and call.scope.class_name:
            found = self._functions.get((call.scope.class_name, call.method))
        elif qualified.startswith("local:"):  # a method of an instance of a class this module defines
            found = self._functions.get((qualified[len("local:") :].rpartition(".")[0], call.method))
        else:
            found = None
        self._callees[id(call)] = found
        return found

    def effective(self, call: Call, role: str) -> Call | None:
        """The call that plays ``role`` when ``call`` runs: itself, or one inside a helper."""
        found = self.chain(call, role)
        return found[-1] if found else None

    def chain(self, call: Call, role: str, depth: int = HELPER_DEPTH) -> list[Call]:
        """The calls from ``call`` down to the one that plays ``role``, through same-module
        helpers: ``[call]`` when it plays it itself, ``[]`` when nothing does."""
        key = (id(call), role, depth)
        if key in self._chains:
            return self._chains[key]
        found: list[Call] = []
        if role in call.roles:
            found = [call]
        elif depth > 0:
            target = self.callee(call)
            if target is not None and target is not call.scope:
                for inner in target.calls:
                    below = self.chain(inner, role, depth - 1)
                    if below:
                        found = [call, *below]
                        break
        self._chains[key] = found
        return found

    def playing(self, role: str) -> Iterator[tuple[Call, list[Call]]]:
        """Every call of the module that plays ``role``, itself or through helpers, with its chain."""
        for call in self.model.calls:
            found = self.chain(call, role)
            if found:
                yield call, found

    @staticmethod
    def helper_notes(chain: list[Call], does: str) -> list[tuple[cst.CSTNode, str]]:
        """A note for each helper call site of ``chain``: ``calls load(), which fetches the card``."""
        return [(call.node, f"calls {call.callee}(), which {does}") for call in chain[:-1]]

    def returns_from(self, scope: Scope, role: str) -> Call | None:
        """A ``role`` call whose result ``scope`` returns (``return await resolver.get_agent_card()``)."""
        for exit_ in scope.exits:
            if exit_.kind != "return":
                continue
            for call in scope.calls:
                source = self.effective(call, role)
                if source is None:
                    continue
                derived = self.derived(scope, calls=[call])
                if any(c is call for c in exit_.value.calls) or exit_.value.reads_any(derived.keys()):
                    return source
        return None

    def callers(self, scope: Scope) -> list[Call]:
        if self._callers is None:
            self._callers = {}
            for call in self.model.calls:
                target = self.callee(call)
                if target is not None:
                    self._callers.setdefault(id(target), []).append(call)
        return self._callers.get(id(scope), [])

    # -- where values come from --
    @staticmethod
    def bound_to(call: Call) -> str | None:
        """The name the result of ``call`` is stored in (``frozen = contract_hash(card)``)."""
        for bind in call.scope.binds:
            if len(bind.targets) == 1 and any(c is call for c in bind.value.calls):
                return bind.targets[0]
        return None

    def is_probe(self, fetch: Call) -> bool:
        """A raw GET of the card URL whose response is only checked for its status
        (``return r.status_code == 200``, ``r.raise_for_status()``) and kept nowhere: a
        readiness probe, which reads no card. An SDK fetch returns a card, never a probe."""
        scope = fetch.scope
        if fetch.method not in HTTP_READS:
            return False
        response = {t for b in scope.binds if any(c is fetch for c in b.value.calls) for t in b.targets}
        if not response or any(self.outlives_the_call(t) for t in response):
            return False
        exprs = [t.expr for t in scope.tests] + [e.value for e in scope.exits]
        exprs += [b.value for b in scope.binds if not any(c is fetch for c in b.value.calls)]
        exprs += [c.args for c in scope.calls if c is not fetch]
        checked = any(c.method in _STATUS_CHECKS for c in scope.calls if c.receiver in response)
        for expr in exprs:
            # what each read takes from the response: "" for the response itself
            used = [key[len(t) + 1 :].split(".")[0] for key in expr.keys for t in response if key == t or key.startswith(t + ".")]
            if used and not any(field in STATUS_FIELDS for field in used):
                return False  # the response itself is used: passed on, returned
            if any(field and field not in STATUS_FIELDS for field in used):
                return False  # read: .json(), .text, .content
            checked = checked or bool(used)
        return checked and all(c.method in _STATUS_CHECKS for c in scope.calls if c.receiver in response)

    def card_name(self, call: Call) -> str | None:
        """The name the card ``call`` fetches is stored in (not a client made from it)."""
        name = self.bound_to(call)
        if name is None or name not in self.card_keys(call.scope):
            return None
        return name if self.api.type_of_call(call) in (None, *CARD_TYPES) else None

    def class_scopes(self, scope: Scope) -> list[Scope]:
        """``scope``, then the other methods of its class."""
        if not scope.class_name:
            return [scope]
        return [scope] + [s for s in self.model.scopes if s.class_name == scope.class_name and s is not scope]

    def origin(self, scope: Scope, key: str, before: Fact, depth: int = 2) -> Origin | None:
        """Where ``key`` (a card, a client) gets the value it has at ``before``: the last bind of
        it that can run before, a parameter, or (for ``self.x``) a bind in another method."""
        binds = [b for b in scope.binds if key in b.targets and b.order < before.order and runs_before(b, before)]
        if binds:
            return self._bind_origin(binds[-1], key, depth)
        param = next((p for p in scope.params if p.name == key), None)
        if param is not None:
            return Origin(param.node, key, "received")
        if key.startswith("self."):
            elsewhere = [
                b for s in self.class_scopes(scope)[1:] for b in s.binds
                if key in b.targets and not placeholder(b.value.node)
            ]
            fetched = [o for o in (self._bind_origin(b, key, 0) for b in elsewhere) if o.how == "fetched"]
            if fetched or elsewhere:
                return (fetched or [self._bind_origin(elsewhere[0], key, 0)])[0]
        return None

    def _bind_origin(self, bind: Bind, key: str, depth: int) -> Origin:
        for call in bind.value.calls:
            chain = self.chain(call, "card-fetch")
            if chain:
                return Origin(call.node, key, "fetched", call.callee if len(chain) > 1 else None, bind)
        source = dotted(bind.value.node) if bind.value.node is not None else None
        if source and depth > 0 and len(bind.targets) == 1:  # `c = card`: where `card` comes from
            found = self.origin(bind.scope, source, bind, depth - 1)
            if found is not None:
                return found
        return Origin(bind.node, key, "set", bind=bind)

    def contract_capture(self, scope: Scope) -> Call | None:
        """What freezes the contract for ``scope``'s sends: a ``contract-capture`` call in it,
        one in a method of its class whose result is kept on ``self``, or a digest of
        contract fields in either."""
        for candidate in self.class_scopes(scope):
            captures = [c for c in candidate.calls if self.effective(c, "contract-capture")]
            if candidate is scope and captures:
                return next((c for c in captures if self.bound_to(c)), captures[0])
            stored = next((c for c in captures if _stored(candidate, c)), None)
            if stored is not None:  # frozen on the object for its sends
                return stored
            contract = self.derived(candidate, {k for b in candidate.binds for k in b.value.keys if field_of(k) in CONTRACT_FIELDS})
            if contract:
                sink = next((sink for sink in self.hash_sinks(candidate) if sink.args.reads_any(contract.keys())), None)
                if sink is not None:
                    return sink
        return None

    def status_call(self, scope: Scope) -> Call | None:
        """A call that reads the task's own status (``get_task``), in ``scope`` or a helper."""
        return next((c for c in scope.calls if self.effective(c, "get-task")), None)

    # -- submission --
    def sends(self, scope: Scope) -> list[Call]:
        return [c for c in scope.calls if c.roles & {"send", "subscribe"} or self.effective(c, "send")]

    def submission(self, fact: Fact, depth: int = HELPER_DEPTH) -> Anchor | None:
        """Why ``fact`` runs after a task was submitted, or None if it need not."""
        scope = fact.scope
        for frame, branch in fact.path:
            if frame.kind == "for" and branch == "body":
                stream = self._loop_iter_call(scope, frame, ("send", "subscribe"))
                if stream is not None:
                    return Anchor(stream.node, "submits the task and iterates its stream", is_send=True, scope=scope, live=True)
            if frame.kind in ("for", "while") and branch == "body":
                poll = next((c for c in scope.calls if in_loop_body(c, frame) and "get-task" in c.roles), None)
                if poll is not None:
                    return Anchor(poll.node, "polls the submitted task in this loop", scope=scope, live=True)
        for send in self.sends(scope):
            if send is not fact and send.node is not fact.node and runs_before(send, fact):
                if not any(c is send for c in getattr(fact, "args", Expr()).calls):
                    later = send.order > fact.order
                    label = "task submitted here" + (" (on an earlier iteration)" if later else "")
                    return Anchor(send.node, label, is_send=True, scope=scope)
        handler = self.task_handler(scope)
        if handler is not None and isinstance(handler.node, cst.Param):
            return handler
        if depth > 0:  # a caller after submission explains more than a name passed to a factory
            for caller in self.callers(scope):
                upstream = self.submission(caller, depth - 1)
                if upstream is not None:
                    via = ((caller.node, f"calls {scope.name}() after submission"), *upstream.via)
                    return Anchor(upstream.node, upstream.label, via, upstream.is_send, upstream.scope, upstream.live)
        return handler

    def _loop_iter_call(self, scope: Scope, frame: Frame, roles: tuple[str, ...]) -> Call | None:
        bind = next((b for b in scope.binds if b.kind == "for" and b.node is frame.node), None)
        if bind is None:
            return None
        for call in bind.value.calls:
            if call.roles.intersection(roles):
                return call
        iterated = set(bind.value.keys)
        for other in scope.binds:  # `stream = client.send_message(m)` ... `async for ev in stream`
            if other.order < bind.order and iterated.intersection(other.targets):
                for call in other.value.calls:
                    if call.roles.intersection(roles):
                        return call
        return None

    def task_handler(self, scope: Scope) -> Anchor | None:
        if not scope.is_function:
            return None
        env = self.api.env(scope)
        for param in scope.params:
            if env.get(param.name) in TASK_EVENT_TYPES:
                return Anchor(param.node, f"handles updates of a submitted task ({param.annotation})", scope=scope, live=True)
        for call in self.model.calls:
            passes_me = scope.name in call.args.names or f"self.{scope.name}" in call.args.keys
            if passes_me and (call.roles & {"send", "subscribe"} or call.method in ("add_event_consumer", "ClientFactory", "create", "connect")):
                if self.callee(call) is not scope:
                    return Anchor(call.node, f"registers {scope.name}() as a task-event consumer", scope=call.scope, live=True)
        return None

    # -- guards --
    def guards(self, fact: Fact) -> list[tuple[Test, bool]]:
        """Conditions ``fact`` runs under, with the truth value each must have."""
        scope = fact.scope
        found: list[tuple[Test, bool]] = []
        for frame, branch in fact.path:
            if frame.kind in ("if", "while") and branch in ("body", "orelse"):
                test = frame.test
                if test is not None:
                    found.append((test, branch == "body"))
        for guard in scope.guards:
            if guard.order >= fact.order or guard.test is None:
                continue
            guard_path, fact_path = guard.path, fact.path
            if guard.exit_kind in ("return", "raise"):  # leaves the function from inside a `with` too
                guard_path, fact_path = _without_withs(guard_path), _without_withs(fact_path)
            if guard_path == fact_path[: len(guard_path)]:
                if guard.exit_kind in ("continue", "break") and not fact.loops:
                    continue
                found.append((guard.test, guard.polarity))
        return found

    def verification(self, fact: Fact, sequential: bool = False) -> Call | None:
        """The signature check of a card that decides whether ``fact`` runs: in its
        condition, in the ``try`` around it, in a ``try`` before it whose handlers leave,
        or (``sequential``) a check that raises before it in the same block."""
        for test, _holds in self.guards(fact):
            found = next((c for c in test.expr.calls if "verify-signature" in c.roles), None)
            if found is not None:
                return found
        for check in reversed(fact.scope.calls):  # the closest check first
            if "verify-signature" not in check.roles or check.order >= fact.order:
                continue
            tries = [frame for frame, branch in check.path if frame.kind == "try" and branch == "body"]
            for frame in tries:
                if any(f is frame for f, _ in fact.path):
                    return check
                leaves = frame.exits.get("handlers") in ("return", "raise")
                if leaves and frame.end < fact.order and frame.path == fact.path[: len(frame.path)]:
                    return check
            if sequential and not tries and check.path == fact.path[: len(check.path)]:
                return check
        return None

    # -- card fields: skills, contract fields, digests --
    def skill_keys(self, scope: Scope) -> set[str]:
        """Keys holding a card's ``skills`` or values derived from them (ids, lookups)."""
        cache_key = ("skills", id(scope))
        if cache_key not in self._cards:
            cards = self.card_data(scope)
            read = {k for f in (*scope.binds, *scope.tests) for k in (f.value.keys if isinstance(f, Bind) else f.expr.keys)}
            seeds = {
                k for k in read if field_of(k) == "skills" and "." in k and (k.rsplit(".", 1)[0] in cards or is_card_name(k.rsplit(".", 1)[0]))
            }
            self._cards[cache_key] = set(self.derived(scope, seeds)) if seeds else set()
        return self._cards[cache_key]

    def absence(self, node: cst.CSTNode, holds: bool, scope: Scope, depth: int = HELPER_DEPTH) -> bool:
        """Whether ``node`` being ``holds`` means "a skill is missing from the card"."""
        skills = self.skill_keys(scope)
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
            return self.absence(node.expression, not holds, scope, depth)
        if isinstance(node, cst.BooleanOperation):
            return self.absence(node.left, holds, scope, depth) or self.absence(node.right, holds, scope, depth)
        if isinstance(node, cst.Comparison) and len(node.comparisons) == 1:
            target = node.comparisons[0]
            operator = target.operator
            if isinstance(operator, (cst.NotIn, cst.In)) and not expr_keys(target.comparator).isdisjoint(skills):
                return holds == isinstance(operator, cst.NotIn)
            if isinstance(operator, (cst.Is, cst.IsNot)) and dotted(target.comparator) == "None":
                if not expr_keys(node.left).isdisjoint(skills):
                    return holds == isinstance(operator, cst.Is)
            return False
        if isinstance(node, cst.Call):
            name = dotted(node.func)
            if name in ("any", "all") and not expr_keys(node).isdisjoint(skills):
                return not holds
            call = next((c for c in scope.calls if c.node is node), None)
            target = self.callee(call) if call is not None and depth > 0 else None
            if target is not None:
                returns = [e for e in target.exits if e.kind == "return" and e.value.node is not None]
                for exit_ in returns:
                    if self.absence(exit_.value.node, True, target, depth - 1):
                        return holds
                    if self.absence(exit_.value.node, False, target, depth - 1):
                        return not holds
            return False
        if isinstance(node, (cst.Name, cst.Attribute)) and dotted(node) in skills:
            return not holds  # `if not skill:` after a lookup
        return False

    def reads_contract(self, keys: set[str], scope: Scope) -> bool:
        """A card's contract field, version or signatures; a contract hash; or a digest or
        ETag that belongs to a card (named for one, or derived from card data)."""
        cards = self.card_data(scope)
        for key in keys:
            last = field_of(key).lower()
            base = key.rsplit(".", 1)[0] if "." in key else ""
            of_card = base in cards or is_card_name(base)
            if of_card and (last in CONTRACT_FIELDS or last in ("version", "signatures")):
                return True
            if "contract" in last:
                return True
            if any(w in last for w in ("digest", "etag", "fingerprint")) and ("card" in key.lower() or key in cards):
                return True
        return False


def placeholder(value: cst.CSTNode | None) -> bool:
    """``None``, ``{}``, ``[]``: nothing held yet."""
    if isinstance(value, cst.Name):
        return value.value == "None"
    return isinstance(value, (cst.Dict, cst.List)) and not value.elements


def _without_withs(path: Path) -> Path:
    return tuple((frame, branch) for frame, branch in path if frame.kind != "with")


def _stored(scope: Scope, capture: Call) -> bool:
    """A capture whose result is kept on ``self``, or handed back by a method that pins the
    card on ``self`` (``self.card = card`` ... ``return digest``); a comparison elsewhere, or
    a digest in a description, freezes nothing."""
    held = {t for bind in scope.binds if any(c is capture for c in bind.value.calls) for t in bind.targets}
    if any(t.startswith("self.") for t in held):
        return True
    pins = any(t.startswith("self.") and bind.value.reads_any(capture.args.keys) for bind in scope.binds for t in bind.targets)
    return pins and any(
        e.kind == "return" and (e.value.reads_any(held) or any(c is capture for c in e.value.calls)) for e in scope.exits
    )
