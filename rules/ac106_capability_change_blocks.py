from __future__ import annotations

from a2alint.flow import Flow, Origin, field_of, flow_of
from a2alint.values import CAPABILITY_FIELDS
from a2alint.model import ModuleModel, Test
from a2alint.rule import Note, Rule


class CapabilityChangeBlocks(Rule):
    """Code aborts, raises or cancels because capability fields differ between two cards.

    ## What it does
    Flags a `raise` (or a call of a project helper that always raises), a
    `return` that refuses to go on, or a cancel guarded
    by a comparison of capability fields (`skills`, `defaultInputModes`,
    `defaultOutputModes`, `capabilities`) between a cached and a newer card:
    written out, field by field through a variable that names the fields,
    bound to a flag first, made by a project helper that returns it, or as a
    difference of their sets (`ids(old) - ids(new)`).

    ## Why is this bad?
    Stale capability data is a cheap, recoverable failure that the task's
    own error surfaces; only contract fields (`protocolVersion`,
    `securitySchemes`, `security`) are allowed to block. Blocking on a
    reshuffled `skills` list stops healthy delegations.

    ## Example
    ```python
    if fresh.skills != cached.skills:
        raise PeerChanged(peer)
    ```

    ## Use instead
    ```python
    if contract_hash(fresh) != contract_hash(cached):
        raise PeerChanged(peer)       # only the contract blocks
    schedule_refresh(peer)            # capability drift: re-read lazily
    ```

    ## Covers
    a2a-sdk 0.2, 0.3 and 1.x cards (pydantic and protobuf), raw JSON cards
    (`defaultInputModes`), python-a2a and fasta2a cards.

    ## Limits
    - A parameter with no caller is taken for a card when its name says so
      (`card`, `agent_card`, `peer_card`, `fresh_card`; not `credit_card`),
      one with a type (`card: dict`) only if it is read as one (`card["skills"]`,
      there or in a function it is handed to) (the last resort; no finding of the
      public sweep rests on it).
    - Which compared card is the newer one is known from where each comes
      from; names (`cached`, `latest`) only word the message when both come
      from out of sight.
    """

    code = "AC106"
    name = "capability-change-blocks"
    severity = "warning"

    VALID = [
        """
from a2a.client import A2ACardResolver

async def refresh(resolver: A2ACardResolver, cached, log):
    fresh = await resolver.get_agent_card()
    if fresh.skills != cached.skills:
        log.info("peer reorganised its skills")  # noted, not blocking
    return fresh
""",
        """
from a2a.client import A2ACardResolver

async def check(resolver: A2ACardResolver, cached):
    fresh = await resolver.get_agent_card()
    if fresh.security_schemes != cached.security_schemes:
        raise RuntimeError("contract changed")  # contract fields may block
""",
    ]
    INVALID = [
        """
from a2a.client import A2ACardResolver

async def check(resolver: A2ACardResolver, cached_card):
    fresh_card = await resolver.get_agent_card()
    if fresh_card.skills != cached_card.skills:
        raise RuntimeError("peer changed")  # expect: AC106
""",
        """
from a2a.types import TaskIdParams

async def guard(client, task, old_card, new_card):
    if set(new_card["defaultInputModes"]) != set(old_card["defaultInputModes"]):
        await client.cancel_task(TaskIdParams(id=task.id))  # expect: AC106
""",
        """
from a2a.client import A2ACardResolver

async def send_if_same(client, resolver: A2ACardResolver, card, message):
    latest = await resolver.get_agent_card()
    if latest.capabilities != card.capabilities:
        return None  # expect: AC106
    return [e async for e in client.send_message(message)]
""",
    ]

    def check(self, model: ModuleModel) -> None:
        flow = flow_of(model)
        for scope in model.scopes:
            blockers = [(e, [e]) for e in scope.exits if e.kind in ("raise", "return")]
            blockers += [(c, chain) for c in scope.calls if (chain := flow.chain(c, "cancel"))]
            blockers += [(c, [c]) for c in scope.calls if flow.always_raises(c)]
            compares: dict[int, bool] = {}  # id(test) -> whether it compares capability data

            def blocks_on(test: Test, holds: bool) -> tuple | None:
                """The form of ``test`` when ``holds`` on it runs on a capability difference."""
                known = compares.get(id(test))
                if known is False:
                    return None
                shape = flow.condition(test.shape, scope)
                if known is None:
                    known = compares[id(test)] = self._compares_capabilities(flow, test, shape)
                return shape if known and _runs_on_difference(flow, shape, holds, scope, test) else None

            first_on_path: dict[tuple[int, str], tuple | None] = {}
            for fact, chain in blockers:
                found = _first_guard(flow, scope, fact.path, blocks_on, first_on_path) or next(
                    ((test, shape) for test, holds in flow.exit_guards(fact) if (shape := blocks_on(test, holds)) is not None), None
                )
                if found is not None:
                    test, shape = found
                    named = {field_of(k) for k in flow.condition_keys(test)} | flow.variable_fields(test)
                    fields = sorted(named & CAPABILITY_FIELDS)
                    cards = _cards(flow, test)
                    what = f"capability fields ({', '.join(fields)})" if fields else "capability data (skills, modes)"
                    notes = [Note(test.node, f"compares {what} of two cards")]
                    for base, where, age in cards:
                        if where is not None:
                            notes.append(Note(where.node, f"the {age or 'compared'} card ({base}), {where.here(scope)}"))
                    notes += [Note(node, label) for node, label in flow.helper_notes(chain[1:], "cancels the task")]
                    if len(chain) > 1:
                        notes.append(Note(chain[-1], f"the cancel inside {chain[-2].callee or chain[-2].method}()"))
                    self.report(
                        fact.node,
                        "blocks because capability fields differ between two Agent Cards",
                        suggestion=(
                            "block only on contract fields (compare the contract hashes of "
                            f"{' and '.join(base for base, _, _ in cards[:2]) or 'the two cards'}); re-read capability drift lazily, "
                            "off the critical path, and let the task's own error report a missing capability"
                        ),
                        notes=notes,
                    )

    @staticmethod
    def _compares_capabilities(flow: Flow, test: Test, shape: tuple) -> bool:
        """The test (of form ``shape``) compares capability data of two cards: their fields
        (``fresh.skills != cached.skills``) or values derived from them (``old != new``, sets
        of skill ids, ``ids(old) - ids(new)``), itself or through a helper it calls."""
        if flow.reads_contract(test):
            return False
        if len(_bases(flow, test)) >= 2:
            return True
        return _capability_comparison(flow, shape, test.scope, test, 2)


