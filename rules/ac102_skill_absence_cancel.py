from __future__ import annotations

from a2alint.flow import flow_of
from a2alint.model import ModuleModel
from a2alint.rule import Note, Rule


class SkillAbsenceCancel(Rule):
    """A task is cancelled because a skill is missing from a card's `skills`.

    ## What it does
    Flags a `cancel` whose execution depends on a skill being absent from an
    Agent Card's `skills`: `x not in card.skills`, `not any(s.id == x for s
    in card.skills)`, `all(s.id != x ...)`, an empty filtered list (`not
    [...]`, `len([...]) == 0`), `x not in ids(card)` or `wanted - ids(card)`
    with a project helper returning the ids, a lookup that returned `None`,
    a helper that does one of these, a flag bound to one of these, the
    `else` of a presence test or of a `for` loop that breaks on finding the
    skill, or an early return guarded by presence.

    When the card whose skills decide was fetched after the task was
    submitted, AC101 is reported too, at the fetch: the cancel is wrong
    whatever card it reads (AC102 alone on a card read before sending) and
    the re-fetch is wrong whatever it decides (AC101 alone on a resend), so
    both findings stay, each where its fix goes.

    ## Why is this bad?
    Peers reorganise `skills` (into sub-agents, under new ids) without
    dropping support. A cancel on skill absence destroyed a task at 80%
    completion in the incident behind this rule. `skills` is capability
    data: stale or reshuffled, it never justifies destroying work.

    ## Example
    ```python
    card = await resolver.get_agent_card()
    if "translate" not in [s.id for s in card.skills]:
        await client.cancel_task(TaskIdParams(id=task.id))
    ```

    ## Use instead
    ```python
    task = await client.get_task(TaskQueryParams(id=task.id))
    if task.status.state == TaskState.failed:   # the task's own status decides
        report(task.status.message)
    ```
    Route by skills only before sending.

    ## Covers
    a2a-sdk 0.2 (`A2AClient.cancel_task`), 0.3 and 1.x (`Client.cancel_task`),
    python-a2a, raw JSON-RPC `tasks/cancel` / `CancelTask` and REST
    `POST /tasks/{id}:cancel`; card `skills` in SDK and raw JSON spellings.

    ## Limits
    - A parameter with no caller is taken for a card when its name says so
      (`card`, `agent_card`, `peer_card`, `fresh_card`; not `credit_card`),
      one with a type (`card: dict`) only if it is read as one (`card["skills"]`,
      there or in a function it is handed to) (the last resort; no finding of the
      public sweep rests on it). Two of this rule's examples need it: a
      helper given `card` by nobody in sight.
    """

    code = "AC102"
    name = "skill-absence-cancel"
    severity = "error"

    VALID = [
        """
from a2a.client import A2ACardResolver

async def run(client, resolver: A2ACardResolver, message, skill_id):
    card = await resolver.get_agent_card()
    if skill_id not in {s.id for s in card.skills}:
        return None  # routing before sending: fine
    async for event in client.send_message(message):
        print(event)
""",
        """
from a2a.types import TaskIdParams

async def give_up(client, task, attempts):
    if attempts > 5:  # a retry count, not capability data
        await client.cancel_task(TaskIdParams(id=task.id))
""",
        """
from a2a.types import TaskIdParams

async def stop(client, task, card, skill_id):
    if skill_id in {s.id for s in card.skills}:
        await client.cancel_task(TaskIdParams(id=task.id))  # cancels on presence (user asked to stop)
""",
    ]
    INVALID = [
        """
from a2a.client import A2ACardResolver
from a2a.types import TaskIdParams

async def reconcile(client, resolver: A2ACardResolver, task, skill_id):
    card = await resolver.get_agent_card()
    if skill_id not in [s.id for s in card.skills]:
        await client.cancel_task(TaskIdParams(id=task.id))  # expect: AC102
""",
        """
from a2a.types import CancelTaskRequest

async def reconcile(client, card, task, skill_id):
    skill = next((s for s in card.skills if s.id == skill_id), None)
    if skill is None:
        await client.cancel_task(CancelTaskRequest(id=task.id))  # expect: AC102
""",
        """
from a2a.types import TaskIdParams

def has_skill(card, skill_id):
    return any(s.id == skill_id for s in card.skills)

async def reconcile(client, card, task, skill_id):
    if has_skill(card, skill_id):
        return
    await client.cancel_task(TaskIdParams(id=task.id))  # expect: AC102
""",
        """
import httpx

def check(base, card, task_id, skill):
    if skill in [s["id"] for s in card["skills"]]:
        print("still supported")
    else:
        httpx.post(base, json={"jsonrpc": "2.0", "id": 3, "method": "tasks/cancel", "params": {"id": task_id}})  # expect: AC102
""",
    ]

    def check(self, model: ModuleModel) -> None:
        flow = flow_of(model)
        for call, chain in flow.playing("cancel"):
            scope = call.scope
            for test, holds in flow.guards(call):
                if flow.absence(test.shape, holds, scope):
                    notes = [Note(test.node, _label(test, holds, call)), *_lookups(flow, test), *_helper_notes(flow, chain)]
                    status = flow.status_call(scope)
                    if status is not None:
                        own = "the task's own status decide (get_task at line {line:status} reports failed, with its message)"
                    else:
                        own = "the task's own status decide (failed, with its message)"
                    self.report(
                        call.node,
                        "task cancelled because a skill is missing from an Agent Card's skills",
                        suggestion=(
                            f"do not cancel on capability data: let {own}, "
                            "and route by skills only before sending"
                        ),
                        notes=notes,
                        lines={"status": status.node} if status is not None else None,
                    )
                    break


def _label(test, holds: bool, cancel) -> str:
    """How the skill-absence test leads to the cancel."""
    skills = _skills_key(test.expr.keys) or "the card's skills"
    if test.owner is not None and any(frame.node is test.owner for frame, _ in cancel.path):
        if holds:
            return f"the cancel runs when this finds a skill missing from {skills}"
        return f"the cancel is in the else of this test for a skill in {skills}"
    return f"returns early while the skill is in {skills}, so the cancel below runs only when it is missing"


def _skills_key(keys) -> str | None:
    return min((k for k in keys if k.endswith(".skills")), key=len, default=None)


def _lookups(flow, test) -> list[Note]:
    """Where the value the test reads was looked up in a card's skills: a bind
    (``skill = next(... card.skills ...)``) or a same-module helper's ``return``."""
    notes = []
    for bind in test.scope.binds:
        skills = _skills_key(bind.value.keys)
        if bind.order < test.order and skills and test.expr.reads_any(set(bind.targets)):
            notes.append(Note(bind.node, f"{', '.join(bind.targets)} is looked up in {skills} here"))
    for call in test.expr.calls:
        helper = flow.callee(call)
        for exit_ in helper.exits if helper is not None else ():
            skills = _skills_key(exit_.value.keys)
            if exit_.kind == "return" and skills:
                notes.append(Note(exit_, f"{call.callee}() looks for the skill in {skills} here"))
                break
    return notes


def _helper_notes(flow, chain) -> list[Note]:
    """The cancel inside a same-module helper, and the helper calls on the way to it."""
    notes = [Note(node, label) for node, label in flow.helper_notes(chain[1:], "cancels the task")]
    if len(chain) > 1:
        notes.append(Note(chain[-1], f"the cancel inside {chain[-2].callee or chain[-2].method}()"))
    return notes
