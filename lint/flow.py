"""The questions rules ask, answered once for all of them.

"Does this run after the task was submitted, and why?", "which card does this send
go out under?", "is this a cache, and does it expire?", "does this condition test
that a skill is missing?". Answers rest on where values come from
(:mod:`a2alint.values`, project-wide) and on the control paths of the facts
(:mod:`a2alint.control`); they are computed on demand and cached on the
:class:`Flow` of the module being checked.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, replace
from operator import attrgetter
from typing import Callable, Iterable, Iterator

import libcst as cst

from a2alint.apimodel import DEADLINE_CALLS, HTTP_READS, METHOD_ROLES, TASK_EVENT_TYPES, canonical
from a2alint.control import dominates, exclusive, in_loop_body, leaves_before, runs_before, without_withs
from a2alint.model import Argument, Bind, Call, ClassFacts, Exit, Expr, Fact, Frame, ModuleModel, Param, Scope, Test, dotted, is_endless, prefixes, snake, string_value
from a2alint.values import (
    CARD,
    CARD_KINDS,
    CLIENT,
    CONTRACT,
    CONTRACT_FIELDS,
    DIGEST,
    FIELD,
    SKILLS,
    STATE,
    STATUS,
    TASK,
    TYPE,
    Analysis,
    Guess,
    guessed,
    imported_name,
    is_card_name,
    kept_in_fields,
    ScopeValues,
)

__all__ = ["Anchor", "Flow", "LoopPlace", "Origin", "flow_of", "is_card_name", "runs_before", "exclusive", "leaves_before"]

#: Roles of the calls that act on a task.
TASK_ROLES = frozenset({"send", "cancel", "subscribe", "get-task"})
#: How many callers up "runs after submission" is looked for.
CALLER_DEPTH = 3
#: What a readiness probe reads of an HTTP response (see Flow.is_probe).
STATUS_FIELDS = {"status_code", "status", "ok", "is_success", "is_error"}
_STATUS_CHECKS = {"raise_for_status"}
#: ``TaskUpdater`` methods that move a task's state (all a2a-sdk versions), and the failing ones.
TASK_TRANSITIONS = frozenset(
    {"update_status", "complete", "failed", "reject", "submit", "start_work", "cancel", "requires_input", "requires_auth"}
)
FAILING_TRANSITIONS = frozenset({"failed", "reject", "cancel"})
UPDATER_TYPES = frozenset({"a2a:TaskUpdater"})
FAILED_STATES = frozenset({"failed", "canceled", "cancelled", "rejected"})
#: What of a card, besides its contract fields, changes with its contract (see Flow.reads_contract).
_CONTRACT_MARKS = CONTRACT_FIELDS | {"version", "signatures", "etag"}
#: Time sources an expiry check compares with.
_CLOCKS = ("time.time", "time.monotonic", ".now", ".utcnow", "time.perf_counter", "loop.time")
EXPIRY_WORDS = {"ttl", "expire", "expires", "expired", "expiry", "stale", "age", "refresh", "deadline"}
#: Packages whose decorators cache a function's results.
_CACHE_PACKAGES = frozenset({"functools", "cachetools", "asyncache", "aiocache", "async_lru"})
#: Methods that keep what they are given (a dict's, a list's, a cache library's).
STORE_METHODS = frozenset({"set", "put", "add", "append", "store", "save", "update", "setdefault", "insert", "push"})
#: Calls that make a task or an id on the client side, not one the server created.
LOCAL_ID_MINTS = frozenset({"a2a:utils.new_task", "a2a:utils.task.new_task", "a2a:types.Task", "uuid.uuid4", "uuid.uuid1"})
#: Methods that change the container they are called on (``routes.clear()``).
MUTATING_METHODS = STORE_METHODS | {"clear", "pop", "popitem", "remove", "discard", "extend", "delete"}
#: ``fetched_at``, ``loaded_ts``: when the card was read (compared with the clock).
_WHEN_WORDS = ({"fetched", "loaded", "cached", "updated", "stored"}, {"at", "ts", "time", "when"})


def flow_of(model: ModuleModel) -> "Flow":
    """The module's one flow analysis, shared by every rule (a project of its own when
    the engine did not give it one)."""
    if model.flow is None:
        from a2alint.project import Project

        model.flow = Flow(model, Analysis(Project.of(model)))
    return model.flow


def field_of(key: str) -> str:
    return key.rsplit(".", 1)[-1]


def _keys_read(scope: Scope) -> Iterator[str]:
    """Every key ``scope`` reads, in its longest form (``partner.endpoint``, not ``partner``)."""
    exprs = [*(b.value for b in scope.binds), *(t.expr for t in scope.tests), *(e.value for e in (*scope.exits, *scope.yields))]
    for call in scope.calls:
        exprs += [a.value for a in call.arguments]
        yield from call.func_keys
        if call.receiver is not None:
            yield call.receiver
    for expr in exprs:
        yield from expr.reads
        yield from expr.derived


def api_named(scope: Scope, role: str | None = None) -> bool:
    """A function named like the A2A call it makes (``send_message``, ``_send_task``);
    ``role``: like a call of that role (a ``send_message`` that also reads the card on
    the way is a send to its callers, not a card fetch)."""
    name = scope.name.lstrip("_")
    return scope.is_function and name in METHOD_ROLES and role in (None, METHOD_ROLES[name])


def in_sdk_client(scope: Scope, model: ModuleModel) -> bool:
    """A method of an A2A package's own client or transport class (``python_a2a``'s
    ``StreamingClient``, ``a2a``'s ``*Transport``): the API itself, not client code of it."""
    if not scope.class_name or not model.name:
        return False
    name = canonical(f"{model.name}.{scope.qualname.rsplit('.', 1)[0]}")
    return ":" in name and name.rsplit(".", 1)[-1].endswith(("Client", "Transport"))


@dataclass(frozen=True)
class Anchor:
    """Why a point runs after the task was submitted: a fact (of this module or another)
    and a label for the reader."""

    node: object
    label: str
    #: Call sites on the way from the anchor to the point, innermost first (in callers).
    via: tuple[tuple[object, str], ...] = ()
    #: ``node`` is a send (not a poll, a handler or a consumer registration).
    is_send: bool = False
    #: The function ``node`` is in.
    scope: Scope | None = None
    #: The point runs while the task is in flight: inside its stream or polling loop, in a
    #: handler of its updates, or deciding a call that acts on the submitted task (not
    #: merely after an earlier send).
    live: bool = False
    #: ``node`` runs before the point (an earlier send, the stream it iterates), not after it.
    before: bool = False

    def notes(self) -> list[tuple[object, str]]:
        return [(self.node, self.label), *self.via]

    def path(self) -> list[object]:
        """The anchor and the call sites, in execution order."""
        return [self.node, *(node for node, _ in reversed(self.via))]


@dataclass(frozen=True)
class Origin:
    """Where a value comes from: a fetch (maybe inside a helper), a parameter, a bind."""

    node: object  # the fetch or helper call site, the parameter, or the bind (a fact or a node)
    key: str
    how: str  # "fetched", "received" or "set"
    #: The project function whose call fetches it, if any.
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


@dataclass(frozen=True)
class LoopPlace:
    """The loop ``loop`` around ``inside``, as a report places it: where the loop starts,
    in this module or another one, also once that module keeps only its facts (a frame
    has no scope of its own: ``inside`` tells whose it is)."""

    loop: Frame
    inside: Fact


class Holding:
    """The keys of one function whose value has an atom ``want`` accepts (see
    :meth:`Flow.keys_holding`), each judged when it is first asked about: a question
    names a few keys of a function that reads dozens, and judging one works out its
    value. Iterating judges them all."""

    __slots__ = ("_flow", "_scope", "_want", "_guesses")

    def __init__(self, flow: "Flow", scope: Scope, want: Callable[[tuple], bool], guesses: bool) -> None:
        self._flow, self._scope, self._want, self._guesses = flow, scope, want, guesses

    def __contains__(self, key: object) -> bool:
        flow = self._flow
        return key in flow.candidate_keys(self._scope) and flow.key_holds(self._scope, key, self._want, self._guesses)

    def __iter__(self) -> Iterator[str]:
        return (key for key in self._flow.candidate_keys(self._scope) if key in self)

    def __bool__(self) -> bool:
        return any(True for _ in self)


