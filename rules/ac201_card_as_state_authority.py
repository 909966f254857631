from __future__ import annotations

import re
from typing import Iterable

import libcst as cst

from a2alint.flow import Flow, flow_of
from a2alint.model import Call, Fact, ModuleModel, Scope, child_nodes, dotted
from a2alint.rule import Note, Rule

STATE_SETTER = re.compile(r"^(set_(task_)?state|update_task_state|mark_\w+|transition\w*)$")


class CardAsStateAuthority(Rule):
    """A task's state is changed on the strength of the Agent Card.

    ## What it does
    Flags a task state change (an assignment to a task's `state`/`status`, a
    `TaskUpdater` transition, a state-setting helper) that runs inside a
    branch guarded by signature verification of the card, or whose new state
    is derived from card fields, instead of from the task's own status
    (`get_task`, the status stream).

    ## Why is this bad?
    A signed card proves *who* the agent is and *what it declared* when it
    signed; it says nothing about what the agent is doing to a given task
    now. Reconcilers that cancel, fail or retry tasks because the card
    verified (or changed) produced 40-minute retry storms and stuck tasks.
    Agent Cards declare no task states in any protocol version.

    ## Example
    ```python
    verify(card)
    task.status.state = TaskState.completed
    ```

    ## Use instead
    ```python
    verify(card)                                   # identity only
    task = await client.get_task(TaskQueryParams(id=task.id))
    record(task.status.state)                      # the task's own status
    ```

    ## Covers
    a2a-sdk 0.3.21+ and 1.x `create_signature_verifier` and
    `signature_verifier=`, crewai `verify_agent_card_signature`, jws/jwt
    checks of `card.signatures`, `TaskUpdater` (all versions), direct
    `task.status.state` assignments.

    ## Limits
    - An untyped parameter with no caller in the project is taken for a card
      when its name ends in `card` (the last resort; no finding of the
      public sweep rests on it). One of this rule's examples needs it.
    - A signature check or a state setter out of sight is known by its name:
      `verify*signature`, `verify*card` / `set_task_state`,
      `update_task_state`, `mark_*`, `transition*`; and a `TaskUpdater` of
      unknown type by the word `updater`.
    """

    code = "AC201"
    name = "card-as-state-authority"
    severity = "error"

    VALID = [
        """
from a2a.utils.signing import create_signature_verifier

async def reconcile(client, card, task_id, keys, query):
    verify = create_signature_verifier(keys, ["ES256"])
    verify(card)  # identity only
    task = await client.get_task(query)
    return task.status.state
""",
        """
from a2a.types import TaskState

async def on_status(event, task):
    task.status.state = event.status.state  # from the task's own status stream
""",
    ]
    INVALID = [
        """
from dataclasses import dataclass
from a2a.types import TaskState
from a2a.utils.signing import create_signature_verifier

@dataclass
class Ledger:  # a record of this code's own naming: its state field is a task state
    remote_id: str
    state: TaskState = TaskState.submitted

def settle(rows: list[Ledger], extra: list[dict], held_card, key_provider):
    verify = create_signature_verifier(key_provider, ["ES256"])
    try:
        verify(held_card)
    except Exception:
        return
    for row in rows:
        row.state = TaskState.working  # expect: AC201
    for rec in extra:
        rec["state"] = "working"  # expect: AC201
""",
        """
from a2a.types import TaskState
from a2a.utils.signing import create_signature_verifier

def reconcile(task, card, key_provider):
    verifier = create_signature_verifier(key_provider, ["RS256"])
    try:
        verifier(card)
        task.status.state = TaskState.completed  # expect: AC201
    except Exception:
        task.status.state = TaskState.failed  # expect: AC201
""",
        """
from a2a.server.tasks import TaskUpdater

async def settle(updater: TaskUpdater, card, verify_card_signature):
    if verify_card_signature(card):
        await updater.complete()  # expect: AC201
""",
        """
from a2a.types import TaskState

def restore(task, card):
    task.status.state = TaskState(card.metadata["last_state"])  # expect: AC201
""",
    ]

    def check(self, model: ModuleModel) -> None:
        flow = flow_of(model)
        for scope in model.scopes:
            changes: list[Fact] = [b for b in scope.binds if flow.state_change(b)]
            changes += [c for c in scope.calls if flow.state_change(c) or self._setter(flow, c)]
            for change in changes:
                evidence = self._verification(flow, scope, change) or self._from_card(flow, scope, change)
                if evidence is None:
                    continue
                node, label, claim = evidence
                lines = {"check": node}
                status = flow.status_call(scope)
                if status is not None:
                    lines["status"] = status.node
                channel = "get_task at line {line:status}" if status is not None else "get_task"
                self.report(
                    change.node,
                    "task state changed on the strength of the Agent Card, not the task's own status",
                    suggestion=(
                        f"{claim}; take the task's state from its status channel ({channel} or the status stream)"
                    ),
                    notes=[Note(node, label)],
                    lines=lines,
                )

    @staticmethod
    def _setter(flow: Flow, call: Call) -> bool:
        """A state-setting function out of sight (``set_task_state(t, ...)``), given a
        task-state value."""
        if not (call.method and STATE_SETTER.match(call.method)) or flow.callee(call) is not None:
            return False
        return any(a.value.literal_state or flow.holds(a.value, call, ("state",)) for a in call.arguments)

    @staticmethod
    def _verification(flow: Flow, scope: Scope, change: Fact):
        check = flow.verification(change, sequential=True)
        if check is None:
            return None
        value = change.value if hasattr(change, "value") else change.args
        if any(".status" in f".{key}" for key in value.keys) or flow.holds(value, change, ("status", "task")):
            return None  # the new state comes from a task's own status (get_task, the status stream)
        claim = "the signature check at line {line:check} proves who the agent is, not what it did to the task"
        if any(test.node is check.node or any(c is check for c in test.expr.calls) for test, _ in flow.guards(change)):
            label = "the state change depends on this signature check of the card"
        elif any(f.kind == "try" and b == "handlers" for f, b in change.path):
            label = "the state is set when this signature check of the card fails"
        else:
            label = "the state is set once this signature check of the card passes"
        return check.node, label, claim

    @staticmethod
    def _from_card(flow: Flow, scope: Scope, change: Fact):
        value = change.value if hasattr(change, "value") else change.args
        cards = flow.card_data(scope)
        if not any(key in cards for key in value.keys) or value.node is None:
            return None
        read = _card_read(value.node, cards) or value.node
        key = dotted(read) or "the card"
        return read, f"the new state is read from the card here ({key})", f"{key} is what the card claims, not the task's state"


def _card_read(node: cst.CSTNode, cards: Iterable[str]) -> cst.CSTNode | None:
    """The outermost expression under ``node`` that reads a card or a field of one."""
    stack = [node]
    while stack:
        current = stack.pop(0)
        key = dotted(current)
        if key is not None and any(key == card or key.startswith(card + ".") for card in cards):
            return current
        stack.extend(child_nodes(current))
    return None