def _first_guard(flow: Flow, scope, path, blocks_on, known: dict) -> tuple | None:
    """The outermost condition on control ``path`` (in ``scope``) that ``blocks_on`` gives a
    form for, with that form. ``known``: the answer for each (frame, branch) of the paths
    walked before, for the path down to it: a frame's path is the same in every fact below
    it, so each is walked once (an ``elif`` chain nests as deep as it is long, and its
    exits' paths, walked whole each, made the rule quadratic in the chain)."""
    depth = len(path)
    while depth and (id(path[depth - 1][0]), path[depth - 1][1]) not in known:
        depth -= 1
    found = known[id(path[depth - 1][0]), path[depth - 1][1]] if depth else None
    for frame, branch in path[depth:]:
        if found is None:
            found = next(
                ((test, shape) for test, holds in flow.branch_guards(scope, frame, branch) if (shape := blocks_on(test, holds)) is not None),
                None,
            )
        known[id(frame), branch] = found
    return found


def _capability_comparison(flow: Flow, shape: tuple, scope, at, depth: int) -> bool:
    """``shape`` (a condition of ``scope``, asked at ``at``) compares the capability data of
    two values, or calls a project function that returns such a comparison."""
    while shape and shape[0] == "not":
        shape = shape[1]
    if shape and shape[0] in ("and", "or"):
        return any(_capability_comparison(flow, part, scope, at, depth) for part in shape[1:])
    helper = _helper(flow, shape, scope) if depth > 0 else None
    if helper is not None:
        return any(
            _capability_comparison(flow, flow.condition(exit_.shape, helper), helper, exit_, depth - 1)
            for exit_ in helper.exits if exit_.kind == "return" and exit_.shape
        )
    if not shape or shape[0] != "cmp" or shape[1] not in _COMPARED or shape[3] == "None":
        return False
    left, right = (_maximal(keys) for keys in (shape[2], shape[3]))
    if left == right:
        return False
    return all(
        any(a[0] in ("skills", "capability") for k in keys for a in flow.atoms(k, at))
        or flow.operand_holds(shape, side, scope, None, _is_capability)
        for side, keys in enumerate((left, right))
    )