class Flow:
    """The flow analysis of one module, on the project's value analysis."""

    def __init__(self, model: ModuleModel, analysis: Analysis) -> None:
        self.model = model
        self.analysis = analysis
        self._keys: dict[tuple, Holding] = {}
        self._holding: dict[tuple, bool] = {}
        self._candidates: dict[int, frozenset[str]] = {}
        self._sends: dict[int, tuple[Call, ...]] = {}
        self._origins: dict[int, tuple[frozenset[int], set]] = {}
        self._expr_atoms: dict[tuple[Expr, Fact], frozenset] = {}
        self._anchors: dict[tuple, Anchor | None] = {}
        self._loop_searches: dict[int, list[Test]] = {}
        self._records: dict[tuple, frozenset] = {}  # see _held
        self._state_fields: dict[tuple, bool] = {}  # see _state_field
        #: What a call does, as the project's analysis answers it: ``roles(call)``, its
        #: roles; ``chain(call, role)``, the calls from it down to the one that plays
        #: ``role`` (through project functions, in any module): ``[call]`` when it plays it
        #: itself, ``[]`` when nothing does. Bound here, not wrapped: the rules ask
        #: hundreds of thousands of times.
        self.roles = analysis.roles
        self.chain = analysis.chain

    def release(self) -> None:
        """Forget every answer (its model is released): they hold cycles back to it."""
        self.__dict__.clear()

    # -- places --
    def local_node(self, target: object) -> cst.CSTNode | None:
        """The node of this module a report's place is (``None`` for a place elsewhere)."""
        if isinstance(target, Guess):
            target = target.param
        if isinstance(target, Fact):
            return target.node if self.analysis.model_of(target.scope) is self.model else None
        if isinstance(target, LoopPlace):
            return target.loop.node if self.analysis.model_of(target.inside.scope) is self.model else None
        if isinstance(target, Param):
            scope = self.analysis.scope_of_param(target)
            return target.node if scope is not None and self.analysis.model_of(scope) is self.model else None
        return target  # type: ignore[return-value]

    def placeable(self, target: object, near: Fact) -> object:
        """``target`` as a report can place it: a node of another module (``near``'s, a
        fact of a caller) becomes that module's fact for it, or ``near`` itself."""
        if isinstance(target, (Fact, Param, LoopPlace)) or self.analysis.model_of(near.scope) is self.model:
            return target
        scope = near.scope  # (a module read from the cache keeps facts, not nodes)
        facts = (*scope.calls, *scope.binds, *scope.tests, *scope.exits)
        return next((fact for fact in facts if target is not None and fact.node is target), near)

    def locate_elsewhere(self, target: object):
        """Where a place in another module is: ``Related(path, line, column, "")``."""
        if isinstance(target, Guess):
            target = target.param
        if isinstance(target, Param):
            scope = self.analysis.scope_of_param(target)
            model = self.analysis.model_of(scope) if scope is not None else None
        else:
            model = self.analysis.model_of((target.inside if isinstance(target, LoopPlace) else target).scope)
        return self.analysis.project.locate(model, target)

    # -- what calls do (and ``roles``, ``chain``: see ``__init__``) --
    def effective(self, call: Call, role: str) -> Call | None:
        found = self.chain(call, role)
        return found[-1] if found else None

    def playing(self, role: str) -> Iterator[tuple[Call, list[Call]]]:
        """Every call of the module that plays ``role``, itself or through project functions."""
        for call in self.model.calls:
            found = self.chain(call, role)
            if found:
                yield call, found

    def callee(self, call: Call) -> Scope | None:
        """The project function ``call`` runs."""
        target = self.analysis.project_function(call)
        return target.function if target is not None else None

    def callers(self, scope: Scope) -> list[Call]:
        return self.analysis.callers(scope)

    def sends(self, scope: Scope) -> tuple[Call, ...]:
        """The calls of ``scope`` that submit a task (or subscribe to one), themselves or
        through project functions."""
        found = self._sends.get(id(scope))
        if found is None:
            found = self._sends[id(scope)] = tuple(c for c in scope.calls if self.chain(c, "send") or self.chain(c, "subscribe"))
        return found

    @staticmethod
    def helper_notes(chain: list[Call], does: str) -> list[tuple[object, str]]:
        """A note for each call site of ``chain`` on the way to the role: ``calls load(), which fetches the card``."""
        return [(call, f"calls {call.callee or call.method}(), which {does}") for call in chain[:-1]]

    def is_builtin(self, call: Call, name: str) -> bool:
        """A call of the built-in ``name``, not shadowed by an import or a definition."""
        return call.callee == name and name not in self.model.imports and not self.analysis.functions_named(self.model, name)

    # -- values --
    def atoms(self, key: str, fact: Fact | None, scope: Scope | None = None) -> frozenset:
        """What ``key`` holds at ``fact`` (anywhere in ``scope`` when ``fact`` is None),
        symbolic parts resolved."""
        scope = scope or fact.scope
        return self.analysis.resolve(self.analysis.values(scope).at(key, fact))

    def expr_atoms(self, expr: Expr, fact: Fact) -> frozenset:
        """What ``expr`` holds at ``fact``, symbolic parts resolved (the rules ask of the
        same expression once for each fetch or send near it)."""
        memo = (expr, fact)  # (the objects: an expression made for one question stays alive, its id unused)
        found = self._expr_atoms.get(memo)
        if found is None:
            found = self._expr_atoms[memo] = self.analysis.resolve(self.analysis.values(fact.scope).expr(expr, fact))
        return found

    def result(self, call: Call) -> frozenset:
        return self.analysis.resolve(self.analysis.values(call.scope).result(call))

    def keys_holding(self, scope: Scope, want, guesses: bool = True) -> "Holding":
        """Keys of ``scope`` (bound, parameters, read) whose value has an atom ``want``
        accepts, anywhere in the function."""
        memo = (id(scope), want, guesses)
        found = self._keys.get(memo)
        if found is None:
            found = self._keys[memo] = Holding(self, scope, want, guesses)
        return found

    def candidate_keys(self, scope: Scope) -> frozenset[str]:
        """The keys :meth:`keys_holding` judges: bound, parameters, read, and their prefixes."""
        found = self._candidates.get(id(scope))
        if found is None:
            candidates = {t for b in scope.binds for t in b.targets} | set(self.analysis.values(scope).params)
            for fact in (*scope.binds, *scope.tests, *scope.exits):
                expr = fact.value if isinstance(fact, (Bind, Exit)) else fact.expr
                candidates |= expr.reads | expr.derived
            for call in scope.calls:
                candidates |= {r for a in call.arguments for r in a.value.reads}
                if call.receiver:
                    candidates.add(call.receiver)
            found = self._candidates[id(scope)] = frozenset(p for key in candidates for p in prefixes(key))
        return found

    def key_holds(self, scope: Scope, key: str, want, guesses: bool = True) -> bool:
        """``key`` holds, somewhere in ``scope``, a value with an atom ``want`` accepts."""
        memo = (id(scope), key, want, guesses)
        found = self._holding.get(memo)
        if found is None:
            atoms = self.analysis.resolve(self.analysis.values(scope).at(key, None))
            found = self._holding[memo] = any(want(a) and (guesses or not guessed(a)) for a in atoms)
        return found

    def card_keys(self, scope: Scope, guesses: bool = True) -> "Holding":
        """Keys that hold a whole Agent Card (or a container of them) in ``scope``."""
        return self.keys_holding(scope, _is_card, guesses)

    def card_data(self, scope: Scope, guesses: bool = True) -> "Holding":
        """Keys holding a card or anything derived from one (``contract = {...card...}``)."""
        return self.keys_holding(scope, _is_card_data, guesses)

    def skill_keys(self, scope: Scope) -> "Holding":
        """Keys holding a card's ``skills`` or values derived from them (ids, lookups)."""
        return self.keys_holding(scope, _is_skills)

    def reads_card(self, keys: Iterable[str], scope: Scope, guesses: bool = True) -> bool:
        return any(self.key_holds(scope, key, _is_card_data, guesses) for key in keys)

    def holds(self, expr: Expr, fact: Fact, kinds: Iterable[str], guesses: bool = True) -> bool:
        """Whether the value of ``expr`` at ``fact`` has an atom of one of ``kinds``."""
        wanted = set(kinds)
        return any(a[0] in wanted and (guesses or not guessed(a)) for a in self.expr_atoms(expr, fact))

    def is_card_value(self, node: cst.CSTNode, fact: Fact, depth: int = 4) -> bool:
        """``node`` is a whole card where ``fact`` runs: ``card``, ``card.model_dump()``,
        ``MessageToDict(card)``, a copy of one; not a dict built from some of its fields."""
        key = dotted(node)
        if key is None and isinstance(node, cst.Call) and node.args:
            callee = dotted(node.func) or ""
            if callee.rsplit(".", 1)[-1] in ("MessageToJson", "vars", "asdict"):
                key = dotted(node.args[0].value)
        if key is None and isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
            if node.func.attr.value in ("model_dump_json", "json", "SerializeToString", "to_json"):
                key = dotted(node.func.value)
        if key is None and isinstance(node, cst.Attribute) and node.attr.value == "__dict__":
            key = dotted(node.value)
        return key is not None and self._whole(key, fact, depth)

    def _whole(self, key: str, fact: Fact, depth: int) -> bool:
        binds, _ = self.analysis.values(fact.scope).reaching(key, fact)
        if not binds:
            passed = self.passed_for(key, fact.scope)
            if passed:  # a helper's parameter is what its callers pass, judged there
                return depth > 0 and any(arg is not None and self._whole_argument(arg, call, depth - 1) for call, arg in passed)
            return any(a[0] == CARD for a in self.atoms(key, fact))
        for bind in binds:
            if bind.copy_of is not None and bind.copy_of != key:
                if depth <= 0 or not self._whole(bind.copy_of, bind, depth - 1):
                    return False
            elif bind.direct is not None:
                if not any(a[0] == CARD for a in self.result(bind.direct)):
                    return False
            else:
                return False
        return True

    def _whole_argument(self, arg: Argument, call: Call, depth: int) -> bool:
        """The argument ``call`` passes is a whole card: a key or a serialisation of one, or
        the result of a call that is one (``digest(resp.json())``)."""
        direct = next((c for c in arg.value.top if c.node is arg.value.node), None)
        if direct is not None and not self.is_card_value(direct.node, call, depth):
            return any(a[0] == CARD for a in self.result(direct))
        return self.is_card_value(arg.value.node, call, depth)

    def passed_for(self, key: str, scope: Scope) -> list[tuple[Call, Argument | None]]:
        """What each caller passes for the untyped parameter ``key`` of ``scope`` (None where
        a caller leaves it out); empty when ``key`` is no such parameter or nothing calls it."""
        param = self.analysis.values(scope).params.get(key)
        if param is None or param.annotation or param.star:
            return []
        passed = []
        for call in self.callers(scope):
            offset = self.analysis.offset(call, scope)
            passed.append((call, call.argument(param.index - offset, param.name)))
        return passed

    def derived(self, scope: Scope, keys: Iterable[str] = (), calls: Iterable[Call] = ()) -> dict[str, int]:
        """Keys whose value derives from ``keys`` or from the results of ``calls``, with the
        order of the first bind that made them so: through assignments, unpacking, ``for``
        targets, ``with ... as`` and comprehension variables, to a fixed point."""
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

    def fetched_origins(self, fetch: Call) -> frozenset[int]:
        """What the card ``fetch`` yields is known by (their ids): the fetch, the fetch
        inside the project function it calls, and the card that function builds from what
        it read."""
        found = self._origins.get(id(fetch))
        if found is None:
            origins = self._fetched_origins(fetch)  # kept with their ids, so that no id is reused meanwhile
            found = self._origins[id(fetch)] = (frozenset(map(id, origins)), origins)
        return found[0]

    def _fetched_origins(self, fetch: Call) -> set:
        chain = self.chain(fetch, "card-fetch")
        found = {fetch, *chain}
        found |= {a[1] for a in self.result(fetch) if a[0] in CARD_KINDS or a[0] == CLIENT}
        values = self.analysis.values(fetch.scope)
        for call in self.analysis.card_builders(fetch.scope):  # `listing = AgentCard(**json.loads(result.content[0].text))`
            if call.order > fetch.order and any(
                a[0] in CARD_KINDS and a[1] is fetch for a in self.analysis.resolve(values.arguments(call))
            ):
                found.add(call)
        return found

    def depends_on_fetch(self, expr: Expr, fact: Fact, fetch: Call) -> bool:
        """The value of ``expr`` at ``fact`` comes from the card ``fetch`` yields (not from
        the status of the response it came in: ``if r.status_code == 200``)."""
        read = expr.reads | expr.derived
        if read and not expr.calls and all(key.rsplit(".", 1)[-1] in STATUS_FIELDS for key in read):
            return False
        origins = self.fetched_origins(fetch)
        return any(c is fetch for c in expr.calls) or any(
            (a[0] in CARD_KINDS or a[0] == CLIENT) and id(a[1]) in origins for a in kept_in_fields(self.expr_atoms(expr, fact))
        )

    def card_use(self, call: Call, fetch: Call) -> str | None:
        """How ``call`` uses the card ``fetch`` yields: ``"client"``, made through a client
        built from it (``A2AClient(agent_card=card).send_message``, the client
        ``ClientFactory.connect(url)`` hands back), or ``"passed"``, given a value derived
        from it (the card, its URL, a transport); None when it uses nothing of it (a card
        only logged beside a client built from a configured URL)."""
        if call.receiver is not None and self.depends_on_fetch(Expr(reads={call.receiver}), call, fetch):
            return "client"
        if call.receiver is not None and self._built_with(call.receiver, call, fetch):
            return "client"
        receiver = call.receiver_call
        while receiver is not None:  # `factory.create(card).send_message(m)`
            if receiver is fetch or any(self.depends_on_fetch(a.value, call, fetch) for a in receiver.arguments):
                return "client"
            receiver = receiver.receiver_call
        if any(self.depends_on_fetch(a.value, call, fetch) and not self._passes_other_fields(call, a, fetch) for a in call.arguments):
            return "passed"
        return None

    def sends_to_another_peer(self, send: object, fetch: Call) -> bool:
        """``send`` goes through a client built from a card an earlier fetch read, and
        ``fetch`` reads another peer's card (see :func:`other_peer`), none of which ``send``
        uses: the card ``fetch`` yields is not the contract of the task ``send`` made (a
        hand-off to a second peer inside the first one's stream)."""
        if not isinstance(send, Call) or self.card_use(send, fetch):
            return False
        return any(
            earlier.order < send.order and self.chain(earlier, "card-fetch") and self.other_peer(earlier, fetch)
            and self.card_use(send, earlier)
            for earlier in send.scope.calls
        )

    def other_peer(self, first: Call, second: Call) -> bool:
        """Two card fetches of different peers: each reads a URL or argument the other does
        not, and all they share is the HTTP client they go through (``A2ACardResolver(http,
        a_url)``, ``A2ACardResolver(http, b_url)``). Two through one resolver, or built
        from one URL, are of one peer, whatever else they are given."""
        (first_keys, first_clients), (second_keys, second_clients) = self._peer_keys(first), self._peer_keys(second)
        clients = first_clients | second_clients  # (`fetch_card(http, b_url)` goes through the same client)
        first_keys, second_keys = first_keys - clients, second_keys - clients
        return bool(first_keys - second_keys) and bool(second_keys - first_keys) and not first_keys & second_keys

    def _peer_keys(self, fetch: Call) -> tuple[set[str], set[str]]:
        """The keys that name the peer ``fetch`` reads the card of: what the call and what
        the names it reads were made of are given (longest form only), less what is
        called; and the HTTP clients among them."""
        values = self.analysis.values(fetch.scope)
        binds = [b for key in call_reads(fetch) for b in values.sources(key, fetch)]  # `resolver = A2ACardResolver(http, url)`
        made = [fetch, *(b.direct for b in binds if b.direct is not None)]
        keys, clients = {k for b in binds if b.direct is None for k in b.value.keys}, set()
        for call in made:
            keys |= call_reads(call)
            steps = [call]
            while steps[-1].receiver_call is not None:
                steps.append(steps[-1].receiver_call)
            for step in steps:
                callee = step.callee or ""
                keys -= {k for k in keys if callee == k or callee.startswith(k + ".")}  # `A2ACardResolver` itself
                clients |= self._clients_given(step)
                function = self.callee(step)
                if function is not None:  # `fetch_card(http, url)`: what the helper makes its requests with
                    inner = {k for c in function.calls for k in self._clients_given(c)}
                    offset = self.analysis.offset(step, function)
                    for param in function.params:
                        arg = step.argument(param.index - offset, param.name) if param.name in inner else None
                        clients |= set(arg.value.keys) if arg is not None else set()
        return {k for k in keys if not any(other.startswith(k + ".") for other in keys)}, clients

    def _clients_given(self, call: Call) -> set[str]:
        """The HTTP client ``call`` makes its request with: the receiver of an HTTP call, the
        ``httpx_client`` an ``A2ACardResolver`` or a ``ClientConfig`` is given."""
        clients = {call.receiver} if call.receiver and self.analysis.is_http(call) else set()
        resolver = any(n.endswith("A2ACardResolver") for n in self.analysis.external_names(call))
        client = call.keyword("httpx_client") or (call.positional(0) if resolver else None)
        return clients | set(client.value.keys) if client is not None else clients

    def _passes_other_fields(self, call: Call, arg: Argument, fetch: Call) -> bool:
        """``arg`` holds the card ``fetch`` yields only in some of its fields (``partner =
        {"skills": card skills, "endpoint": configured}``), and the project function ``call``
        runs reads only other fields of the parameter it binds ``arg`` to: what it uses is
        the caller's ``partner["endpoint"]``, not everything ``partner`` holds. (A function
        nested in it is not read: a field it reads there goes unseen.)"""
        target = self.analysis.project_function(call)
        if target is None:
            return False
        scope = target.function
        param = next((p for p in scope.params if call.argument(p.index - self.analysis.offset(call, scope), p.name) is arg), None)
        if param is None or param.star:
            return False
        origins = self.fetched_origins(fetch)
        fields = set()
        for atom in self.expr_atoms(arg.value, call):
            if atom[0] == FIELD and (atom[2][0] in CARD_KINDS or atom[2][0] == CLIENT) and id(atom[2][1]) in origins:
                fields.add(atom[1])
            elif (atom[0] in CARD_KINDS or atom[0] == CLIENT) and id(atom[1]) in origins:
                return False  # the card itself, not one field of it
        read = {key[len(param.name) + 1 :].split(".")[0] for key in _keys_read(scope) if key == param.name or key.startswith(param.name + ".")}
        return bool(fields) and "" not in read and read.isdisjoint(fields)

    def _built_with(self, key: str, fact: Fact, fetch: Call) -> bool:
        """``key`` holds an object of a project class made with the card ``fetch`` yields
        (``link = PeerLink(card, url)``): what it sends goes out under that card."""
        binds = self.analysis.values(fact.scope).sources(key, fact)
        return bool(binds) and all(
            b.direct is not None and self._constructs(b.direct)
            and any(self.depends_on_fetch(a.value, b, fetch) for a in b.direct.arguments)
            for b in binds
        )

    def card_allows(self, call: Call, fetch: Call) -> bool:
        """``call`` runs only as a field of the card ``fetch`` yields allows (its transport,
        a capability): ``if card["preferredTransport"] != "JSONRPC": raise`` before it,
        ``if card.capabilities.streaming:`` around it; not a test that there is a card."""
        return any(
            self.depends_on_fetch(test.expr, test, fetch) and _says_of_card(self.expr_atoms(test.expr, test))
            for test, _holds in self.guards(call)
        )

    def yields_card(self, call: Call) -> bool:
        """``call`` hands back the card it fetches (not a task it sent with it), or a record
        that keeps it in a field (``return Conn(card=card, client=client)``)."""
        if "card-fetch" in self.roles(call):
            return True
        return any(a[0] in (CARD, CLIENT) for a in kept_in_fields(self.result(call))) and bool(self.chain(call, "card-fetch"))

    def fetch_in_sight(self, call: Call) -> Call | None:
        """The card fetch as ``call``'s function sees it: ``call`` when it yields the card,
        else the first call down its chain that does."""
        chain = self.chain(call, "card-fetch")
        for step in chain:
            if self.yields_card(step):
                return step
        return chain[-1] if chain else None

    def fetch_place(self, call: Call, chain: list[Call]) -> Call | None:
        """Where the card fetch down ``chain`` (from ``call``) is reported: the innermost call
        that fetches by itself, inside the helpers that hand its card back; or, when a
        helper's request fetches a card only by the URL its callers give it, the call in
        sight of the card."""
        for step, inner in zip(chain, chain[1:]):
            if self.calls_the_api(step, inner.scope):
                return step
        own = next((step for step in reversed(chain) if "card-fetch" in self.roles(step)), None)
        return own if own is not None else self.fetch_in_sight(call)

    def calls_the_api(self, call: Call, function: Scope) -> bool:
        """``call`` runs ``function``, a wrapper named like the card fetch it makes
        (``get_agent_card``), from outside its class: to its callers it is that API call,
        so they are where it fetches."""
        cls = self.analysis.class_of(function)
        return api_named(function, "card-fetch") and (cls is None or cls is not self.analysis.class_of(call.scope))

    def sightings(self, fetch: Call, depth: int = CALLER_DEPTH) -> list[tuple[Call, list[Call]]]:
        """The calls that see the card ``fetch`` yields, each with its chain down to it:
        ``fetch`` itself, then the callers (in any module) that the functions on the way hand
        the card back to, or store it on the object the caller hands them, up to ``depth``
        callers up, nearest first, in a fixed order."""
        found = [(fetch, self.chain(fetch, "card-fetch"))]
        seen = {id(fetch)}
        level = [fetch]
        for _ in range(depth):
            upper = []
            for below in level:
                for caller in self.callers(below.scope):
                    chain = self.chain(caller, "card-fetch")
                    if id(caller) in seen or not any(step is below for step in chain):
                        continue
                    if self.fetch_in_sight(caller) is not caller and not self.stores_card_on_handed(caller):
                        continue
                    if self.calls_the_api(caller, below.scope):
                        continue  # the wrapper's call is a fetch of its own
                    seen.add(id(caller))
                    upper.append((caller, chain))
            upper.sort(key=lambda pair: (self.analysis.model_of(pair[0].scope).path, pair[0].order))
            found += upper
            level = [caller for caller, _ in upper]
        return found

    def outlives_the_call(self, key: str, scope: Scope | None = None) -> bool:
        """``key`` is kept beyond the function: on the object, or in a module-level name."""
        root = key.split(".")[0]
        if root == "self":
            return not self._transient(key, scope)
        if scope is not None and root in self.analysis.values(scope).locals:
            return False
        model = self.analysis.model_of(scope) if scope is not None else self.model
        return root in self.analysis.module_names(model)

    def attribute_decides(self, key: str, scope: Scope) -> bool:
        """Code of ``scope``'s module (or its class's) reads the attribute ``key`` stores
        into (``self.seen``, ``link.seen``) where it can decide something (see
        :meth:`_decides_with`), or names it as text (``getattr(self, "seen")``): one only
        logged, shown, or read by nothing decides nothing."""
        name = field_of(key)
        models = {id(m): m for m in (self.analysis.model_of(s) for s in self.class_scopes(scope))}.values()
        for model in models:
            if name in model.strings:
                return True
            for other in model.scopes:
                held = {_up_to(read, name) for read in _keys_read(other) if name in read.split(".")[1:]}
                if held and self._decides_with(other, held, ()):
                    return True
        return False

    def _decides_with(self, scope: Scope, keys: set[str], calls: Iterable[Call], depth: int = CALLER_DEPTH) -> bool:
        """What ``keys`` or the results of ``calls`` hold, and what ``scope`` makes of it
        (through binds and the calls it is given to), reaches a condition that decides, a
        call on a task or into project code, a store the caller or a later call sees, or
        what ``scope`` hands back to a caller that does the same (or to one out of sight)."""
        held, made = set(keys), {id(c) for c in calls}
        reads = lambda expr: expr.reads_any(held) or any(id(c) in made for c in expr.calls)  # noqa: E731
        given = []
        changed = True
        while changed:
            changed = False
            for call in scope.calls:
                if id(call) not in made and (reads(call.args) or _at_or_below(call.receiver or "", held) or id(call.receiver_call) in made):
                    made.add(id(call))
                    given.append(call)
                    changed = True
            for bind in scope.binds:
                if reads(bind.value) and not held.issuperset(bind.targets):
                    held.update(bind.targets)
                    changed = True
        if any(self.reaches_a_task(c) or self.analysis.project_function(c) is not None for c in given):
            return True
        if any(reads(t.expr) and self.decides(t) for t in scope.tests):
            return True
        if any(reads(b.value) and any(self._shared(t, scope) for t in b.targets) for b in scope.binds):
            return True
        exits = [e for e in (*scope.exits, *scope.yields) if reads(e.value)]
        if any(e.kind not in ("return", "yield") for e in exits):
            return True
        callers = self.callers(scope) if exits else []
        return bool(exits) and (not callers or depth <= 0 or any(self._decides_with(c.scope, set(), (c,), depth - 1) for c in callers))

    def _transient(self, key: str, scope: Scope | None) -> bool:
        """``self.x`` is only read straight back where it is stored (``self._card = card``;
        ``card = self.get_card()``), and no code in reach calls that getter elsewhere."""
        cls = self.analysis.class_of(scope) if scope is not None and key.count(".") == 1 else None
        getter = cls.transient.get(key.split(".")[1]) if cls is not None else None
        if getter is None:
            return False
        model = self.analysis.model_of(scope)
        return all(
            call.receiver == "self" and call.scope.class_name == cls.name
            for call in self.analysis._nearby(model, "calls", getter)
        )

    def keeps(self, call: Call, kept: Iterable[str]) -> bool:
        """``call`` stores what ``kept`` holds beyond its function: a method of a lasting
        object given it (``self._cache.set(url, card)``), or a project function that
        stores the parameter it is given (``_cache_set(url, card)``)."""
        kept = set(kept)
        if not any(a.value.reads_any(kept) for a in call.arguments):
            return False
        target = self.analysis.project_function(call)
        if target is None:  # a cache object out of sight, by what its method does
            return call.method in STORE_METHODS and bool(call.receiver) and self.outlives_the_call(call.receiver, call.scope)
        function = target.function
        offset = self.analysis.offset(call, function)
        given = {
            p.name for p in function.params
            if (arg := call.argument(p.index - offset, p.name)) is not None and arg.value.reads_any(kept)
        }
        return any(
            bind.value.reads_any(given) and any(self.outlives_the_call(t, function) for t in bind.targets)
            for bind in function.binds
        )

    def card_attribute(self, call: Call) -> str | None:
        """The attribute of the project object ``call`` is made on that holds a card:
        ``conn.peer`` where the connection's class keeps ``self.peer = card``; None unless
        exactly one attribute of that one class does."""
        if not call.receiver:
            return None
        atoms = self.analysis.resolve(self.analysis.values(call.scope).receiver(call))
        classes = {a[1] for a in atoms if a[0] == TYPE and isinstance(a[1], ClassFacts) and a[1].scope is not None}
        if len(classes) != 1:
            return None
        (cls,) = classes
        model = self.analysis.model_of(cls.scope)
        held = {
            key.split(".")[1]
            for scope in model.scopes if scope.parent is cls.scope and scope.is_function
            for key in self.candidate_keys(scope)
            if key.startswith("self.") and key.count(".") == 1 and key in self.card_keys(scope, guesses=False)
        }
        return f"{call.receiver}.{held.pop()}" if len(held) == 1 else None

    @staticmethod
    def bound_to(call: Call) -> str | None:
        """The name the result of ``call`` is stored in (``frozen = contract_hash(card)``)."""
        for bind in call.scope.binds:
            if len(bind.targets) == 1 and any(c is call for c in bind.value.calls):
                return bind.targets[0]
        return None

    def card_name(self, call: Call) -> str | None:
        """The name the card ``call`` fetches is stored in (not a client made from it)."""
        name = self.bound_to(call)
        return name if name is not None and self.key_holds(call.scope, name, _is_card) else None

    def card_stored_elsewhere(self, key: str, scope: Scope) -> Bind | None:
        """Where another method of ``scope``'s class stores a card into the lasting ``key``
        (``self._card = await resolver.get_agent_card()``): a card the object already holds
        when ``scope`` stores into it."""
        if not key.startswith("self."):
            return None
        for other in self.class_scopes(scope)[1:]:
            for bind in other.binds:
                if key in bind.targets and not bind.value.placeholder and any(
                    _is_card(a) for a in self.expr_atoms(bind.value, bind)
                ):
                    return bind
        return None

    def class_scopes(self, scope: Scope) -> list[Scope]:
        """``scope``, then the other methods of its class (and of its bases)."""
        cls = self.analysis.class_of(scope)
        if cls is None:
            return [scope]
        found = [scope]
        for member in [cls, *self.analysis.bases(cls)]:
            model = self.analysis.model_of_class(member)
            if model is not None:
                found += [s for s in self.analysis.methods(member, model) if s is not scope]
        return found

    # -- where a value comes from, for the reader --
    def origin(self, scope: Scope, key: str, before: Fact, depth: int = 2) -> Origin | None:
        """Where ``key`` (a card, a client) gets the value it has at ``before``: the last bind
        of it that can run before, a parameter, or (for ``self.x``) a bind in another method."""
        binds = [b for b in scope.binds if key in b.targets and b.order < before.order and runs_before(b, before)]
        if binds:
            return self._bind_origin(binds[-1], key, depth)
        param = next((p for p in scope.params if p.name == key), None)
        if param is not None:
            return Origin(param, key, "received")
        if key.startswith("self."):
            elsewhere = [
                b for s in self.class_scopes(scope)[1:] for b in s.binds
                if key in b.targets and not b.value.placeholder
            ]
            fetched = [o for o in (self._bind_origin(b, key, 0) for b in elsewhere) if o.how == "fetched"]
            if fetched or elsewhere:
                return (fetched or [self._bind_origin(elsewhere[0], key, 0)])[0]
        return None

    def _bind_origin(self, bind: Bind, key: str, depth: int) -> Origin:
        for call in bind.value.calls:
            chain = self.chain(call, "card-fetch")
            if chain:
                helper = (call.callee or call.method) if len(chain) > 1 else None
                return Origin(call, key, "fetched", helper, bind)
        source = bind.copy_of
        if source and depth > 0 and len(bind.targets) == 1:  # `c = card`: where `card` comes from
            found = self.origin(bind.scope, source, bind, depth - 1)
            if found is not None:
                return found
        return Origin(bind, key, "set", bind=bind)

    # -- the frozen contract --
    def digest_of(self, expr: Expr, fact: Fact, local: bool = False) -> object | None:
        """The capture a digest in ``expr`` comes from (a contract hash of card data);
        ``local``: one made in the function or its object, not one its callers pass in."""
        symbolic = self.analysis.values(fact.scope).expr(expr, fact)
        atoms = self.analysis.resolve(symbolic, local="own" if local else False)
        return next((a[1] for a in atoms if a[0] == DIGEST), None)

    def contract_capture(self, scope: Scope) -> object | None:
        """What freezes the contract for ``scope``'s sends: a digest computed in it, or one
        its object keeps (computed in any method, handed to its constructor, or stored
        from outside); the capture fact, of this module or another."""
        for candidate in self.class_scopes(scope):
            values = self.analysis.values(candidate)
            for bind in candidate.binds:
                atoms = kept_in_fields(self.analysis.resolve(values.bind(bind), local="own"))
                digest = next((a[1] for a in atoms if a[0] == DIGEST), None)
                if digest is None:
                    continue
                if candidate is scope or any(t.startswith("self.") for t in bind.targets) or _pins(values, bind):
                    return digest
            if candidate is scope:
                for call in candidate.calls:  # a capture whose result is not kept is still a capture
                    own = self.analysis.resolve(values.result(call), local="own")
                    digest = next((a[1] for a in own if a[0] == DIGEST), None)
                    if digest is not None and self.bound_to(call) is None and _kept_elsewhere(call):
                        return digest
        cls = self.analysis.class_of(scope)
        if cls is not None:
            names = {t.split(".")[1] for s in self.class_scopes(scope) for b in s.binds for t in b.targets if t.startswith("self.") and t.count(".") >= 1}
            for name in sorted(names | self.analysis.names_stored_through_objects(cls)):
                atoms = self.analysis.attr_atoms(cls, name, False, 3)
                digest = next((a[1] for a in atoms if a[0] == DIGEST), None)
                if digest is not None:
                    return digest
        return None

    def status_call(self, scope: Scope) -> Call | None:
        """A call that reads the task's own status (``get_task``), in ``scope`` or a helper."""
        return next((c for c in scope.calls if self.chain(c, "get-task")), None)

    # -- digests --
    def hash_sinks(self, scope: Scope) -> list[Call]:
        """Calls that compute a digest: ``hashlib.*``, ``hmac.*`` (and methods of what they
        return), and the built-in ``hash()``."""
        return [
            call for call in scope.calls
            if (self.qualified(call) or "").split(".")[0] in ("hashlib", "hmac") or self.is_builtin(call, "hash")
        ]

    def qualified(self, call: Call) -> str | None:
        """What ``call`` calls, by its canonical name (``json.dumps``, ``a2a:Client.send_message``)."""
        names = self.analysis.external_names(call)
        return names[0] if names else None

    def feeds(self, producer: Call, sinks: list[Call]) -> Call | None:
        """The sink ``producer``'s result reaches: directly, or through assignments."""
        for sink in sinks:
            if sink is not producer and any(inner is producer for inner in sink.args.calls):
                return sink
        flowing = self.derived(producer.scope, calls=[producer])
        for sink in sinks:
            if sink.order > producer.order and (sink.args.reads_any(flowing.keys()) or (sink.receiver or "") in flowing):
                return sink
        return None

    def hashed(self, producer: Call, depth: int = 2) -> Call | None:
        """The hash ``producer``'s value feeds: in its function, or in a caller it is handed
        back to (``blob = canonical(card)`` ... ``sha256(blob.encode())``)."""
        sink = self.feeds(producer, self.hash_sinks(producer.scope))
        if sink is not None or depth <= 0:
            return sink
        flowing = self.derived(producer.scope, calls=[producer]).keys()
        if not any(
            e.kind == "return" and (any(c is producer for c in e.value.calls) or e.value.reads_any(flowing))
            for e in producer.scope.exits
        ):
            return None
        return next((sink for caller in self.callers(producer.scope) if (sink := self.hashed(caller, depth - 1))), None)

    def returned_texts(self, call: Call) -> list[str]:
        """The strings, keys and fields of what the project function ``call`` runs returns
        (through one assignment): ``def build(job, terms): msg = {..."contractHash": terms}; return msg``."""
        function = self.callee(call)
        texts: list[str] = []
        for exit_ in function.exits if function is not None else ():
            if exit_.kind == "return":
                made = [exit_.value, *(b.value for b in function.binds if b.order < exit_.order and exit_.value.reads_any(set(b.targets)))]
                texts += [t for value in made for t in (*value.strings, *value.keys, *value.fields)]
        return texts

    def stored_by_helpers(self, call: Call) -> list[Bind]:
        """What project functions called before ``call`` store into what they are given of
        its arguments (``add_digest(request, card)``: ``request.metadata.update(...)``)."""
        given = {key for arg in call.arguments for key in arg.value.reads}
        found: list[Bind] = []
        for helper in call.scope.calls:
            function = self.callee(helper) if helper.order < call.order and runs_before(helper, call) else None
            if function is None:
                continue
            offset = self.analysis.offset(helper, function)
            for param in function.params:
                arg = helper.argument(param.index - offset, param.name)
                if arg is not None and given & set(arg.value.reads):
                    found += [b for b in function.binds if any(t.startswith(param.name + ".") for t in b.targets)]
        return found

    # -- submission: runs after the task was submitted --
    def continuation(self, send: Call, at: Fact | None = None, arguments: Iterable | None = None) -> bool:
        """The message ``send`` sends carries a task id: it continues a task the server
        already created (A2A v1.0 §3.4.2), so whatever decides it runs after submission.
        ``at``: on the paths through that earlier point only (``if slot.get("ref"): ...
        else: card = fetch()`` does not continue ``slot["ref"]`` where it is unset).
        ``arguments``: the arguments that make the message (all of them by default)."""
        values = self.analysis.values(send.scope)
        given = send.arguments if arguments is None else arguments
        sources = [
            found for arg in given for found in _task_ids(values, arg.value, send, 4)
            if not self._minted_here(values, found, send)
        ]
        if at is None or not sources:
            return bool(sources)
        unset = self._unset_at(at)
        return any(not keys or not keys <= unset or _rebound(values, keys, at, send) for keys in sources)

    def _minted_here(self, values, keys: frozenset[str], send: Fact, after: Fact | None = None, depth: int = 2) -> bool:
        """The task id is one the client made up (``task = new_task(msg)``, ``uuid4()``):
        not a task the server created, whatever the message calls it. ``after``: made up
        after that point (none of its mints runs before it)."""
        roots = {key.split(".")[0] for key in keys}
        binds = [b for root in roots for b in values.sources(root, send)]
        return bool(roots) and bool(binds) and all(
            self._mints(b.value, depth) and (after is None or not runs_before(b, after)) for b in binds
        )

    def _mints(self, expr: Expr, depth: int = 2) -> bool:
        """``expr`` is made from an id the client makes up: a mint's result (``uuid4()``), or
        what a project function returns that makes one up on each of its paths
        (``def new_id(): tid = str(uuid4()); return tid``)."""
        for call in expr.calls:
            if self.qualified(call) in LOCAL_ID_MINTS:
                return True
            function = self.callee(call)
            if function is not None and depth > 0:
                values = self.analysis.values(function)
                exits = values.handed_out()
                if exits and all(
                    self._mints(e.value, depth - 1) or self._minted_here(values, frozenset(e.value.reads), e, depth=depth - 1) for e in exits
                ):
                    return True
        return False

    def _unset_at(self, fact: Fact) -> set[str]:
        """Keys that are false (unset, ``None``) wherever ``fact`` runs, by its guards."""
        found: set[str] = set()
        for test, holds in self.guards(fact):
            shape, truth = test.shape, holds
            while shape and shape[0] == "not":
                shape, truth = shape[1], not truth
            if shape and shape[0] == "key" and not truth:
                found.add(shape[1])
            elif shape and shape[0] == "cmp" and shape[3] == "None" and (shape[1] == "is") == truth:
                found |= set(shape[2])
        return found

    def decorator_cache(self, scope: Scope) -> str | None:
        """How a caching decorator keeps what ``scope`` returns: ``"forever"``
        (``functools.lru_cache``/``cache``, ``async_lru.alru_cache()``, ``aiocache.cached()``
        without a ttl) or ``"expires"`` (a ttl: ``@cached(ttl=300)``, cachetools'
        ``ttl_cache``, ``cached(TTLCache(...))``, or an ``lru_cache`` whose callers pass the
        clock, ``time.time() // ttl``); None when it is not cached."""
        imports = self.analysis.model_of(scope).imports
        for name in scope.decorators:
            root = name.split(".")[0]
            qualified = imports.get(root, root) + name[len(root):]
            package, last = qualified.split(".")[0], qualified.rsplit(".", 1)[-1]
            if package not in _CACHE_PACKAGES:
                continue
            call = next((c for c in scope.decorator_calls if c.callee == name), None)
            keywords = {a.keyword for a in call.arguments} if call is not None else set()
            if last == "ttl_cache" or "ttl" in keywords or (call is not None and any("TTL" in (c.callee or "") for c in call.args.calls)):
                return "expires"
            if last in ("lru_cache", "cache", "alru_cache", "cached", "cached_property"):
                clocked = any(
                    (inner.callee or "").endswith(_CLOCKS) for caller in self.callers(scope) for inner in caller.args.calls
                )
                return "expires" if clocked else "forever"
        return None

    def served_from_cache(self, chain: list[Call], anchor: Anchor | None = None) -> bool:
        """The card a fetch down ``chain`` yields comes out of a cache that never reads it
        again: a function on the way (or the one that fetches) is cached for good by a
        decorator, or keeps the card on its object or in a module table with no expiry
        check (a fetch-once memo). A cache that expires re-reads it, and so does not count.
        ``anchor``: the callers between the submission and the fetch count too, when one
        fetches only while its table lacks the entry (``if role not in self._cards:``)."""
        kinds = [self.decorator_cache(step.scope) for step in chain]
        if "expires" in kinds:
            return False
        if "forever" in kinds:
            return True
        for outer, step in zip(chain, chain[1:]):
            if self.caches(step) and not self._expires(step) and not self._new_holder(outer, step):
                return True
        callers = [node for node, _ in anchor.via if isinstance(node, Call)] if anchor is not None else []
        return any(self.memoizes(step) for step in callers)

    def _new_holder(self, call: Call, fetch: Call) -> bool:
        """``fetch`` keeps its card on its object, and ``call`` asks an object its function
        has just made (``conn = await open_connection(url)``, a factory that constructs it):
        the memo is empty, so the card is read now."""
        kept = self.derived(fetch.scope, calls=[fetch])
        on_object = any(
            t.startswith("self.") for b in fetch.scope.binds
            if any(c is fetch for c in b.value.calls) or b.value.reads_any(kept.keys()) for t in b.targets
        )
        if not on_object or not call.receiver:
            return False
        binds = self.analysis.values(call.scope).sources(call.receiver, call)
        return bool(binds) and all(b.direct is not None and self._constructs(b.direct) for b in binds)

    def _constructs(self, call: Call, depth: int = 2) -> bool:
        """``call`` makes a new object of a project class: its constructor, or a function
        that returns what it constructs (``link = PeerLink(...); ...; return link``)."""
        target = self.analysis.project_function(call)
        if target is None:
            return any(t.cls is not None and t.function is None for t in self.analysis.targets(call))
        if target.cls is not None and target.function.name == "__init__":
            return True
        returned = [e for e in target.function.exits if e.kind == "return"]
        if depth <= 0 or not returned:
            return False
        values = self.analysis.values(target.function)
        for exit_ in returned:
            made = list(exit_.value.top)
            if not made and len(exit_.value.reads) == 1:
                made = [b.direct for b in values.sources(next(iter(exit_.value.reads)), exit_)]
            if not made or not all(c is not None and self._constructs(c, depth - 1) for c in made):
                return False
        return True

    def _expires(self, fetch: Call) -> bool:
        return any(self.checks_expiry(test) for test, _ in self.guards(fetch, conditional=True))

    def memoizes(self, fetch: Call) -> bool:
        """``fetch`` runs only while the lasting place it fills is empty and never expires:
        ``if role not in self._cards: self._cards[role] = await discover(...)`` (the test
        reads that place, not some other lasting name: ``if state in DONE: return``)."""
        if not self.caches(fetch) or self._expires(fetch):
            return False
        scope = fetch.scope
        filled = {t for b in scope.binds if any(c is fetch for c in b.value.calls) for t in b.targets}
        return any(
            any(self.outlives_the_call(key, scope) and key in filled for key in test.expr.keys)
            for test, _ in self.guards(fetch, conditional=True)
        )

    def sets_its_guard(self, call: Call) -> bool:
        """``call`` runs only while a lasting flag that its function sets is unset (``if not
        self.ready: await self.hello()``, ``hello()`` setting ``self.ready``): once per
        object, however often its caller runs. (A fresh object runs it again: when that
        matters after a submission, AC101 judges it.)"""
        return bool(self._unset_at(call) & self._lasting_sets(call))

    def _lasting_sets(self, call: Call) -> set[str]:
        """The lasting names the project function ``call`` runs sets, spelled as at the call
        (``self.ready`` set by ``peer.hello()`` is ``peer.ready``)."""
        target = self.analysis.project_function(call)
        if target is None:
            return set()
        found = set()
        for target_key in (t for b in target.function.binds for t in b.targets):
            if target_key.startswith("self."):
                if call.receiver:
                    found.add(call.receiver + target_key[len("self"):])
            elif self.outlives_the_call(target_key, target.function):
                found.add(target_key)
        return found

    def _polls_a_task(self, call: Call) -> bool:
        """``call`` reads a task's status: itself, or through a project function it hands
        the task to; not one that submits a task of its own and follows it to its end
        (``close_branch(rows)`` in a loop over branches is no polling loop)."""
        chain = self.chain(call, "get-task")
        return bool(chain) and (len(chain) == 1 or self._handed_in(chain[-1]))

    def acts_on_task(self, call: Call, at: Fact | None = None) -> str | None:
        """What ``call`` does to a task that already exists: continues it, polls it,
        cancels it or subscribes to it (each needs a task the server created). Through a
        project function, only when the task is one it is handed (``link.cancel(job_id)``),
        not one it submits itself. ``at``: an earlier point the question is asked for."""
        for role, what in (("send", "continues"), ("get-task", "polls"), ("cancel", "cancels"), ("subscribe", "subscribes to")):
            chain = self.chain(call, role)
            if not chain:
                continue
            inner = chain[-1]
            if role == "send" and not self.continues(call, at, chain):
                continue
            if len(chain) > 1 and not self._handed_in(inner):
                continue
            return what
        return None

    def continues(self, call: Call, at: Fact | None = None, chain: list[Call] | None = None) -> bool:
        """``call`` sends a message that continues a task: itself, or through project
        functions down to the send (the task id given to them, or set on the way)."""
        chain = chain or self.chain(call, "send")
        if len(chain) <= 1 or chain[-1].scope is call.scope:
            return self.continuation(chain[-1] if chain else call, at)
        if self.continuation(call, at, self._sent_arguments(call, chain)):
            return True
        return self.continuation(chain[-1]) and self._passes_task_id(chain)

    def _sent_arguments(self, call: Call, chain: list[Call]) -> list:
        """The arguments of ``call`` (into a project function) that reach the send down
        ``chain``: a message it is given, not a trace or a logger that also names a task."""
        callee = chain[1].scope
        offset = self.analysis.offset(call, callee)
        found = []
        for param in callee.params:
            arg = call.argument(param.index - offset, param.name)
            if arg is not None and chain[1].args.reads_any(self.derived(callee, keys=[param.name]).keys()):
                found.append(arg)
        return found

    def _passes_task_id(self, chain: list[Call]) -> bool:
        """The task id the send at the end of ``chain`` carries is given to its function by
        the call before it (``take_turn(session, reply, task_id=task_id)``), or set inside
        it; not when that call leaves it out (``take_turn(session, opening)``: a new task)."""
        inner, into = chain[-1], chain[-2]
        values = self.analysis.values(inner.scope)
        sources = [keys for arg in inner.arguments for keys in _task_ids(values, arg.value, inner, 4)]
        params = {key.split(".")[0] for keys in sources for key in keys} & set(values.params)
        if not params:
            return True
        offset = self.analysis.offset(into, inner.scope)
        for name in params:
            param = values.params[name]
            given = into.argument(param.index - offset, param.name)
            if given is not None and not given.none:
                return True
        return False

    def _handed_in(self, call: Call) -> bool:
        """Something ``call`` is given comes from its function's parameters: what it sends,
        or the task id of the message it builds (``Message(task_id=task_id, ...)``)."""
        values = self.analysis.values(call.scope)
        if any(a[0] == "param" for arg in call.arguments for a in values.expr(arg.value, call)):
            return True
        sources = [keys for arg in call.arguments for keys in _task_ids(values, arg.value, call, 4)]
        return any(key.split(".")[0] in values.params for keys in sources for key in keys)

    def submission(self, fact: Fact, depth: int = CALLER_DEPTH) -> Anchor | None:
        """Why ``fact`` runs after a task was submitted, or None if it need not."""
        memo = (id(fact), depth)
        if memo in self._anchors:
            return self._anchors[memo]
        self._anchors[memo] = None
        found = self._submission(fact, depth)
        self._anchors[memo] = found
        return found

    def _submission(self, fact: Fact, depth: int) -> Anchor | None:
        scope = fact.scope
        for frame, branch in fact.path:
            if frame.kind == "for" and branch == "body":
                stream = self._loop_iter_call(scope, frame, ("send", "subscribe"))
                if stream is not None:
                    return Anchor(stream, "submits the task and iterates its stream", is_send=True, scope=scope, live=True, before=True)
            if frame.kind in ("for", "while") and branch == "body":
                poll = next((c for c in scope.calls if in_loop_body(c, frame) and self._polls_a_task(c) and not self.task_made_after(c, fact)), None)
                if poll is not None:
                    return Anchor(poll, "polls the submitted task in this loop", scope=scope, live=True)
        for send in self.sends(scope):
            if send is not fact and (send.node is None or send.node is not fact.node) and runs_before(send, fact):
                inside = send.order < fact.order <= send.end  # `make_client().send(m)`: runs first
                if not inside and not any(c is send for c in getattr(fact, "args", Expr()).calls):
                    later = send.order > fact.order
                    continues = self.continues(send)
                    label = "task submitted here" + (" (on an earlier iteration)" if later else "")
                    if continues and later:
                        label = "continues the submitted task here (on an earlier iteration)"
                    return Anchor(send, label, is_send=True, scope=scope, live=later and continues, before=True)
        for call in scope.calls:  # ahead of a call on a task that exists: a continuation, a poll
            if call.order > fact.order and call is not fact and runs_before(fact, call):
                what = self.acts_on_task(call, fact)
                if what is not None and not self.task_made_after(call, fact):
                    return Anchor(call, f"{what} a task the server already created, after this", is_send=what == "continues", scope=scope, live=True)
        handler = self.task_handler(scope)
        if handler is not None and isinstance(handler.node, Param):
            return handler
        if depth > 0:  # a caller after submission explains more than a name passed to a factory
            found = self._caller_submission(scope, depth)
            if found is not None:
                return found
        return handler

    def _caller_submission(self, scope: Scope, depth: int) -> Anchor | None:
        """Why a caller of ``scope`` runs it after a submission: a caller where the task is
        in flight (live) before one that merely runs after an earlier send, so that the
        answer does not depend on which caller comes first."""
        anchors = []
        for caller in self.callers(scope):
            upstream = self.submission(caller, depth - 1)
            if upstream is None or self._set_by(upstream, caller):
                continue  # `if self._client is None: self.connect()` after a send through self._client
            anchors.append(replace(upstream, via=((caller, f"calls {scope.name}() after submission"), *upstream.via)))
        return next((a for a in anchors if a.live), anchors[0] if anchors else None)

    def _set_by(self, anchor: Anchor, call: Call) -> bool:
        """``call`` runs only while an attribute is unset (``if self._client is None:``)
        that the submission ``anchor`` is made through: after that send it is set, so the
        call cannot run after it."""
        node = anchor.node
        receiver = node.receiver if isinstance(node, Call) else None
        if not receiver or not anchor.before:
            return False
        for test, holds in self.guards(call):
            key = _unset(test.shape, holds)
            if key is not None and key.startswith("self.") and (receiver == key or receiver.startswith(key + ".")):
                return True
        return False

    def task_made_after(self, call: Call, fact: Fact) -> bool:
        """The task ``call`` acts on is one its function submits after ``fact`` (in the same
        pass): a task a send here that runs after ``fact`` returned, an id read from what
        that send streams back (``for frame in events(resp): task_id = frame["taskId"]``),
        the id the client gives the task in a send after ``fact`` that creates it
        (``send_task(payload={"id": "job-7", ...})``), or an id this function mints after
        ``fact`` (``tid = uuid4().hex``): no task has it before it is sent. Round a loop
        that holds both, a task made on an earlier pass counts as made before ``fact``
        unless the id is bound anew after ``fact`` on every way to ``call`` (``task =
        None`` at the top of each job, after its fetch): then a new send after ``fact`` made it."""
        scope = call.scope
        values = self.analysis.values(scope)
        atoms = self.analysis.resolve(a for arg in call.arguments for a in values.expr(arg.value, call))
        if call.receiver_call is not None or call.receiver:
            # (not what the call itself returned: an object does not hold a task it polls for)
            atoms |= {a for a in self.analysis.resolve(values.receiver(call)) if a[0] in (TASK, STATUS) and a[1] is not call}
        tasks = [a for a in atoms if a[0] in (TASK, STATUS) and isinstance(a[1], Call)]
        if any(a[1].scope is scope and not runs_before(a[1], fact) and not (a[1] is call and self._id_from_callers(call)) for a in tasks):
            return True
        ids = _acted_on_ids(values, call) or self._ids_handed_in(call)
        if not ids:
            return False
        made = [a[1] for a in tasks if a[1].scope is scope and a[1].order > fact.order and self.chain(a[1], "send")]
        if all(_bound_anew(values, key, fact, call) for key in ids) and any(not self.continues(send) for send in made):
            return True
        if all(self._handed_back_after(values, key, call, fact) for key in ids):
            return True
        later = [send for send in self.sends(scope) if send is not call and not runs_before(send, fact)]
        if ids & self.derived(scope, calls=later).keys():
            return True
        if ids & {found for send in later for found in _supplied_ids(values, send)}:
            return True  # the id the client gave the task in the send that creates it
        return all(self._minted_here(values, frozenset({key}), call, after=fact) for key in ids)

    def _handed_back_after(self, values, key: str, at: Fact, fact: Fact, depth: int = 3) -> bool:
        """What ``key`` holds at ``at`` is (a part of) what a project function run after
        ``fact`` hands back (``for task, _ in relay.send(client, message)``; ``task_id =
        event["result"]["id"]`` of such an ``event``): a task it submits out of the
        analysis' reach, down helpers, as far as anything tells; not one from before."""
        binds = values.reaching(key.split(".")[0], at)[0]
        for bind in binds:
            source = bind.direct or (bind.value.top[0] if bind.kind == "for" and len(bind.value.top) == 1 else None)
            if source is not None:
                if not (runs_before(fact, source) and not runs_before(source, fact) and self.analysis.project_function(source)):
                    return False
            elif bind.copy_of is None or depth <= 0 or not self._handed_back_after(values, bind.copy_of, bind, fact, depth - 1):
                return False
        return bool(binds)

    def endless(self, scope: Scope, loop: Frame) -> bool:
        """``loop`` has no end of its own: ``while True``, ``for _ in itertools.count()``, or a
        ``for`` over what a project function always returns as such an iterator
        (``for _ in attempts()`` where ``attempts`` returns ``itertools.count()``)."""
        if loop.endless or loop.kind != "for" or loop.node is None:
            return loop.endless
        iterated = next((c for c in scope.calls if c.node is loop.node.iter), None)
        function = self.callee(iterated) if iterated is not None else None
        returns = [e for e in function.exits if e.kind == "return"] if function is not None else []
        return bool(returns) and all(
            any(is_endless(c.method or c.callee or "", len(c.arguments)) for c in e.value.top) for e in returns
        )

    def _ids_handed_in(self, call: Call) -> set[str]:
        """What ``call`` gives the project function it calls as the id of the task a call
        in it acts on (``poll(job, session)`` where ``poll`` posts ``{"id": job}``)."""
        function = self.callee(call)
        if function is None:
            return set()
        inner = self.analysis.values(function)
        named = {key.split(".")[0] for c in function.calls for key in _acted_on_ids(inner, c)}
        offset = self.analysis.offset(call, function)
        given = [call.argument(p.index - offset, p.name) for p in function.params if p.name in named]
        return {key for arg in given if arg is not None for key in arg.value.reads}

    def _id_from_callers(self, call: Call) -> bool:
        """The task id ``call`` sends comes in through a parameter of its function: a task
        ``call`` handed back then was made by an earlier run of it, before anything this
        run does (``task_id = await turn(url, text, task_id)`` in the caller's loop)."""
        values = self.analysis.values(call.scope)
        sources = [keys for arg in call.arguments for keys in _task_ids(values, arg.value, call, 4)]
        return bool({key.split(".")[0] for keys in sources for key in keys} & set(values.params))

    def _loop_iter_call(self, scope: Scope, frame: Frame, roles: tuple[str, ...]) -> Call | None:
        bind = loop_bind(scope, frame)
        if bind is None:
            return None
        for call in bind.value.calls:
            if any(self.chain(call, role) for role in roles):
                return call
        iterated = set(bind.value.keys)
        for other in scope.binds:  # `stream = client.send_message(m)` ... `async for ev in stream`
            if other.order < bind.order and iterated.intersection(other.targets):
                for call in other.value.calls:
                    if any(self.chain(call, role) for role in roles):
                        return call
        return None

    def task_handler(self, scope: Scope) -> Anchor | None:
        if not scope.is_function:
            return None
        values = self.analysis.values(scope)
        for param in scope.params:
            if param.annotation and any(a[0] == STATUS and a[1] is param for a in self.analysis.type_atoms(values, param.annotation, param)):
                return Anchor(param, f"handles updates of a submitted task ({param.annotation})", scope=scope, live=True)
        registration = self.analysis.registration(scope)
        if registration is not None:
            return Anchor(registration, f"registers {scope.name}() as a task-event consumer", scope=registration.scope, live=True)
        return None

    def routes_a_new_task(self, fetch: Call, decision: object, anchor: Anchor | None = None) -> bool:
        """After an earlier send, a card fetched to route a new task: the function goes on to
        submit a task of its own and touches no task but the ones it submits, and the card
        decides a condition or that send, not a state, nor what the object holds unless
        the object makes new tasks only. A function
        that touches no task at all (``refresh()`` of what its object holds) is judged at its
        call site in the callers on the way to ``anchor``: ``refresh(); caption(...)``
        between batches routes the next batch."""
        if any(bind is decision for bind in fetch.scope.binds) and (self.state_change(decision) or not self._makes_new_tasks_only(fetch.scope)):
            return False
        sites = [node for node, _ in anchor.via if isinstance(node, Call)] if anchor is not None else []
        point = fetch
        while not any(self.reaches_a_task(c) for c in point.scope.calls):
            if not sites:
                return False
            point = sites.pop(0)
        return self._submits_new_tasks_only(point)

    def _submits_new_tasks_only(self, point: Call) -> bool:
        """After ``point`` its function submits a task and touches no task but those; or
        touches none, in an object that makes new tasks only: its next job is a new task."""
        scope = point.scope
        later = [c for c in scope.calls if c.order > point.order]
        if not any(self.reaches_a_task(c) for c in later):
            return self._makes_new_tasks_only(scope)
        sends = [c for c in later if self.chain(c, "send") and runs_before(point, c)]
        if any(self.continues(c) for c in sends):
            return False
        new_tasks = self.derived(scope, calls=sends).keys()
        earlier = [c for c in scope.calls if c.order < point.order and self.chain(c, "send")]
        earlier_tasks = self.derived(scope, calls=earlier).keys()

        def touches_another_task(call: Call) -> bool:
            if self.chain(call, "send"):  # a follow-up message into the earlier task
                return call.args.reads_any(earlier_tasks)
            acts = any(self.chain(call, role) for role in ("cancel", "subscribe", "get-task"))
            return acts and not call.args.reads_any(new_tasks)

        return bool(sends) and not any(touches_another_task(c) for c in later)

    def _makes_new_tasks_only(self, scope: Scope) -> bool:
        """``scope`` is a method of a class whose methods touch no task but the ones they
        submit: each call on a task in them is a send that starts a new one (``job(msg)``),
        none continues, polls or cancels a task. What such an object holds routes its next
        job, never one already submitted."""
        if self.analysis.class_of(scope) is None:
            return False
        calls = [c for method in self.class_scopes(scope) for c in method.calls if self.reaches_a_task(c)]
        return bool(calls) and all(self.chain(c, "send") and self.acts_on_task(c) is None for c in calls)

    # -- guards --
    def guards(self, fact: Fact, conditional: bool = False) -> list[tuple[Test, bool]]:
        """Conditions ``fact`` runs under, with the truth value each must have.
        ``conditional``: also an early exit inside an ``if`` that ``fact`` follows (``if not
        force: if cached: return cached``), which holds on that branch only."""
        scope = fact.scope
        return [guard for frame, branch in fact.path for guard in self.branch_guards(scope, frame, branch)] + self.exit_guards(fact, conditional)

    def branch_guards(self, scope: Scope, frame: Frame, branch: str) -> list[tuple[Test, bool]]:
        """The conditions what runs in ``branch`` of ``frame`` (of ``scope``) runs under, by
        that frame (:meth:`guards` of a fact: those of each frame of its path, in order)."""
        if frame.kind in ("if", "while") and branch in ("body", "orelse"):
            return [(frame.test, branch == "body")] if frame.test is not None else []
        if frame.kind == "for" and branch == "orelse":
            return [(search, False) for search in self._searches(scope, frame)]
        return []

    def exit_guards(self, fact: Fact, conditional: bool = False) -> list[tuple[Test, bool]]:
        """The conditions of the early exits before ``fact`` that it runs under (see :meth:`guards`).
        A guard is made as its ``if`` closes, so a scope's are in source order: those before
        ``fact`` are found by bisection (each ``if`` of an ``elif`` chain whose branches return
        is one, and reading them all for each exit made a long chain quadratic)."""
        scope = fact.scope
        found: list[tuple[Test, bool]] = []
        for guard in scope.guards[: bisect.bisect_left(scope.guards, fact.order, key=attrgetter("order"))]:
            if guard.test is None:
                continue
            guard_path, fact_path = guard.path, fact.path
            if guard.exit_kind in ("return", "raise"):  # leaves the function from inside a `with` too
                guard_path, fact_path = without_withs(guard_path), without_withs(fact_path)
            if guard_path == fact_path[: len(guard_path)]:
                if guard.exit_kind in ("continue", "break") and not fact.loops:
                    continue
                found.append((guard.test, guard.polarity))
            elif conditional and guard.exit_kind == "return":
                shared = 0
                while shared < min(len(guard_path), len(fact_path)) and guard_path[shared] == fact_path[shared]:
                    shared += 1
                if all(frame.kind == "if" and frame.end < fact.order for frame, _ in guard_path[shared:]):
                    found.append((guard.test, guard.polarity))
        return found

    def _searches(self, scope: Scope, loop: Frame) -> list[Test]:
        """The tests on which a ``for`` loop leaves with ``break``, each as the search it
        makes: ``any(test for item in loop)``, false where the loop's ``else`` runs (``for s
        in card.skills: if s.id == x: break`` ... ``else: cancel``)."""
        found = self._loop_searches.get(id(loop))
        if found is None:
            found = self._loop_searches[id(loop)] = []
            iterated = loop_bind(scope, loop)
            for exit_ in scope.exits:
                loops = [frame for frame, _ in exit_.path if frame.kind in ("for", "while")]
                if exit_.kind != "break" or not loops or loops[-1] is not loop:
                    continue
                frame, branch = next(((f, b) for f, b in reversed(exit_.path) if f.kind == "if"), (None, ""))
                if frame is None or frame.start < loop.start or branch != "body" or frame.test is None:
                    continue
                keys = frame.test.expr.keys | (iterated.value.keys if iterated is not None else frozenset())
                found.append(replace(frame.test, shape=("any", frozenset(keys))))
        return found

    def verification(self, fact: Fact, sequential: bool = False) -> Call | None:
        """The signature check of a card that decides whether ``fact`` runs: in its
        condition, in the ``try`` around it, in a ``try`` before it whose handlers leave
        (the function, or this pass of the loop both are in), or (``sequential``) a check
        that raises before it in the same block."""
        for test, _holds in self.guards(fact):
            found = next((c for c in test.expr.calls if self.chain(c, "verify-signature")), None)
            if found is not None:
                return found
        for check in reversed(fact.scope.calls):  # the closest check first
            if check.order >= fact.order or not self.chain(check, "verify-signature"):
                continue
            tries = [frame for frame, branch in check.path if frame.kind == "try" and branch == "body"]
            for frame in tries:
                if any(f is frame for f, _ in fact.path):
                    return check
                leaves = frame.exits.get("handlers") in ("return", "raise", "continue", "break")
                if leaves and frame.end < fact.order and frame.path == fact.path[: len(frame.path)]:
                    return check
            if sequential and not tries and check.path == fact.path[: len(check.path)]:
                return check
        return None

    # -- card fields: skills, contract fields, digests --
    def condition(self, shape: tuple, scope: Scope, depth: int = 2, flags: list[Bind] | None = None) -> tuple:
        """``shape`` with each bare name that ``scope`` binds once, to a condition, replaced
        by that condition's form (``missing = x not in ids`` ... ``if missing:``); ``flags``
        collects the binds of those names."""
        kind = shape[0] if shape else ""
        if kind == "not":
            return ("not", self.condition(shape[1], scope, depth, flags))
        if kind in ("and", "or"):
            return (kind, self.condition(shape[1], scope, depth, flags), self.condition(shape[2], scope, depth, flags))
        if kind == "key" and depth > 0:
            binds = self.analysis.values(scope).sources(shape[1], None)  # (a copy's: `lost = held["lost"]`)
            if len(binds) == 1 and binds[0].shape:
                if flags is not None:
                    flags.append(binds[0])
                return self.condition(binds[0].shape, scope, depth - 1, flags)
        return shape

    def absence(self, shape: tuple, holds: bool, scope: Scope, depth: int = 4, bound: Call | None = None) -> bool:
        """Whether a condition of form ``shape`` being ``holds`` means "a skill is missing
        from the card". ``bound``: the call whose function ``scope`` is, when asked through
        a helper (its parameters are what that call passes)."""
        shape = self.condition(shape, scope)
        kind = shape[0] if shape else ""
        if kind == "not":
            return self.absence(shape[1], not holds, scope, depth, bound)
        if kind in ("or", "and"):
            return self.absence(shape[1], holds, scope, depth, bound) or self.absence(shape[2], holds, scope, depth, bound)
        skills = self._skills(scope, bound)
        if kind == "cmp":
            op, left, right = shape[1], shape[2], shape[3]
            if op in ("in", "not in") and right != "None" and (
                any(key in skills for key in right) or self.operand_holds(shape, 1, scope, bound, _is_skills)
            ):
                return holds == (op == "not in")
            if op in ("is", "is not") and right == "None" and any(key in skills for key in left):
                return holds == (op == "is")
            return False
        if kind in ("any", "all"):
            return any(key in skills for key in shape[1]) and not holds
        if kind == "call" and depth > 0:
            call = scope.calls[shape[1]] if shape[1] < len(scope.calls) else None
            target = self.callee(call) if call is not None else None
            if target is not None:
                for exit_ in target.exits:
                    if exit_.kind == "return" and exit_.shape:
                        if self.absence(exit_.shape, True, target, depth - 1, call):
                            return holds
                        if self.absence(exit_.shape, False, target, depth - 1, call):
                            return not holds
            return False
        if kind == "key":
            return shape[1] in skills and not holds  # `if not skill:` after a lookup
        return False

    def _skills(self, scope: Scope, bound: Call | None) -> "Holding | frozenset[str]":
        if bound is None:
            return self.skill_keys(scope)
        values = self.analysis.values(scope)
        caller = self.analysis.values(bound.scope)
        keys = set()
        candidates = {t for b in scope.binds for t in b.targets} | set(values.params)
        for fact in (*scope.binds, *scope.tests, *scope.exits):
            expr = fact.value if isinstance(fact, (Bind, Exit)) else fact.expr
            candidates |= expr.reads | expr.derived | expr.keys
        for key in candidates:
            atoms = self.analysis.resolve(self.analysis.instantiate(values.at(key, None), caller, bound, scope))
            if any(a[0] == SKILLS for a in atoms):
                keys.add(key)
        return frozenset(keys)

    def operand_holds(self, shape: tuple, side: int, scope: Scope, bound: Call | None, want) -> bool:
        """The ``side``-th operand of a comparison ``shape`` (0: left, 1: right) is a call whose
        result has an atom ``want`` accepts (``x not in skill_ids(card)``). ``bound``: as for
        :meth:`absence`."""
        index = shape[4][side] if len(shape) > 4 else -1
        if not 0 <= index < len(scope.calls):
            return False
        values = self.analysis.values(scope)
        atoms = values.result(scope.calls[index])
        if bound is not None:
            atoms = self.analysis.instantiate(atoms, self.analysis.values(bound.scope), bound, scope)
        return any(want(a) for a in self.analysis.resolve(atoms))

    def reads_card_fields(self, test: Test, changed: Iterable[str] = ()) -> bool:
        """``test`` reads what a card says: a field of one, a value derived from its fields,
        a function's answer about it (``if "x" in skill_ids``, ``if auto_accepts(card)``);
        not merely whether there is one (``card is None``, ``url in cards``), nor the
        ``changed`` field's current value (``if row["status"] == "submitted"`` of a row
        that also holds card data)."""
        scope = test.scope
        data, whole = self.card_data(scope), self.card_keys(scope)
        if any(key in data and key not in whole and key not in changed for key in (*test.expr.reads, *test.expr.derived)):
            return True
        calls = (*test.expr.top, *test.expr.derived_top)
        return any(_says_of_card(self.result(call)) for call in calls)

    def reads_contract(self, test: Test) -> bool:
        """A condition reading a card's contract field, version or signatures; a contract
        digest; or a validator (ETag) of a card."""
        if self._card_contract_fields(test):
            return True
        atoms = self.expr_atoms(test.expr, test)
        return any(a[0] in (CONTRACT, DIGEST) for a in atoms) or self._compares_validators(test)

    def _card_contract_fields(self, test: Test) -> set[str]:
        """The fields of a card that change with its contract (contract fields, version,
        signatures, ETag) that ``test`` reads, itself or through the flag it tests: by name
        (``card.security``), or by a variable that names them (``now.get(k)`` for ``k`` in
        ``("protocolVersion", "security")``)."""
        keys = self.condition_keys(test)
        cards = self.card_keys(test.scope)
        found = {
            field_of(key).lower() for key in keys
            if "." in key and key.rsplit(".", 1)[0] in cards and field_of(key).lower() in _CONTRACT_MARKS
        }
        if any(key in cards for key in keys):
            found |= self.variable_fields(test) & _CONTRACT_MARKS
        return found

    def condition_keys(self, test: Test) -> set[str]:
        """The keys ``test`` reads, itself or through the flag it tests (see :meth:`condition`)."""
        return set(test.expr.keys) | _shape_keys(self.condition(test.shape, test.scope))

    def variable_fields(self, test: Test) -> frozenset[str]:
        """The fields that the loop and comprehension variables ``test`` reads (itself or
        through the flag it tests) name, when they range over literal strings, written out
        or held by a constant (``for k in TERMS``, ``TERMS = ("protocolVersion", "security")``
        in the function, its module or the project module it imports it from), in snake case."""
        flags: list[Bind] = []
        self.condition(test.shape, test.scope, flags=flags)
        values = self.analysis.values(test.scope)
        names: set[str] = set()
        for fact, keys in ((test, test.expr.keys), *((flag, _shape_keys(flag.shape)) for flag in flags)):
            for key in keys:
                loops = [bind for bind in values.binds_of.get(key, ()) if bind.kind == "for"]
                for bind in _read_by(loops, fact):
                    strings = _literal_strings(bind)
                    if not strings and len(bind.value.reads) == 1 and not bind.value.calls and not bind.value.strings:
                        strings = self._constant_strings(test.scope, next(iter(bind.value.reads)))
                    names |= {snake(text) for text in strings}
        return frozenset(names)

    def _constant_strings(self, scope: Scope, name: str) -> list[str]:
        """The literal strings ``name`` is bound to in ``scope``, else in its module (followed
        to the project module it is imported from)."""
        binds = self.analysis.values(scope).binds_of.get(name, ())
        if binds:
            return [text for bind in binds for text in _literal_strings(bind)]
        model = self.analysis.model_of(scope)
        if name in model.imports:
            found = self.analysis.project.module(model.imports[name], model)
            if found is None or not found[1] or "." in found[1]:
                return []
            model, name = found
        return [text for bind in self.analysis.values(model.scopes[0]).binds_of.get(name, ()) for text in _literal_strings(bind)]

    def _compares_validators(self, test: Test) -> bool:
        """``if etag_now != etag_then``: card validators (ETags of card fetches, or by name)."""
        return any("etag" in field_of(k).lower() or "digest" in field_of(k).lower() and "card" in k.lower() for k in test.expr.keys)

    def compared_contract_fields(self, test: Test) -> list[str]:
        fields = {field_of(k) for k in test.expr.keys if field_of(k) in CONTRACT_FIELDS or "digest" in k or "etag" in k.lower() or "contract" in k}
        return sorted(fields | self._card_contract_fields(test))

    # -- state changes --
    def state_change(self, fact: Fact) -> bool:
        """``fact`` sets a task's state: an assignment to ``.state`` / ``.status`` of a
        task-state value (a ``TaskState`` member, a state string, a task's own status) or
        to a field a record class declares as a task state; or a ``TaskUpdater`` move. Not
        on a record known to be something else (see :meth:`_not_a_task`)."""
        if isinstance(fact, Call):
            return self.updater_transition(fact)
        if not isinstance(fact, Bind):
            return False
        for target in fact.targets:
            owner, _, name = target.rpartition(".")
            if not owner:
                continue
            named = name in ("state", "status") and (fact.value.literal_state or self._holds_a_state(fact))
            if (named or self._declared_state_field(fact, owner, name)) and not self._not_a_task(owner, fact):
                return True
        return False

    def state_change_through(self, call: Call, depth: int = 2) -> Fact | None:
        """The state change the project function ``call`` runs makes, on every path through
        it, to what it is given (``mark_done(task)``: ``task.status.state = ...``,
        ``await finish(updater)``: ``updater.complete()``): a change made at the call,
        under the conditions the call runs under."""
        function = self.callee(call)
        if function is None or depth <= 0:
            return None
        params = {p.name for p in function.params}
        for bind in function.binds:
            if _unconditional(bind) and any(t.split(".")[0] in params for t in bind.targets) and self.state_change(bind):
                return bind
        for inner in function.calls:
            if not _unconditional(inner) or not (inner.args.reads_any(params) or (inner.receiver or "").split(".")[0] in params):
                continue
            if (inner.receiver or "").split(".")[0] in params and self.state_change(inner):
                return inner
            found = self.state_change_through(inner, depth - 1)
            if found is not None:
                return found
        return None

    def always_raises(self, call: Call, depth: int = 2) -> bool:
        """The project function ``call`` runs raises on every path (``def abort(why): raise
        PeerChanged(why)``): the call is a ``raise`` where it stands."""
        function = self.callee(call)
        if function is None or depth <= 0:
            return False
        return any(e.kind == "raise" and _unconditional(e) for e in function.exits) or any(
            _unconditional(inner) and self.always_raises(inner, depth - 1) for inner in function.calls
        )

    def _declared_state_field(self, bind: Bind, owner: str, name: str) -> bool:
        """The record's class declares field ``name`` a task state (see :meth:`_state_field`)."""
        return any(self._state_field(cls, name) for cls in self._classes(owner, bind))

    def _state_field(self, cls: ClassFacts, name: str) -> bool:
        """``cls`` declares field ``name`` a task state: annotated ``TaskState`` or a type of
        the project's whose members hold task states, or given a task state as its default
        (``phase: Phase = Phase.SUBMITTED``, where the project's enum member holds
        ``"submitted"``)."""
        memo = (id(cls), name)
        found = self._state_fields.get(memo)
        if found is None:
            declared = cls.fields.get(name)
            found = declared is not None and self._declares_a_state(cls, declared)
            self._state_fields[memo] = found
        return found

    def _declares_a_state(self, cls: ClassFacts, declared: tuple) -> bool:
        annotation, default = declared
        if _sdk_state_field(declared) or (default is not None and self._holds_a_state(default)):
            return True
        kind = self.analysis.qualify(self.analysis.values(cls.scope), annotation) if annotation and cls.scope else None
        return isinstance(kind, ClassFacts) and any(d is not None and self._holds_a_state(d) for _, d in kind.fields.values())

    def _holds_a_state(self, bind: Bind) -> bool:
        return any(a[0] == STATE for a in self.expr_atoms(bind.value, bind))

    def _classes(self, key: str, fact: Fact) -> list[ClassFacts]:
        """The project classes ``key`` is an instance of where ``fact`` runs."""
        return [a[1] for a in self.atoms(key, fact) if a[0] == TYPE and isinstance(a[1], ClassFacts)]

    def task_record(self, bind: Bind) -> bool:
        """``bind`` sets a field of a record known to be a task's by what it holds: the
        SDK's ``TaskState`` member it is given, something of a task (see :meth:`_of_a_task`)
        or a field declared as a task state; not a record nothing is known of (a plain
        dict handed in, given a state string)."""
        if _sdk_state(bind.value):
            return True
        for target in bind.targets:
            owner, _, name = target.rpartition(".")
            if owner and (self._of_a_task(owner, bind) or self._declared_state_field(bind, owner, name)):
                return True
        return False

    def _not_a_task(self, owner: str, fact: Fact) -> bool:
        """``owner`` is a record of something other than a task: it holds card data (a
        partner directory entry: the card, its URL, its skills, kept whole or under a key of
        its own: ``entry["skills"] = [s["id"] for s in card["skills"]]``) and nothing of a task."""
        held = self._held(owner, fact)
        card_data = any(a[0] in CARD_KINDS or (a[0] == FIELD and a[2][0] in CARD_KINDS) for a in held)
        return card_data and not self._of_a_task(owner, fact)

    def _of_a_task(self, owner: str, fact: Fact) -> bool:
        """``owner`` holds something of a task: an id or a response a send returned, a
        status from the task's channel, an SDK task, a field of the SDK's ``TaskState`` type."""
        if any(_sdk_state_field(declared) for cls in self._classes(owner, fact) for declared in cls.fields.values()):
            return True
        return any(a[0] in (TASK, STATUS) or (a[0] == TYPE and a[1] in TASK_EVENT_TYPES) for a in self._held(owner, fact))

    def _held(self, owner: str, fact: Fact) -> frozenset:
        """What the record ``owner`` holds where ``fact`` runs: its own value and, for an
        instance of a project class, every field of the class."""
        memo = (owner, id(fact))
        found = self._records.get(memo)
        if found is None:
            held = set(self.atoms(owner, fact))
            for cls in self._classes(owner, fact):
                for name in sorted(self._field_names(cls)):
                    held |= self.analysis.resolve(self.analysis.attr_atoms(cls, name, False, CALLER_DEPTH))
            found = self._records[memo] = frozenset(held)
        return found

    def _field_names(self, cls: ClassFacts) -> set[str]:
        """The fields of ``cls``: declared in its body or set on ``self`` in its methods."""
        names = set(cls.fields)
        model = self.analysis.model_of_class(cls)
        for method in self.analysis.methods(cls, model) if model is not None else ():
            names |= {t.split(".")[1] for b in method.binds for t in b.targets if t.startswith("self.") and t.count(".") == 1}
        return names

    def failing_state(self, bind: Bind) -> bool:
        state = bind.value.literal_state or ""
        return state in FAILED_STATES

    def updater_transition(self, call: Call, methods: frozenset[str] = TASK_TRANSITIONS) -> bool:
        """``updater.failed()``: a ``TaskUpdater`` call that moves a task's state; the
        receiver known by its type, or by its name when nothing else is known of it."""
        if call.method not in methods or not call.receiver:
            return False
        atoms = self.analysis.resolve(self.analysis.values(call.scope).receiver(call))
        if any(a[0] == TYPE and a[1] in UPDATER_TYPES for a in atoms):
            return True
        return not atoms and "updater" in call.receiver.lower()

    # -- caches and re-reads --
    def is_probe(self, fetch: Call) -> bool:
        """A raw GET of the card URL whose response is only checked for its status
        (``return r.status_code == 200``, ``r.raise_for_status()``) and kept nowhere: a
        readiness probe, which reads no card. An SDK fetch returns a card, never a probe."""
        return fetch.method in HTTP_READS and self._only_status_read(fetch, CALLER_DEPTH)

    def _only_status_read(self, fetch: Call, depth: int) -> bool:
        """What ``fetch`` gives is only checked for its status; a response handed back
        (``return response``) is judged in each caller (``response = await get(http, url)``)."""
        scope = fetch.scope
        response = {t for b in scope.binds if any(c is fetch for c in b.value.calls) for t in b.targets}
        values = self.analysis.values(scope)  # and its copies: `response = held["response"]`
        copies = values.readers(fetch)
        response |= {t for b in copies for t in b.targets}
        if not response or any(self.outlives_the_call(t, scope) for t in response):
            return False
        handed = [e for e in scope.exits if e.kind == "return" and dotted(e.value.node) in response]
        if handed:
            callers = self.callers(scope) if depth > 0 else []
            if not callers or not all(self._only_status_read(c, depth - 1) for c in callers):
                return False
        exprs = [t.expr for t in scope.tests] + [e.value for e in scope.exits if not any(e is h for h in handed)]
        exprs += [b.value for b in scope.binds if not any(c is fetch for c in b.value.calls) and b not in copies]
        exprs += [c.args for c in scope.calls if c is not fetch]
        checked = bool(handed) or any(c.method in _STATUS_CHECKS for c in scope.calls if c.receiver in response)
        for expr in exprs:
            used = [key[len(t) + 1 :].split(".")[0] for key in expr.keys for t in response if key == t or key.startswith(t + ".")]
            if used and not any(f in STATUS_FIELDS for f in used):
                return False  # the response itself is used: passed on, returned
            if any(f and f not in STATUS_FIELDS for f in used):
                return False  # read: .json(), .text, .content
            checked = checked or bool(used)
        return checked and all(c.method in _STATUS_CHECKS for c in scope.calls if c.receiver in response)

    def stores_card_on_handed(self, call: Call) -> bool:
        """``call`` hands a lasting object (``self``, a module-level registry) to a helper
        that stores on it the card it fetches (``_load_card(self, url)`` setting
        ``self.card``): for the caller, a store on that object, as if made inline."""
        function = self.callee(call)
        fetches = [c for c in function.calls if self.chain(c, "card-fetch")] if function is not None else []
        if not fetches:
            return False
        card = self.derived(function, calls=fetches).keys()
        values = self.analysis.values(call.scope)
        for param in function.params:
            arg = call.argument(param.index - self.analysis.offset(call, function), param.name)
            if arg is None or not any(self.outlives_the_call(k, call.scope) for k in arg.value.keys):
                continue
            given = self.analysis.resolve(self.analysis.given(call, function, param, values), local=True)
            handed = {a[1] for a in given if a[0] == TYPE and isinstance(a[1], ClassFacts)}
            if len(handed) != 1:
                continue
            (cls,) = handed
            for name in self.analysis.names_stored_through_objects(cls):
                if any(
                    bind.scope is function and (bind.value.reads_any(card) or any(c is f for c in bind.value.calls for f in fetches))
                    for _values, bind in self.analysis.stores_through_objects(cls, name)
                ):
                    return True
        return False

    def caches(self, fetch: Call) -> bool:
        """The card outlives the call: kept on the object or in a module-level table, or
        served from such a place by an earlier ``return`` (``if fresh: return cached``)."""
        if self.stores_card_on_handed(fetch):
            return True
        scope = fetch.scope
        lasting = lambda key: self.outlives_the_call(key, scope)  # noqa: E731
        kept = self.derived(scope, calls=[fetch])
        for bind in scope.binds:
            if any(c is fetch for c in bind.value.calls) or (bind.order > fetch.order and bind.value.reads_any(kept.keys())):
                if any(lasting(t) for t in bind.targets):
                    return True
        if any(c.order > fetch.order and self.keeps(c, kept.keys()) for c in scope.calls):
            return True  # stored through a helper or a cache object
        served = {t for b in scope.binds if any(lasting(k) for k in b.value.keys) for t in b.targets}
        return any(
            e.kind == "return" and e.order < fetch.order and any(lasting(k) or k.split(".")[0] in served for k in e.value.keys)
            for e in scope.exits
        )

    def checks_expiry(self, test: Test) -> bool:
        """``if age > self.ttl:`` / ``if cached[1] > time.monotonic():``: an expiry word, or
        a freshness check against the clock, in the test or in the project function whose
        result it checks (``cached = self._get_cached(url); if cached: return cached``)."""
        if _expiry(test):
            return True
        scope = test.scope
        values = self.analysis.values(scope)
        for bind in scope.binds:
            if bind.order < test.order and test.expr.reads_any(set(bind.targets)):
                for call in (c for made in values.made_of(bind) for c in made.value.calls):
                    helper = self.callee(call)
                    if helper is not None and helper is not scope and any(_expiry(t) for t in helper.tests):
                        return True
        for call in test.expr.calls:
            helper = self.callee(call)
            if helper is not None and helper is not scope and any(_expiry(t) for t in helper.tests):
                return True
        return False

    def per_peer(self, loop: Frame, fetch: Call) -> bool:
        """``for url in urls: fetch(url)``, or a fetch through what the loop builds from its
        target (``resolver = A2ACardResolver(http, url)``): one fetch per peer."""
        scope = fetch.scope
        bind = loop_bind(scope, loop)
        if bind is None or any(self.chain(c, "send") or self.chain(c, "subscribe") for c in bind.value.calls):
            return False
        per_peer = set(bind.targets)
        for inner in scope.binds:  # in source order, so chains of them are followed
            if loop.start < inner.order <= loop.end and inner.value.reads_any(per_peer):
                per_peer.update(inner.targets)
        return not call_reads(fetch).isdisjoint(per_peer)

    def runs_once_in(self, loop: Frame, call: Call) -> bool:
        """``call`` runs only while a name is unset that the block it runs in then sets, and
        nothing else in ``loop`` binds that name (``if card is None: card = await fetch()``,
        ``if b is None: ...; b = factory.create(card)``): once per run of the loop, a lazy
        initialisation of a local as of an attribute (see :meth:`memoizes`)."""
        binds = self.analysis.values(call.scope).binds_of
        inner = call.path[call.path.index((loop, "body")) + 1 :]
        for depth, (frame, branch) in enumerate(inner):
            key = _unset(frame.test.shape, branch == "body") if frame.kind == "if" and frame.test is not None else None
            in_loop = [b for b in binds.get(key, ()) if loop.start < b.order <= loop.end]
            block = call.path[: len(call.path) - len(inner) + depth + 1]
            if in_loop and all(
                b.path[: len(block)] == block and not b.value.placeholder
                and all(f.kind == "with" for f, _ in b.path[len(block) :])
                for b in in_loop
            ):
                return True
        return False

    def under_deadline(self, scope: Scope, depth: int = CALLER_DEPTH) -> bool:
        """Every call of ``scope`` in sight runs under a deadline that cancels it: inside
        ``async with asyncio.timeout(30):``, given to ``asyncio.wait_for(..., timeout=60)``,
        or in a function itself only called so (a function with no caller has none)."""
        callers = self.callers(scope)
        return bool(callers) and all(
            any(frame.kind == "with" and frame.deadline for frame, _ in call.path)
            or any(self._cancels_after(outer, call) for outer in call.scope.calls if outer.order < call.order <= outer.end)
            or (depth > 0 and self.under_deadline(call.scope, depth - 1))
            for call in callers
        )

    def _cancels_after(self, outer: Call, call: Call) -> bool:
        """``outer`` is ``asyncio.wait_for(coro, timeout)`` with ``call`` making ``coro``, or
        a ``functools.partial`` of it (``functools.partial(asyncio.wait_for, coro, timeout=60)``)."""
        shift = 0
        if self.qualified(outer) == "functools.partial":
            first = outer.positional(0)
            imports = self.analysis.model_of(outer.scope).imports
            if first is None or not any(imported_name(key, imports) in DEADLINE_CALLS for key in first.value.reads):
                return False
            shift = 1
        elif self.qualified(outer) not in DEADLINE_CALLS:
            return False
        coroutine, timeout = outer.argument(shift, "fut"), outer.argument(shift + 1, "timeout")
        return coroutine is not None and any(c is call for c in coroutine.value.top) and timeout is not None and not timeout.none

    def reaches_a_task(self, call: Call) -> bool:
        """``call`` sends, cancels, subscribes to or gets a task, itself or in a callee
        (``poll_task()`` that re-reads the card and then polls)."""
        return any(self.chain(call, role) for role in TASK_ROLES)

    def decides(self, test: Test) -> bool:
        """What ``test`` chooses matters to a task: a branch it guards acts on one (sends,
        cancels, polls, subscribes, changes a state), leaves (``raise``, ``return``,
        ``break``, ``continue``), changes what the caller or a later call sees
        (``routes.clear()``, ``self._peers[name] = ...``) or binds what a later call on a
        task uses; an ``assert``
        aborts. Not a branch that only logs the newer card, nor a conditional value built
        for a log line or an event (``provider=card.get("provider") if card else None``)."""
        scope = test.scope
        if test.kind == "assert":
            return True
        if test.kind in ("ifexp", "comprehension"):
            enclosing = [c for c in scope.calls if c.order < test.order <= c.end]
            return not enclosing or any(self.reaches_a_task(c) for c in enclosing)
        facts = (*scope.calls, *scope.binds, *scope.exits, *scope.tests)
        frame = next((f for fact in facts for f, _ in fact.path if f.test is test), None)
        if frame is None:
            return True  # nothing to go by: as before
        inside = lambda fact: any(f is frame for f, _ in fact.path)  # noqa: E731
        if any(inside(e) for e in scope.exits) or any(g.test is test for g in scope.guards):
            return True
        if any(inside(c) and self.reaches_a_task(c) for c in scope.calls):
            return True
        if any(inside(c) and self._changes_shared_state(c) for c in scope.calls):
            return True
        later = [c for c in scope.calls if c.order > frame.end and self.reaches_a_task(c)]
        for bind in scope.binds:
            if inside(bind) and any((bind.keyed or "." in t) and self._shared(t, scope) for t in bind.targets):
                return True
            if inside(bind) and (self.state_change(bind) or any(
                c.args.reads_any(bind.targets) or (c.receiver or "") in bind.targets for c in later
            )):
                return True
        return False

    def _shared(self, key: str, scope: Scope) -> bool:
        """``key`` is seen beyond this call: kept on the object or module, or a parameter's."""
        return self.outlives_the_call(key, scope) or key.split(".")[0].split("[")[0] in {p.name for p in scope.params}

    def _changes_shared_state(self, call: Call) -> bool:
        """``routes.clear()``, ``self._peers.pop(name)``: a change the caller or a later call sees."""
        return call.method in MUTATING_METHODS and bool(call.receiver) and self._shared(call.receiver, call.scope)

    def until_success(self, fetch: Call) -> bool:
        """The loop leaves as soon as the fetch returned, or as soon as it returned something
        (``if card is not None: return True``, ``if r.status_code == 200: break``): a retry
        or a readiness probe, not a re-read."""
        return self.retry_checks(fetch) is not None

    def retry_checks(self, fetch: Call) -> list[Test] | None:
        """The tests a retry of ``fetch`` leaves its loop through once the fetch returned
        (``[]`` when it leaves right after it, also past the ``try`` the fetch is in), or
        None when the loop is no retry. A test that compares with anything else the function
        holds (``if card.version != old.version: break``) waits for a change, one whose
        branch acts on a task (cancels it) decides on the card, and a pass that sends a
        task before it leaves re-reads the card for each turn."""
        scope = fetch.scope
        depth = len(fetch.path)
        answers = {t for bind in scope.binds if any(self.reaches_a_task(c) for c in bind.value.calls) for t in bind.targets}
        result = self.derived(scope, calls=[fetch]).keys() - answers  # (a poll sent to the card's URL answers for the task)
        held = {b.split(".")[0] for bind in scope.binds for b in bind.targets} | {p.name for p in scope.params}
        acting = [c.order for c in scope.calls if self.reaches_a_task(c)]
        tries = [f for f, branch in fetch.path if f.kind == "try" and branch == "body"]
        past_try = [(f, branch) for f, branch in fetch.path if not any(f is t for t in tries)]

        def checks_the_result(frame) -> bool:
            keys = frame.test.expr.keys if frame.test is not None else {""}
            for key in keys:
                root, _, rest = key.partition(".")
                if root in result and rest and rest.split(".")[0] not in STATUS_FIELDS:
                    return False
                if root in result and not self.depends_on_fetch(Expr(reads={root}), frame.test, fetch):
                    return False  # made with the card's help, but not of it: a task's state polled at its URL
                if root not in result and root in held:
                    return False
            return not any(frame.start < order <= frame.end for order in acting)

        def on_success(e) -> int | None:
            """How much of ``e``'s path the fetch's returning path shares."""
            if e.path[:depth] == fetch.path:
                return depth
            if any(f is t for f, _ in e.path for t in tries):
                return None  # in a handler of the try around the fetch: it failed
            return len(past_try) if list(e.path[: len(past_try)]) == past_try else None

        found: list[Test] | None = None
        for e in scope.exits:
            shared = on_success(e) if e.kind in ("break", "return") and e.order > fetch.order else None
            if shared is None or any(fetch.order < order < e.order for order in acting):  # a turn sent first: no retry
                continue
            frames = [frame for frame, _ in e.path[shared:] if frame.kind == "if"]
            if all(checks_the_result(frame) for frame in frames):
                found = (found or []) + [frame.test for frame in frames if frame.test is not None]
        return found

    def reruns(self, fetch: Call, depth: int = CALLER_DEPTH) -> tuple[object, str] | None:
        """A loop that runs ``fetch`` again on each pass without it being a per-peer loop
        or a retry until success: in its function, or around a call of that function in a
        caller (which does not itself hand the card back): (the loop, a label)."""
        chain = self.chain(fetch, "card-fetch")
        if any(self.caches(step) or self.decorator_cache(step.scope) for step in chain[1:]):
            return None  # through a cache: its own expiry decides when it reads again
        if fetch.loops and not self.until_success(fetch):
            for loop in fetch.loops:
                if not self.per_peer(loop, fetch) and not self.runs_once_in(loop, fetch):
                    return LoopPlace(loop, fetch), "re-runs on every iteration of this loop, re-reading the card the last one fetched"
        if depth <= 0 or fetch.loops:
            return None
        for caller in self.callers(fetch.scope):
            if self.yields_card(caller) and self.fetch_in_sight(caller) is caller:
                continue  # the caller's own finding, at its call
            if self.memoizes(caller) or self.sets_its_guard(caller):
                continue  # runs once per object, however often its function runs
            for loop in caller.loops:
                # a poll of the task that re-reads the card is not a retry of the fetch
                retry = not self.reaches_a_task(caller) and self.until_success(caller)
                if loop.kind in ("for", "while") and not self.per_peer(loop, caller) and not retry and not self.runs_once_in(loop, caller):
                    name = fetch.scope.name
                    return caller, f"calls {name}() on every iteration of a loop: each pass re-reads the card"
            found = self.reruns(caller, depth - 1) if not caller.loops else None
            if found is not None:
                return found
        return None


