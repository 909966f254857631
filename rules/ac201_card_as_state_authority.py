from __future__ import annotations

import re
from typing import Iterable

import libcst as cst

from a2alint.flow import FAILING_TRANSITIONS, Flow, flow_of
from a2alint.model import Bind, Call, Fact, ModuleModel, Scope, child_nodes, dotted
from a2alint.rule import Note, Rule

STATE_SETTER = re.compile(r"^(set_(task_)?state|update_task_state|mark_\w+|transition\w*)$")


class CardAsStateAuthority(Rule):
    """A task's state is changed on the strength of the Agent Card.

    ## What it does
    Flags a task state change (an assignment to a task's `state`/`status`, a
    `TaskUpdater` transition, a state-setting helper, a call of a project
    function that makes one on what it is given, reported at the call) that runs inside a
    branch guarded by signature verification of the card, whose new state
    is derived from card fields, or that runs only because of what the card
    says (a skill, a capability, an extension), instead of from the task's
    own status (`get_task`, the status stream).

    A task's record is known by what it holds, in any style (an SDK task,
    an ORM row, a dataclass, a dict): a task state (a `TaskState` member, a
    member of the project's own enum whose value is a task state, a state
    string), an id or a response a send returned. A status on a record
    that holds card data and nothing of a task (a partner directory
    entry) is not a task's. A state decided by card fields is reported on
    a record known to be a task's (not on a dict nothing is known of).

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
    `signature_verifier=`, crewai `verify_agent_card_signature`; checks of a
    token made from the card by PyJWT 2.x (`jwt.decode`, `decode_complete`,
    `PyJWS`/`PyJWT` methods), jwcrypto 1.x (`JWS.deserialize`/`verify`,
    `JWT(jwt=..., key=...)`, `JWT.validate`) and python-jose 3.x
    (`jws.verify`, `jwt.decode`), alone or in a project function of any
    module; other jws/jwt checks of `card.signatures`; `TaskUpdater` (all
    versions), direct `task.status.state` assignments. A JWT that is not
    made from a card (a push notification's) is not a check of the card.

    ## Limits
    - A parameter with no caller is taken for a card when its name says so
      (`card`, `agent_card`, `peer_card`, `fresh_card`; not `credit_card`),
      one with a type (`card: dict`) only if it is read as one (`card["skills"]`,
      there or in a function it is handed to) (the last resort; no finding of the
      public sweep rests on it). One of this rule's examples needs it.
    - A signature check or a state setter out of sight is known by its name:
      `verify*signature`, `verify*card` / `set_task_state`,
      `update_task_state`, `mark_*`, `transition*`; and a `TaskUpdater` of
      unknown type by the word `updater`.
    - A card kept as JSON text by a registry or a table is known by the
      name of its field when parsed: `json.loads(item["AgentCard"])`,
      `json.loads(row["agent_card"])`.
    - A record that holds card data (the peer's name, the contract digest)
      and nothing the analysis sees of a task (its task id read from a
      queue, not from a send) is taken for a directory entry: its status is
      not reported.
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
        """
from a2a.types import AgentCard
from a2a.utils.signing import SignatureVerificationError, create_signature_verifier

def relist(entry: dict, card: AgentCard, keys):
    entry["url"] = card.url  # a partner directory entry: it holds the card's URL, nothing of a task
    try:
        create_signature_verifier(keys, ["ES256"])(card)
    except SignatureVerificationError:
        entry["status"] = "rejected"
""",
        """
from a2a.types import AgentCard

def triage(pending: list[dict], card: AgentCard):
    offered = {skill.id for skill in card.skills}
    for job in pending:
        if job["skill"] not in offered:
            job["status"] = "rejected"  # a local job the card turned away: no task exists yet
""",
        """
import jwt
from a2a.types import Task, TaskState

