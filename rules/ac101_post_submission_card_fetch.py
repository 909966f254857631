from __future__ import annotations

from a2alint.flow import TASK_ROLES, Flow, flow_of, runs_before
from a2alint.model import Call, ModuleModel, Scope
from a2alint.rule import Note, Rule

DECIDING_ROLES = ("cancel", "send", "subscribe")


class PostSubmissionCardFetch(Rule):
    """An Agent Card re-fetched after the task was submitted decides something.

    ## What it does
    Flags a card fetch that runs after a task was submitted (after a `send`
    in the same flow, in the body of a stream or polling loop, in a
    task-update handler, or in a helper called from those) when the fetched
    card, or anything derived from it, then decides something: a branch or
    loop condition, an `assert`, an argument to `cancel`/`send`/`subscribe`,
    a task-state change, or a replacement of the card or client the object
    holds. A fetch whose result is only logged is a diagnostic and is not
    flagged, nor is a card fetched to route a new task once the earlier one is
    no longer in flight (not its stream, poll loop or update handler), when the
    function touches no task but the ones it submits after the fetch.

    ## Why is this bad?
    On many peers a card fetch is a negotiation event, not a read: a probe
    after submission can itself move the task from `submitted` to
    `rejected`. Once the task has left `submitted`, the contract captured at
    send time governs it for its whole life; a newer card is a diagnostic at
    most, never a decision input.

    ## Example
    ```python
    async for event in client.send_message(message):
        card = await resolver.get_agent_card()
        if skill_id not in {s.id for s in card.skills}:
            await client.cancel_task(TaskIdParams(id=task_id))
    ```

    ## Use instead
    ```python
    frozen = contract_hash(card)          # captured once, before sending
    async for event in client.send_message(message):
        handle(event)                     # the task's own status decides
    ```

    ## Covers
    a2a-sdk 0.2 (`A2ACardResolver`, `A2AClient.get_client_from_agent_card_url`),
    0.3 (`ClientFactory.connect`), 1.x (`create_client(url)`,
    `ClientFactory.create_from_url`, `Client.get_extended_agent_card`),
    python-a2a, crewai `fetch_agent_card`, raw GETs of card URLs, and
    wrappers declared under `[tool.a2alint.api]`.
    """

    code = "AC101"
    name = "post-submission-card-fetch"
    severity = "error"

    VALID = [
        """
import logging
from a2a.client import A2ACardResolver

async def run(client, resolver: A2ACardResolver, message):
    async for event in client.send_message(message):
        card = await resolver.get_agent_card()
        logging.info("peer now advertises %s", card.version)  # a diagnostic only
""",
        """
from a2a.client import A2ACardResolver, ClientFactory

async def run(resolver: A2ACardResolver, factory: ClientFactory, message):
    card = await resolver.get_agent_card()  # before submission: fine
    if card.protocol_version != "0.3.0":
        raise RuntimeError("unsupported peer")
    client = factory.create(card)
    async for event in client.send_message(message):
        print(event)
""",
        """
from a2a.client import A2ACardResolver

async def run(client, resolver: A2ACardResolver, message, retries):
    if retries > 3:
        await client.send_message(message)
        return
    card = await resolver.get_agent_card()  # not after the send: it returned
    if card.skills:
        await client.send_message(message)
""",
        """
from a2a.client import A2ACardResolver, create_client

async def run_job(http, url, message):
    card = await A2ACardResolver(http, url).get_agent_card()  # routes this job's own new task
    assert card.capabilities.streaming, "peer must stream"
    client = await create_client(card)
    async for event in client.send_message(message):
        print(event)

async def main(http, url, first, second):
    await run_job(http, url, first)  # task 1 is streamed to its end
    await run_job(http, url, second)  # a fresh card for task 2; task 1 is not touched
""",
        """
from a2a.client import A2ACardResolver, A2AClient
from a2a.types import TaskIdParams

async def probe_cancel(http, url, first, message):
    await A2AClient(http, url=url).send_message(first)
    card = await A2ACardResolver(http, url).get_agent_card()  # for a task of its own
    client = A2AClient(http, agent_card=card)
    task = await client.send_message(message)
    if card.capabilities.streaming:
        await client.cancel_task(TaskIdParams(id=task.id))  # the task it just sent
""",
    ]
    INVALID = [
        """
from a2a.client import A2ACardResolver
from a2a.types import Message

async def converse(client, resolver: A2ACardResolver, first: Message, reply):
    task = await client.send_message(first)  # the task now waits for input
    card = await resolver.get_agent_card()  # expect: AC101
    if card.capabilities.streaming:  # the fresh card decides how the same task goes on
        await client.send_message(Message(task_id=task.id, parts=[reply]))
""",
        """
from a2a.client import A2ACardResolver
from a2a.types import TaskIdParams

async def run(client, resolver: A2ACardResolver, message, next_message, skill_id):
    task = await client.send_message(message)
    card = await resolver.get_agent_card()  # expect: AC101
    if skill_id not in {s.id for s in card.skills}:
        await client.cancel_task(TaskIdParams(id=task.id))  # the earlier task decided on
    await client.send_message(next_message)
""",
        """
from a2a.client import A2ACardResolver
from a2a.types import TaskIdParams

async def run(client, resolver: A2ACardResolver, message, skill_id):
    async for task, update in client.send_message(message):
        card = await resolver.get_agent_card()  # expect: AC101
        if skill_id not in {s.id for s in card.skills}:
            await client.cancel_task(TaskIdParams(id=task.id))
""",
        """
from a2a.client import A2AClient

async def poll(client: A2AClient, http, base_url, request, query):
    response = await client.send_message(request)
    peer = await A2AClient.get_client_from_agent_card_url(http, base_url)  # expect: AC101
    return await peer.get_task(query)
""",
        """
import httpx

async def watch(url, task_id, body):
    async with httpx.AsyncClient() as http:
        await http.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": body})
        while True:
            status = await http.post(url, json={"jsonrpc": "2.0", "id": 2, "method": "tasks/get", "params": {"id": task_id}})
            card = (await http.get(url + "/.well-known/agent-card.json")).json()  # expect: AC101
            if card["securitySchemes"] != body["frozen"]:
                break
""",
        """
from a2a.client import ClientFactory
from a2a.types import Task

class Host:
    def __init__(self, factory: ClientFactory):
        self.factory = factory

    async def on_update(self, task: Task):
        await self.refresh()

    async def refresh(self):
        self.client = await ClientFactory.connect(self.url)  # expect: AC101
""",
        """
from a2a.client import create_client

async def delegate(client, message, url):
    async for response in client.send_message(message):
        fresh = await create_client(url)  # expect: AC101
        assert fresh is not None
""",
    ]

    def check(self, model: ModuleModel) -> None:
        flow = flow_of(model)
        for call, chain in flow.playing("card-fetch"):
            scope = call.scope
            anchor = flow.submission(call)
            if anchor is None:
                continue
            decision = self._decision(flow, scope, call)
            if decision is None:
                continue
            fetch = chain[-1]
            node, label, returned_by = decision
            if not anchor.live and self._routes_a_new_task(flow, returned_by[0] if returned_by else call, node):
                continue
            notes = [*anchor.notes(), *flow.helper_notes(chain, "fetches the card")]
            notes += [(c.node, f"gets the fetched card back from {c.callee}()") for c in returned_by]
            notes.append((node, label))
            capture = flow.contract_capture(anchor.scope or scope)
            name = flow.bound_to(capture) if capture is not None else None
            if name:
                lines = {"frozen": capture.node}
                fix = f"decide from the contract hash frozen at line {{line:frozen}} ({name})"
            elif anchor.is_send:
                lines = {"send": anchor.node}
                fix = "freeze the card's contract before the send at line {line:send} and decide from that"
            else:
                lines = {}
                fix = "decide from the contract frozen at send time"
            self.report(
                fetch.node,
                "Agent Card fetched after the task was submitted, and the fetched card decides what happens to it",
                suggestion=(
                    f"{fix}, not from the re-fetched card (the task's own status reports failures); "
                    "re-fetch only before submission, or only log the newer card"
                ),
                notes=[Note(n, text) for n, text in notes],
                lines=lines,
                flow=[*anchor.path(), *(c.node for c in returned_by), *(c.node for c in chain), node],
            )

    @staticmethod
    def _routes_a_new_task(flow: Flow, fetch: Call, decision) -> bool:
        """After an earlier send, a card fetched to route a new task: the function goes on to
        submit a task of its own and touches no task but the ones it submits, and the card
        decides a condition or that send, not a state or what the object holds. The earlier
        task is not in flight here (``Anchor.live``), so nothing about it is decided."""
        scope = fetch.scope
        if any(bind.node is decision for bind in scope.binds):
            return False
        later = [c for c in scope.calls if c.order > fetch.order]
        sends = [c for c in later if flow.chain(c, "send") and runs_before(fetch, c)]
        new_tasks = flow.derived(scope, calls=sends).keys()
        earlier = [c for c in scope.calls if c.order < fetch.order and flow.chain(c, "send")]
        earlier_tasks = flow.derived(scope, calls=earlier).keys()

        def touches_another_task(call: Call) -> bool:
            if flow.chain(call, "send"):  # a follow-up message into the earlier task
                return call.args.reads_any(earlier_tasks)
            acts = any(flow.chain(call, role) for role in ("cancel", "subscribe", "get-task"))
            return acts and not call.args.reads_any(new_tasks)

        return bool(sends) and not any(touches_another_task(c) for c in later)

    def _decision(self, flow: Flow, scope: Scope, fetch: Call, returned_by: tuple[Call, ...] = ()):
        """Where the fetched card (or a value derived from it) decides something, and the
        helper call sites that return it there, outermost first."""
        derived = flow.derived(scope, calls=[fetch])
        keys = set(derived)
        name = flow.card_name(fetch)
        card = f"the fetched card ({name})" if name else "the fetched card"
        for test in scope.tests:
            if test.order >= fetch.order and (test.expr.reads_any(keys) or any(c is fetch for c in test.expr.calls)):
                return test.node, f"{card} decides this {test.kind} condition", returned_by
        for call in scope.calls:
            if call.order > fetch.order and call is not fetch and call.roles.intersection(DECIDING_ROLES):
                if call.args.reads_any(keys):
                    return call.node, f"{card} is passed to this call", returned_by
            if call.order > fetch.order and call.receiver in keys and call.roles & TASK_ROLES:
                return call.node, f"a client built from {card} now drives the task", returned_by
        for bind in scope.binds:
            if bind.order < fetch.order or not (bind.value.reads_any(keys) or any(c is fetch for c in bind.value.calls)):
                continue
            for target in bind.targets:
                if target.endswith((".state", ".status")):
                    return bind.node, f"{card} sets the task's state here", returned_by
                if target.startswith("self.") and target.count(".") == 1:
                    return bind.node, f"the fetched card replaces {target}, which later calls use", returned_by
        for caller_exit in scope.exits:
            if caller_exit.kind == "return" and caller_exit.order > fetch.order and caller_exit.value.reads_any(keys):
                for caller in flow.callers(scope):
                    found = self._decision(flow, caller.scope, caller, (caller, *returned_by))
                    if found is not None:
                        return found
        return None