def _unconditional(fact: Fact) -> bool:
    """``fact`` runs whenever its function does (no branch, loop or handler around it)."""
    return all(frame.kind in ("class", "function", "with") for frame, _ in fact.path)


def loop_bind(scope: Scope, frame: Frame) -> Bind | None:
    """The bind of a ``for`` loop's target (made while its iterable is read)."""
    return next((b for b in scope.binds if b.kind == "for" and b.path and b.path[-1][0] is frame), None)


def call_reads(call: Call) -> set[str]:
    """Keys a whole call expression reads: its arguments and those of calls in its
    receiver (``A2ACardResolver(http, url).get_agent_card()`` reads ``url``)."""
    keys = set(call.args.keys) | call.func_keys
    for other in call.scope.calls:
        if call.order < other.order <= call.end:
            keys |= other.args.keys
    receiver = call.receiver_call
    while receiver is not None:
        keys |= receiver.args.keys
        receiver = receiver.receiver_call
    if call.receiver:
        keys.add(call.receiver)
    return keys


def _is_card(atom: tuple) -> bool:
    return atom[0] == CARD


def _is_card_data(atom: tuple) -> bool:
    return atom[0] in CARD_KINDS


def _says_of_card(atoms: frozenset) -> bool:
    """A value derived from a card's fields, and from nothing of a task."""
    return any(a[0] in CARD_KINDS and a[0] != CARD for a in atoms) and not any(a[0] in (TASK, STATUS, STATE) for a in atoms)


