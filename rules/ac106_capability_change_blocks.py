from __future__ import annotations

import libcst as cst

from a2alint.flow import CAPABILITY_FIELDS, Flow, field_of, flow_of
from a2alint.model import ModuleModel, Test
from a2alint.rule import Note, Rule


class CapabilityChangeBlocks(Rule):
    """Code aborts, raises or cancels because capability fields differ between two cards.

    ## What it does
    Flags a `raise`, a `return` that refuses to go on, or a cancel guarded
    by a comparison of capability fields (`skills`, `defaultInputModes`,
    `defaultOutputModes`, `capabilities`) between a cached and a newer card.

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
            blockers = [e for e in scope.exits if e.kind in ("raise", "return")]
            blockers += [c for c in scope.calls if flow.effective(c, "cancel")]
            for fact in blockers:
                for test, holds in flow.guards(fact):
                    if self._compares_capabilities(flow, test) and _runs_on_difference(test.node, holds):
                        self.report(
                            fact.node,
                            "blocks because capability fields differ between two Agent Cards",
                            suggestion=(
                                "only contract fields may block; re-read capability drift lazily, off the "
                                "critical path, and let the task's own error report a missing capability"
                            ),
                            notes=[Note(test.node, "compares capability fields of two cards")],
                        )
                        break

    @staticmethod
    def _compares_capabilities(flow: Flow, test: Test) -> bool:
        cards = flow.card_data(test.scope)
        bases = {
            key.rsplit(".", 1)[0]
            for key in test.expr.keys
            if "." in key and field_of(key) in CAPABILITY_FIELDS and key.rsplit(".", 1)[0] in cards
        }
        return len(bases) >= 2 and not flow.reads_contract(test.expr.keys, test.scope)


def _runs_on_difference(node: cst.CSTNode, holds: bool) -> bool:
    """Whether the guarded code runs when the compared values differ."""
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
        return _runs_on_difference(node.expression, not holds)
    if isinstance(node, cst.Comparison) and len(node.comparisons) == 1:
        operator = node.comparisons[0].operator
        if isinstance(operator, (cst.Equal, cst.Is)):
            return not holds
    return holds
