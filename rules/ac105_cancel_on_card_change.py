from __future__ import annotations

from a2alint.flow import FAILING_TRANSITIONS, Anchor, Flow, flow_of
from a2alint.model import Call, ModuleModel
from a2alint.rule import Note, Rule


class CancelOnCardChange(Rule):
    """An in-flight task is cancelled or failed because the peer's card changed.

    ## What it does
    Flags a cancel (or a transition to `failed`) of a task that was already
    submitted, guarded by a comparison of contract fields (by name, or through
    a variable ranging over their names: `[k for k in CONTRACT_KEYS if
    new.get(k) != old.get(k)]`), a contract hash or card digest, an ETag, the
    card's `version`, or a signature check; also a call of a project helper
    that fails the task it is given (`mark_failed(task)`), reported at the call.

    When the changed card was fetched after the task was submitted, AC101 is
    reported too, at the fetch: the cancel is wrong whatever card it compares
    (AC105 alone on a card pushed to the client) and the re-fetch is wrong
    whatever it decides (AC101 alone on a resend), so both findings stay,
    each where its fix goes.

    ## Why is this bad?
    The contract captured at send time governs a task for its whole life.
    Comparing cards belongs *before* sending, where a changed contract
    means "abort before send". Once a task is in flight, a changed card
    calls for a deferred state: poll the task's own status and escalate only
    after a bounded window. Send-then-cancel destroys work and can leave the
    task stuck when the new contract also guards `tasks/cancel`.

    ## Example
    ```python
    async for event in client.send_message(message):
        if contract_hash(await resolver.get_agent_card()) != frozen:
            await client.cancel_task(TaskIdParams(id=task_id))
    ```

    ## Use instead
    ```python
    if contract_hash(await resolver.get_agent_card()) != frozen:
        raise ContractChanged(peer)            # before sending: abort
    async for event in client.send_message(message):
        ...                                    # in flight: defer and poll get_task
    ```

    ## Covers
    a2a-sdk 0.2, 0.3 and 1.x clients, python-a2a, raw JSON-RPC/REST cancels,
    server-side `TaskUpdater.failed()/reject()/cancel()` transitions and
    direct `task.status.state = failed` assignments.

    ## Limits
    - A parameter with no caller is taken for a card when its name says so
      (`card`, `agent_card`, `peer_card`, `fresh_card`; not `credit_card`),
      one with a type (`card: dict`) only if it is read as one (`card["skills"]`,
      there or in a function it is handed to) (the last resort; no finding of the
      public sweep rests on it).
    - A `TaskUpdater` is known by its type; only when nothing is known of
      the receiver does the word `updater` in its name stand in.
    - A digest function out of sight (a parameter) is known by its name
      (`*contract_hash*`, as under AC103), and two values compared with
      each other are card validators when their names say `etag` (or a
      card's `digest`).
    """

    code = "AC105"
    name = "cancel-on-card-change"
    severity = "error"

    VALID = [
        """
from a2a.client import A2ACardResolver

async def send_checked(client, resolver: A2ACardResolver, message, frozen_hash, contract_hash):
    card = await resolver.get_agent_card()
    if contract_hash(card) != frozen_hash:
        raise RuntimeError("peer contract changed; not sending")  # abort before send
    async for event in client.send_message(message):
        print(event)
""",
        """
from a2a.types import TaskIdParams

async def run(client, message, deadline_passed):
    async for task, update in client.send_message(message):
        if deadline_passed():
            await client.cancel_task(TaskIdParams(id=task.id))
""",
    ]
    INVALID = [
        """
from a2a.client import A2ACardResolver
from a2a.types import TaskIdParams

async def run(client, resolver: A2ACardResolver, message, frozen, contract_hash):
    async for task, update in client.send_message(message):
        card = await resolver.get_agent_card()
        if contract_hash(card) != frozen:
            await client.cancel_task(TaskIdParams(id=task.id))  # expect: AC105
""",
        """
from a2a.types import CancelTaskRequest

async def watch(client, request, cached_card, fresh_card):
    response = await client.send_message(request)
    if fresh_card.security_schemes != cached_card.security_schemes:
        await client.cancel_task(CancelTaskRequest(id=response.root.result.id))  # expect: AC105
""",
        """
from a2a.types import Task, TaskState

async def on_update(task: Task, card_etag_then, card_etag_now):
    if card_etag_now != card_etag_then:
        task.status.state = TaskState.failed  # expect: AC105
""",
    ]

    def check(self, model: ModuleModel) -> None:
        flow = flow_of(model)
        for scope in model.scopes:
            for call in scope.calls:
                chain = flow.chain(call, "cancel")
                if not chain and flow.updater_transition(call, FAILING_TRANSITIONS):
                    chain = [call]
                if not chain and _fails_a_task(flow, flow.state_change_through(call)):
                    chain = [call, flow.state_change_through(call)]  # `mark_failed(task)`
                if chain:
                    self._check(flow, call, chain)
            for bind in scope.binds:
                if flow.state_change(bind) and flow.failing_state(bind):
                    self._check(flow, bind, [bind])

    def _check(self, flow: Flow, fact, chain: list) -> None:
        """``chain``: ``fact``, then the calls into same-module helpers down to the cancel."""
        anchor = flow.submission(fact)
        if anchor is None and chain[-1] is not fact and flow.chain(chain[0], "cancel"):
            anchor = Anchor(chain[-1], "cancels a task the server already created", scope=fact.scope, live=True)
        elif anchor is None and getattr(fact, "method", None) and flow.chain(fact, "cancel"):
            anchor = Anchor(fact, "cancels a task the server already created", scope=fact.scope, live=True)
        if anchor is None:
            return
        evidence = [
            (t.node, f"the card-change comparison ({_compared(flow, t)}) that decides this")
            for t, _ in flow.guards(fact) if flow.reads_contract(t)
        ]
        check = flow.verification(fact)
        if check is not None:
            evidence.append((check.node, "the card's signature check this depends on"))
        if not evidence:
            return
        notes = [Note(node, label) for node, label in (*anchor.notes(), evidence[0]) if node is not fact]
        notes += [Note(node, label) for node, label in flow.helper_notes(chain[1:], "cancels the task")]
        if len(chain) > 1:
            notes.append(Note(chain[-1], f"the cancel inside {chain[-2].callee or chain[-2].method}()"))
        if anchor.is_send:
            where = "before the send at line {line:send} and abort there"
        else:
            where = "before sending and abort there"
        self.report(
            fact.node,
            "in-flight task cancelled or failed because the peer's Agent Card changed",
            suggestion=(
                f"compare cards {where}; for a task in flight, defer, poll the task's own status, and "
                "escalate only after a bounded window"
            ),
            notes=notes,
            lines={"send": anchor.node} if anchor.is_send else None,
            flow=[*anchor.path(), evidence[0][0], *(c.node for c in chain)],
        )


def _fails_a_task(flow: Flow, change) -> bool:
    """``change`` (a state change a helper makes) fails or cancels the task."""
    if isinstance(change, Call):
        return flow.updater_transition(change, FAILING_TRANSITIONS)
    return change is not None and flow.failing_state(change)


def _compared(flow: Flow, test) -> str:
    """The contract fields, hashes or validators ``test`` compares: ``security_schemes``."""
    return ", ".join(flow.compared_contract_fields(test)) or "of the card"