def _is_skills(atom: tuple) -> bool:
    return atom[0] == SKILLS


def _unset(shape: tuple, holds: bool) -> str | None:
    """The key a test with ``shape`` requires to be unset when it is ``holds``:
    ``x is None`` / ``not x`` true, ``x is not None`` / ``x`` false."""
    if not shape:
        return None
    if shape[0] == "not":
        return _unset(shape[1], not holds)
    if shape[0] == "key":
        return None if holds else shape[1]
    if shape[0] == "cmp" and shape[3] == "None" and shape[1] in ("is", "is not", "==", "!="):
        if holds == (shape[1] in ("is", "==")) and shape[2]:
            return max(shape[2], key=len)
    return None


def _literal_strings(bind: Bind) -> list[str]:
    """The strings of a value written out as literals only (``("protocolVersion", "security")``),
    not those a value reads by (``card["skills"]``, ``card.get("skills")``)."""
    value = bind.value
    return [] if value.reads or value.calls else list(value.strings)


def _read_by(binds: list[Bind], fact: Fact) -> list[Bind]:
    """Of the binds of one loop or comprehension variable, those ``fact`` reads: a loop's
    anywhere; a comprehension's only inside it, within ``fact``'s condition or, for a bind,
    the comprehension of its value (the last of its block to end before it)."""
    def comprehension(bind: Bind) -> Frame | None:
        frame = bind.path[-1][0] if bind.path else None
        return frame if frame is not None and frame.kind == "comprehension" else None

    found = [bind for bind in binds if comprehension(bind) is None]
    inner = [
        bind for bind in binds
        if (frame := comprehension(bind)) is not None and bind.path[: len(fact.path)] == fact.path
        and (isinstance(fact, Test) or frame.end <= fact.order)
    ]
    if inner and isinstance(fact, Bind):
        last = max(comprehension(bind).end for bind in inner)
        inner = [bind for bind in inner if comprehension(bind).end == last]
    return found + inner


