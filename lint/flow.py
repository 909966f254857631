"""Flow analysis: the questions rules ask of a module's facts.

"Which names hold an Agent Card here?", "which values derive from this call?",
"does this value reach a hash?". Answers are computed once per scope from the
facts the single traversal recorded, and cached on the :class:`Flow`.
"""

from __future__ import annotations

import re
from typing import Iterable

import libcst as cst

from a2alint.model import Bind, Call, ModuleModel, Scope, dotted

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


def flow_of(model: ModuleModel) -> "Flow":
    """The module's one flow analysis, shared by every rule."""
    if model.flow is None:
        model.flow = Flow(model)
    return model.flow


class Flow:
    def __init__(self, model: ModuleModel) -> None:
        self.model = model
        self.api = model.api
        self._cards: dict[object, set[str]] = {}

    # -- values --
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
        for bind in scope.binds:
            call = bind_call(bind)
            for target in bind.targets:
                if is_card_name(target):
                    seeds.add(target)
                elif call is not None and self.api.type_of_call(call) in CARD_TYPES:
                    seeds.add(target)
                elif any("card-fetch" in inner.roles for inner in bind.value.calls):
                    seeds.add(target)  # `card = httpx.get(card_url).json()`
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
            if callee.rsplit(".", 1)[-1] in ("MessageToDict", "MessageToJson", "vars", "asdict"):
                key = dotted(node.args[0].value)
        if key is None and isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
            if node.func.attr.value in ("model_dump_json", "json", "SerializeToString", "to_json"):
                key = dotted(node.func.value)
        if key is None and isinstance(node, cst.Attribute) and node.attr.value == "__dict__":
            key = dotted(node.value)
        return key is not None and key in self.card_keys(scope)

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

    def is_builtin(self, call: Call, name: str) -> bool:
        """A call of the built-in ``name``, not shadowed by an import or a definition."""
        return call.callee == name and name not in self.model.imports and name not in self.api.defined


def _is_hashlib(call: Call) -> bool:
    name = call.qualified or ""
    return name.startswith("hashlib.") or name.startswith("hmac.")