#: Comparisons of two cards' capability data (``in``: the items of one among the other's).
_COMPARED = ("==", "!=", "is", "is not", "in", "not in")


def _is_capability(atom: tuple) -> bool:
    return atom[0] in ("skills", "capability")


def _helper(flow: Flow, shape: tuple, scope):
    """The project function a condition of form ``("call", i)`` calls."""
    if not shape or shape[0] != "call" or shape[1] >= len(scope.calls):
        return None
    return flow.callee(scope.calls[shape[1]])


def _maximal(keys: frozenset[str]) -> set[str]:
    """The longest of the keys an operand reads (``old`` for ``{"old", "old.x"}`` -> ``old.x``)."""
    return {k for k in keys if not any(other.startswith(k + ".") for other in keys)}


def _bases(flow: Flow, test: Test) -> set[str]:
    """The cards whose capability fields ``test`` reads, by name (``fresh.skills``) or by a
    variable that names them (``fresh.get(k)`` for ``k`` in ``("skills", "capabilities")``)."""
    cards = flow.card_data(test.scope)
    keys = flow.condition_keys(test)
    found = {
        key.rsplit(".", 1)[0]
        for key in keys
        if "." in key and field_of(key) in CAPABILITY_FIELDS and key.rsplit(".", 1)[0] in cards
    }
    if flow.variable_fields(test) & CAPABILITY_FIELDS:
        found |= {key for key in keys if "." not in key and key in cards}
    return found


def _cards(flow: Flow, test: Test) -> list[tuple[str, Origin | None, str | None]]:
    """The compared cards, the newer first: each with where it comes from and whether it is
    the ``newer`` or the ``cached`` one (the one fetched here is newer; else by its name)."""
    found = [(base, flow.origin(test.scope, base, test)) for base in sorted(_bases(flow, test))]
    fetched = [
        base for base, where in found
        if where is not None and where.how == "fetched" and (where.bind is None or where.bind.scope is test.scope)
    ]
    if len(fetched) == 1:
        ages = {base: "newer" if base in fetched else "cached" for base, _ in found}
    else:
        ages = {base: _age(base) for base, _ in found}
        named = set(ages.values()) - {None}
        if len(named) == 1:  # the other one is the other age
            other = ({"newer", "cached"} - named).pop()
            ages = {base: age or other for base, age in ages.items()}
    return sorted(((base, where, ages[base]) for base, where in found), key=lambda card: card[2] != "newer")


_NEWER = {"fresh", "new", "newer", "latest", "current", "live", "remote"}
_OLDER = {"cached", "cache", "old", "older", "prev", "previous", "last", "known", "pinned", "stored", "saved", "original", "first"}


def _age(key: str) -> str | None:
    """``fresh_card`` is the newer card, ``cached_card`` the older one, by name."""
    words = set(key.lower().replace(".", "_").split("_"))
    if words & _OLDER:
        return "cached"
    if words & _NEWER:
        return "newer"
    return None


def _runs_on_difference(flow: Flow, shape: tuple, holds: bool, scope, at, depth: int = 2) -> bool:
    """Whether the guarded code runs when the compared values differ (through a helper
    that returns the comparison too). Of ``a and b``, the parts that compare capability
    data decide: any of them when each part has the value, all of them when one may not."""
    kind = shape[0] if shape else ""
    if kind == "not":
        return _runs_on_difference(flow, shape[1], not holds, scope, at, depth)
    if kind in ("and", "or"):
        parts = shape[1:]
        compared = [part for part in parts if _capability_comparison(flow, part, scope, at, depth)]
        if (kind == "and") == holds:  # every part has the value `holds`
            return any(_runs_on_difference(flow, part, holds, scope, at, depth) for part in compared)
        return len(compared) == len(parts) and all(_runs_on_difference(flow, part, holds, scope, at, depth) for part in parts)
    if kind == "cmp" and shape[1] in ("==", "is", "in"):
        return not holds
    helper = _helper(flow, shape, scope) if depth > 0 else None
    if helper is not None:
        returned = next((e for e in helper.exits if e.kind == "return" and e.shape), None)
        if returned is None:
            return False
        return _runs_on_difference(flow, flow.condition(returned.shape, helper), holds, helper, returned, depth - 1)
    return holds