def _shape_keys(shape: tuple) -> set[str]:
    """Every key a condition of form ``shape`` reads."""
    kind = shape[0] if shape else ""
    if kind in ("not", "and", "or"):
        return set().union(*(_shape_keys(part) for part in shape[1:]))
    if kind == "cmp":
        return {*shape[2], *(shape[3] if shape[3] != "None" else ())}
    if kind in ("any", "all", "other"):
        return set(shape[1])
    return {shape[1]} if kind == "key" else set()


def _sdk_state_field(declared: tuple) -> bool:
    """A class field annotated ``TaskState`` or defaulting to one of its members."""
    annotation, default = declared
    return (annotation or "").rsplit(".", 1)[-1] == "TaskState" or (default is not None and _sdk_state(default.value))


def _sdk_state(value: Expr) -> bool:
    """``TaskState.working``, ``TASK_STATE_WORKING``: a member of the SDK's enum, not a string."""
    return value.literal_state is not None and not value.texts


def _expiry(test: Test) -> bool:
    """A test of the card's age: an expiry word, a when-it-was-read name, or the clock
    (not a once-flag such as ``if self._card_fetched:``)."""
    for key in test.expr.keys:
        words = {w for w in key.lower().replace(".", "_").split("_") if w}
        if words & EXPIRY_WORDS or (words & _WHEN_WORDS[0] and words & _WHEN_WORDS[1]):
            return True
    return any((call.callee or "").endswith(_CLOCKS) for call in test.expr.calls)