def on_push(bearer: str, body: dict, key, rows: dict):
    jwt.decode(bearer, key, algorithms=["ES256"], audience="https://hooks.example/a2a")  # a push's JWT, not a card's
    pushed = Task.model_validate(body)
    if pushed.status.state == TaskState.completed:
        rows[pushed.id]["state"] = "completed"
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
        """
from a2a.server.tasks import TaskUpdater
from a2a.types import AgentCard

async def on_request(updater: TaskUpdater, card: AgentCard):
    if "fast-track" in {skill.id for skill in card.skills}:
        await updater.start_work()  # expect: AC201
""",
        """
from dataclasses import dataclass
import httpx
from jwcrypto import jws
from jwcrypto.common import JWException

@dataclass
class Hop:
    remote_id: str
    state: str = "submitted"

def settle(hops: list[Hop], base_url: str, payload: str, keyset):
    doc = httpx.get(base_url + "/.well-known/agent-card.json").json()
    sig = doc["signatures"][0]
    token = jws.JWS()
    token.deserialize(f"{sig['protected']}.{payload}.{sig['signature']}")
    try:
        token.verify(keyset)
    except JWException:
        return
    for hop in hops:
        hop.state = "completed"  # expect: AC201
""",
    ]

    def check(self, model: ModuleModel) -> None:
        flow = flow_of(model)
        for scope in model.scopes:
            changes: list[Fact] = [b for b in scope.binds if flow.state_change(b)]
            changes += [
                c for c in scope.calls
                if flow.state_change(c) or self._setter(flow, c) or flow.state_change_through(c) is not None
            ]
            for change in changes:
                evidence = (
                    self._verification(flow, change)
                    or self._from_card(flow, scope, change)
                    or self._decided_by_card(flow, scope, change)
                )
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
    def _verification(flow: Flow, change: Fact):
        check = flow.verification(change, sequential=True)
        if check is None or _own_status(flow, change):
            return None
        claim = "the signature check at line {line:check} proves who the agent is, not what it did to the task"
        if any((test.node is not None and test.node is check.node) or any(c is check for c in test.expr.calls) for test, _ in flow.guards(change)):
            label = "the state change depends on this signature check of the card"
        elif any(f.kind == "try" and b == "handlers" for f, b in change.path):
            label = "the state is set when this signature check of the card fails"
        else:
            label = "the state is set once this signature check of the card passes"
        return check.node, label, claim

    @staticmethod
    def _decided_by_card(flow: Flow, scope: Scope, change: Fact):
        """A condition the change runs under reads what the card says, and the record is
        known to be a task's (a state set on a record nothing is known of, before any send,
        may be a local job the card turned away). Not one whose branch
        calls on a task (the state then records a dispatch the card routed, or what that
        call did), nor a card-change comparison that fails the task (AC105's)."""
        made = _made(flow, change)
        if _own_status(flow, change) or (isinstance(made, Bind) and not flow.task_record(made)):
            return None
        failing = flow.failing_state(made) if isinstance(made, Bind) else made.method in FAILING_TRANSITIONS
        for test, _ in flow.guards(change):
            changed = change.targets if isinstance(change, Bind) else ()
            if not flow.reads_card_fields(test, changed) or (failing and flow.reads_contract(test)):
                continue
            branch = change.path
            if any(c.order > test.order and c.path[: len(branch)] == branch and flow.reaches_a_task(c) for c in scope.calls):
                continue
            claim = "the card says what the agent offers, not what it did to the task"
            return test.node, "the card's fields decide this state change", claim
        return None

    @staticmethod
    def _from_card(flow: Flow, scope: Scope, change: Fact):
        if _made(flow, change) is not change:
            return None  # what a helper sets is not what it is given
        value = change.value if hasattr(change, "value") else change.args
        cards = flow.card_data(scope)
        if not any(key in cards for key in value.keys) or value.node is None:
            return None
        read = _card_read(value.node, cards) or value.node
        key = dotted(read) or "the card"
        return read, f"the new state is read from the card here ({key})", f"{key} is what the card claims, not the task's state"


def _made(flow: Flow, change: Fact) -> Fact:
    """The state change itself: ``change``, or the one the helper it calls makes."""
    through = flow.state_change_through(change) if isinstance(change, Call) and not flow.state_change(change) else None
    return through or change


def _own_status(flow: Flow, change: Fact) -> bool:
    """The new state comes from a task's own status (``get_task``, the status stream)."""
    change = _made(flow, change)
    value = change.value if hasattr(change, "value") else change.args
    return any(".status" in f".{key}" for key in value.keys) or flow.holds(value, change, ("status", "task"))


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
