from __future__ import annotations

from a2alint.flow import flow_of
from a2alint.model import ModuleModel
from a2alint.rule import Note, Rule


class SkillAbsenceCancel(Rule):
    """A task is cancelled because a skill is missing from a card's `skills`.

    ## What it does
    Flags a `cancel` whose execution depends on a skill being absent from an
    Agent Card's `skills`: `x not in card.skills`, `not any(s.id == x for s
    in card.skills)`, a lookup that returned `None`, a same-module helper
    that does one of these, the `else` of a presence test, or an early
    return guarded by presence.

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
        for scope in model.scopes:
            for call in scope.calls:
                cancel = flow.effective(call, "cancel")
                if cancel is None:
                    continue
                for test, holds in flow.guards(call):
                    if flow.absence(test.node, holds, scope):
                        notes = [Note(test.node, "runs when a skill is missing from the card's skills")]
                        if cancel is not call:
                            notes.append(Note(cancel.node, "the cancel inside the helper"))
                        self.report(
                            call.node,
                            "task cancelled because a skill is missing from an Agent Card's skills",
                            suggestion=(
                                "do not cancel on capability data: let the task's own status (failed, with its "
                                "message) decide, and route by skills only before sending"
                            ),
                            notes=notes,
                        )
                        break