def _pins(values, bind: Bind) -> bool:
    """A digest handed back by a method that pins the card it hashes on ``self``
    (``self.card = card`` ... ``return digest``): what the object sends with is frozen."""
    scope = values.scope
    hashed = {key for made in values.made_of(bind) for key in made.value.keys}  # (`digest = held["digest"]`)
    pinned = any(t.startswith("self.") and b.value.reads_any(hashed) for b in scope.binds for t in b.targets)
    return pinned and any(e.kind == "return" and e.value.reads_any(set(bind.targets)) for e in scope.exits)


def _kept_elsewhere(call: Call) -> bool:
    """A capture passed straight on (``cls(client, contract_hash(card))``,
    ``metadata={"contract_digest": contract_hash(card)}``): it travels with what it is given to."""
    return any(any(c is call for c in other.args.calls) for other in call.scope.calls if other is not call)


def _task_ids(values, expr: Expr, fact: Fact, hops: int) -> list[frozenset[str]]:
    """What the value of ``expr`` (a message, a request, a body) carries as its task id: a
    literal field (``Message(task_id=tid)``, ``{"taskId": tid}``) or a field set on it
    afterwards (``message.task_id = tid``), following the binds it is made of; each as the
    keys the id is read from (empty when they are out of sight)."""
    found: list[frozenset[str]] = []
    for call in expr.calls:
        given = call.keyword("task_id")
        if given is not None and not given.none:
            found.append(frozenset(given.value.reads) if not given.value.top else frozenset())
    for slot, key in expr.slots.items():
        if slot in ("taskId", "task_id"):
            found.append(frozenset({key}))
    if expr.fields.get("task_id") and not found:
        found.append(frozenset())
    if hops <= 0:
        return found
    # what the value is made of: the names it reads, and what the models it builds are given
    # (``Message(**fields)``); not what a function it calls is given (``run(trace)``)
    built = {k for c in expr.calls if (c.method or "")[:1].isupper() for a in c.arguments for k in a.value.keys if "." not in k}
    for call in expr.top:  # `send(a2a_with_contract_hash(message, card))`: the message it hands back
        given = values.analysis.handed_back(call)
        if given is not None:
            found += _task_ids(values, given.value, fact, hops - 1)
    for key in expr.reads | built:
        for bind in values.below.get(key, ()):
            if any(t.split(".")[-1] == "task_id" for t in bind.targets) and not bind.value.placeholder and runs_before(bind, fact):
                found.append(frozenset(bind.value.reads) if not bind.value.top else frozenset())
        for bind in values.reaching(key, fact)[0]:
            found += _task_ids(values, bind.value, bind, hops - 1)
    return found


#: Where a call on a task names it: ``{"id": tid}``, ``TaskQueryParams(id=tid)``, ``task_id=tid``.
_TASK_ID_SLOTS = ("id", "taskId", "task_id")


def _acted_on_ids(values, call: Call) -> set[str]:
    """The keys (or quoted literals) the task ``call`` acts on is named by: a slot of a
    dict or a keyword of a request in its arguments (or in what they were bound to), or a
    keyword of the call."""
    found: set[str] = set()
    exprs = _made_of(values, call)
    for expr in exprs:
        found |= {key for slot, key in expr.slots.items() if slot in _TASK_ID_SLOTS}
        found |= _named_in(expr.node, _TASK_ID_SLOTS)
    for inner in (call, *(c for expr in exprs for c in expr.calls)):
        for name in _TASK_ID_SLOTS:
            given = inner.keyword(name)
            if given is not None:
                found |= set(given.value.reads) | _id_value(given.value.node)
    return found


def _supplied_ids(values, send: Call) -> set[str]:
    """The ids a send gives the task it submits, chosen by the client (the tasks/send era:
    params ``{"id": "job-7", "message": ...}``): the send creates the task of that id. Not
    a JSON-RPC request's own ``id``, nor a message's ``taskId`` (that continues a task)."""
    return {found for expr in _made_of(values, send) for found in _named_in(expr.node, ("id",))}


def _made_of(values, call: Call) -> list[Expr]:
    """``call``'s arguments, and what the names they read were bound to
    (``cancel = {"method": "tasks/cancel", "params": {"id": job}}``)."""
    exprs = [arg.value for arg in call.arguments]
    for arg in call.arguments:
        for key in arg.value.reads:
            exprs += [bind.value for bind in values.sources(key, call)]
    return exprs


def _id_value(node: cst.CSTNode | None) -> set[str]:
    """What a value that names a task is: the key it reads, or a string literal (quoted,
    so that no key equals it)."""
    if type(node) is cst.SimpleString and (text := string_value(node)) is not None:
        return {repr(text)}
    key = dotted(node) if node is not None else None
    return {key} if key else set()


def _named_in(node: cst.CSTNode | None, slots: tuple[str, ...]) -> set[str]:
    """What the dicts in ``node`` give ``slots`` (see :func:`_id_value`). A JSON-RPC
    request's own ``id``, beside its ``method``, names no task."""
    found: set[str] = set()
    if isinstance(node, cst.Dict):
        entries = [(string_value(e.key), e.value) for e in node.elements if isinstance(e, cst.DictElement)]
        request = any(slot == "method" for slot, _ in entries)
        for slot, value in entries:
            if slot in slots and not (request and slot == "id"):
                found |= _id_value(value)
            found |= _named_in(value, slots)
    elif isinstance(node, cst.Call):
        for arg in node.args:
            found |= _named_in(arg.value, slots)
    return found


def _rebound(values, keys: frozenset[str], start: Fact, end: Fact) -> bool:
    """Some of ``keys`` is bound between ``start`` and ``end``."""
    return any(
        start.order < b.order < end.order for key in keys for b in (*values.binds_of.get(key, ()), *values.below.get(key, ()))
    )


def _bound_anew(values, key: str, fact: Fact, call: Call) -> bool:
    """``key``'s name is bound after ``fact`` on every way from it to ``call``, also round
    a loop that holds both: by a bind after ``fact``, before ``call`` in a block that holds
    it. What the name held before ``fact`` cannot reach ``call``."""
    return any(not b.weak and fact.order < b.order and dominates(b, call) for b in values.binds_of.get(key.split(".")[0], ()))


def _up_to(key: str, name: str) -> str:
    """``key`` cut after the attribute ``name`` (``self.seen.get`` -> ``self.seen``)."""
    parts = key.split(".")
    return ".".join(parts[: parts.index(name, 1) + 1])


def _into(bind: Bind, keys: set[str]) -> bool:
    """``bind`` binds one of ``keys`` or stores into a field of one (``request.metadata =
    ...``, ``request.metadata.update(...)``, ``body["params"]["metadata"][k] = ...``)."""
    return any(_at_or_below(t, keys) for t in bind.targets)


def _at_or_below(key: str, keys: set[str]) -> bool:
    return key in keys or any(key.startswith(k + ".") for k in keys)


def _aliases(call: Call, keys: set[str], values: ScopeValues) -> set[str]:
    """Names bound, before ``call``, to what one of ``keys`` or a field of it holds (``meta =
    request.metadata``), also through a record or dict that held it (``held = {"m":
    request.metadata}; meta = held["m"]``) or a project function that returns that part of
    its argument (``meta = metadata_of(request)``): a store into them (``meta[k] = d``) is
    a store into ``keys``."""
    found = set()
    for bind in call.scope.binds:
        if bind.order < call.order and bind.copy_of is not None:
            copied = [bind.copy_of, *(s.copy_of for s in values.sources(bind.copy_of, bind) if s.copy_of is not None)]
        elif bind.order < call.order and bind.direct is not None:  # `meta = metadata_of(request)`
            copied = [values.analysis.handed_back_part(bind.direct)]
        else:
            continue
        if any(key is not None and _at_or_below(key, keys) for key in copied):
            found.update(t for t in bind.targets if "." not in t)
    return found


def argument_texts(call: Call, values: ScopeValues, hops: int = 2, returned: Callable[[Call], list[str]] | None = None) -> list[str]:
    """Strings, keys and fields that flow into ``call``'s arguments, through up to ``hops``
    assignments (and any number of plain copies): ``message = Message(metadata={"contract_digest":
    d}); send(message)``, and stores through a name for part of what is sent (``meta =
    request.metadata; meta[k] = d``, ``values``: ``call``'s function's). ``returned``: the
    texts of what a call on the way returns (``msg = build(job, terms)``)."""
    texts = [*call.args.strings, *call.args.keys, *call.args.fields]
    wanted, seen = set(call.args.keys), set()
    while hops > 0:
        wanted |= _aliases(call, wanted, values)
        feeding = [b for b in call.scope.binds if b.order < call.order and _into(b, wanted) and id(b) not in seen]
        if not feeding:
            break
        seen.update(map(id, feeding))
        wanted = {k for b in feeding for k in b.value.keys}
        texts += [t for b in feeding for t in (*b.value.strings, *b.value.keys, *b.value.fields)]
        texts += [t for b in feeding for t in b.targets]  # `request.metadata["contract_digest"] = d`
        if returned is not None:
            texts += [t for b in feeding for c in b.value.top for t in returned(c)]
        hops -= not all(b.copy_of is not None and b.direct is None for b in feeding)  # (`body = held["body"]`)
    return texts
