from __future__ import annotations

from a2alint.flow import Anchor, Flow, flow_of
from a2alint.model import Call, ModuleModel
from a2alint.rule import Note, Rule

#: Calls a fetched card decides when it is passed to them or the client it built makes them.
DECIDING_ROLES = ("cancel", "send", "subscribe", "get-task")


class PostSubmissionCardFetch(Rule):
    """An Agent Card re-fetched after the task was submitted decides something.

    ## What it does
    Flags a card fetch that runs after a task was submitted (after a `send`
    in the same flow, in the body of a stream or polling loop, in a
    task-update handler, or in a helper called from those) when the fetched
    card, or anything derived from it, then decides something: a branch or
    loop condition, an `assert`, an argument to `cancel`/`send`/`subscribe`,
    a task-state change, or a replacement of the card or client the object
    holds that some code reads to decide. A fetch whose result is only logged
    (or kept where only logs and printouts read it) is a diagnostic and is not
    flagged, nor is a card fetched to route a new task
    once the earlier one is no longer in flight (not its stream, poll loop or
    update handler), when the function touches no task but the ones it submits
    after the fetch (or, for a `refresh()` that touches no task, when its caller
    goes on that way or ends, in an object whose methods only submit new tasks).
    A poll loop around the fetch is the submitted task's only when the task it
    polls can be one from before the fetch: a batch that binds each job's task
    anew after the fetch (`task = None`, or the new send's result) and polls it
    to its end fetches the next job's card outside any poll loop.
    Another peer's card, fetched inside the stream of a task sent through a
    client built from an earlier card (a pipeline hand-off to a second peer),
    is no contract of that task, and may decide a new task at that peer.
    A task the function makes after the fetch is new, not submitted: an id
    it mints (`uuid4()`), an id read from its own later send's stream, an id
    it gives the task in a later `tasks/send` (`send_task(payload={"id":
    "job-7", ...})`), which creates the task of that id. A task a send
    handed back on an earlier call of its function and is given again (a
    caller's loop `task_id = await turn(url, text, task_id)`, through any
    helper that picks the id out) is one already submitted. The
    test a retry leaves through once the fetch returned (`if card: break`)
    decides nothing, and neither do a response's status and headers.
    A fetch inside helpers that hand the card back is reported at the fetch
    itself, with the caller that decides on it as a note; a wrapper named like
    the card fetch (`get_agent_card`) is the fetch where it is called from
    outside its class.

    When the decision is a cancel on a skill's absence or on a card change,
    AC102 or AC105 is reported too, at the cancel: two mistakes meet there
    (deciding on a card fetched after submission; cancelling on that
    evidence), each found without the other (a resend on the re-fetched card
    is AC101 alone, a cancel on the card read before sending is AC102 alone)
    and fixed in its own place, so neither finding is folded into the other,
    and `# noqa: AC101` on the fetch leaves the cancel's finding.

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

    ## Limits
    - A parameter with no caller is taken for a card when its name says so
      (`card`, `agent_card`, `peer_card`, `fresh_card`; not `credit_card`),
      one with a type (`card: dict`) only if it is read as one (`card["skills"]`,
      there or in a function it is handed to) (the last resort; no finding of the
      public sweep rests on it).
    - Whether a cache expires is read from its test: an expiry word (`ttl`,
      `expires`, `stale`, `age`) or a time it was read (`fetched_at`)
      compared with the clock.
    - A helper that returns a `(client, card)` tuple is taken for both.
    - A function named like the card fetch it makes (`get_agent_card`) is
      taken for that fetch: a fetch inside it is reported where it is called
      from outside its class, not inside it. A send wrapper (`send_message`)
      that reads the card on the way is not a fetch to its callers: its fetch
      is reported inside it, once.
    - Text parsed from a record's field named for the card type
      (`json.loads(item["AgentCard"])`, `agentCard`, `agent_card`) is taken for
      a card: how registries and directories keep one.
    - A project object made of card data (`AgentCard(**data)`) or of two or
      more of a card's fields under their own names (`PeerCard(name=d["name"],
      url=d["url"])`) is taken for the card.
    - Two fetches are of different peers when each is given a URL or value
      the other is not, besides the HTTP client (`A2ACardResolver(http,
      a_url)`, `A2ACardResolver(http, b_url)`), even if both hold one address.
    - An attribute the fetched card is stored in (`self.seen`) decides when
      code of its module (or its class's) reads an attribute of that name, on
      any object, into a deciding condition, a call on a task or into project
      code, a lasting store, or a value handed back to such a caller, or names
      it in a string (`getattr(self, "seen")`); one read only from another
      module, or only into log lines and printouts, is taken to decide nothing.
    - A task that a project function run after the fetch hands back (`for
      task, _ in relay.send(client, message)`, its send past the analysis'
      reach) is taken for one that function submits, not one that existed
      before the fetch: a helper that hands back an older task there is missed.
    """

    code = "AC101"
    name = "post-submission-card-fetch"
    severity = "error"

    VALID = [
        """
import uuid
import requests

def delegate(base, text):
    card = requests.get(base + "/.well-known/agent-card.json", timeout=5).json()
    tid = str(uuid.uuid4())  # a fresh id of the client's own, not a task the peer made
    payload = {"jsonrpc": "2.0", "id": tid, "method": "message/send",
               "params": {"message": {"role": "user", "parts": [{"kind": "text", "text": text}],
                                      "messageId": tid, "taskId": tid}}}
    return requests.post(card["url"], json=payload, timeout=30).json()
""",
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
        """
import httpx
from a2a.types import AgentCard

class Desk:
    def __init__(self, peers: dict[str, str], link):
        self.peers, self.link, self._known = peers, link, {}

    async def _lookup(self, url: str) -> AgentCard:
        raw = httpx.get(f"{url}/.well-known/agent-card.json").json()
        meta = AgentCard.model_validate(raw)
        if not meta.skills:
            raise LookupError(url)
        return meta

    async def _peer(self, role: str) -> AgentCard:
        if role not in self._known:  # each peer's card is read once, then kept
            self._known[role] = await self._lookup(self.peers[role])
        return self._known[role]

    async def ask(self, role: str, message):
        meta = await self._peer(role)
        return await self.link.send_message(meta.url, message)

    async def review(self, message):
        await self.ask("kyc", message)
        await self.ask("risk", message)
""",
    ]
    INVALID = [
        """
import httpx
from a2a.client import A2ACardResolver, ClientConfig, ClientFactory
from a2a.types import Message, Part, Role, TextPart

async def delegate_turn(url, text, task_id):  # one turn; with task_id set it continues a task
    async with httpx.AsyncClient() as http:
        card = await A2ACardResolver(http, url).get_agent_card()  # expect: AC101
        if card.security and not card.security_schemes:
            raise RuntimeError("auth mismatch")
        client = ClientFactory(ClientConfig(httpx_client=http)).create(card)
        msg = Message(role=Role.user, message_id="m", task_id=task_id, parts=[Part(root=TextPart(text=text))])
        async for event in client.send_message(msg):
            last = event
        return last
""",
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

    async def reply(self, message):
        return await self.client.send_message(message)
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
        for place, chain in flow.playing("card-fetch"):
            if flow.fetch_place(place, chain) is not place:
                continue  # reported where the card is fetched, or where a helper's request becomes a fetch
            for call, chain in flow.sightings(place):
                if self._judge(flow, place, call, chain):
                    break  # one finding per fetch, for the nearest call that decides on its card

    def _judge(self, flow: Flow, place: Call, call: Call, chain: list[Call]) -> bool:
        """Report ``place`` when the card it fetches, seen at ``call`` (``place`` itself, or
        a caller the card is handed back to, down ``chain``), decides on a task after its
        submission."""
        decision = self._decision(flow, call)
        if decision is None:
            return False
        node, label, acts = decision
        anchor = acts or flow.submission(call)
        if anchor is None or flow.served_from_cache(chain, anchor):
            return False  # a cached card: when the cache re-reads it is AC104's question
        if flow.sends_to_another_peer(anchor.node, call):
            return False  # another peer's card: no contract of the task in flight
        if not anchor.live and flow.routes_a_new_task(call, node, anchor):
            return False
        notes = [*anchor.notes(), (node, label)]
        if call is not place:  # the card comes back to a caller, which decides on it
            notes.append((call, f"{call.callee or call.method}() hands back the card fetched at the flagged line (or a client built from it)"))
        if chain[-1] is not place:  # a wrapper named like the API: its callers are where it fetches
            notes.append((chain[-1], f"{place.callee or place.method}() fetches the card here"))
        capture = flow.contract_capture(anchor.scope or call.scope)
        name = flow.bound_to(capture) if isinstance(capture, Call) and capture.scope is call.scope else None
        if name:
            lines = {"frozen": capture}
            fix = f"decide from the contract hash frozen at line {{line:frozen}} ({name})"
        elif anchor.is_send:
            lines = {"send": anchor.node}
            fix = "freeze the card's contract before the send at line {line:send} and decide from that"
        else:
            lines = {}
            fix = "decide from the contract frozen at send time"
        self.report(
            place.node,
            "Agent Card fetched after the task was submitted, and the fetched card decides what happens to it",
            suggestion=(
                f"{fix}, not from the re-fetched card (the task's own status reports failures); "
                "re-fetch only before submission, or only log the newer card"
            ),
            notes=[Note(n, text) for n, text in notes],
            lines=lines,
            flow=[*anchor.path(), *chain, node],
        )
        return True

    @staticmethod
    def _decision(flow: Flow, fetch: Call):
        """Where the fetched card (or a value derived from it) decides something in the
        fetching function: (the place, a label, and when it is a call on a task that
        already exists, the anchor that says so)."""
        scope = fetch.scope
        name = flow.card_name(fetch)
        card = f"the fetched card ({name})" if name else "the fetched card"
        retry = (flow.retry_checks(fetch) or []) if fetch.loops else []  # `if card is not None: break` decides nothing
        for test in scope.tests:
            if any(test is check for check in retry):
                continue
            if test.order >= fetch.order and flow.depends_on_fetch(test.expr, test, fetch) and flow.decides(test):
                return test, f"{card} decides this {test.kind} condition", None
        for call in scope.calls:
            if call.order <= fetch.order or call is fetch:
                continue
            acting = [role for role in DECIDING_ROLES if flow.chain(call, role)]
            if not acting:
                continue
            use = flow.card_use(call, fetch)
            if use is None:
                continue
            label = f"a client built from {card} now drives the task" if use == "client" else f"{card} is passed to this call"
            what = flow.acts_on_task(call, fetch)
            anchor = None
            if what is not None and not flow.task_made_after(call, fetch):
                anchor = Anchor(call, f"{what} a task the server already created", is_send=what == "continues", scope=scope, live=True)
            return call, label, anchor
        for bind in scope.binds:
            if bind.order < fetch.order or not flow.depends_on_fetch(bind.value, bind, fetch):
                continue
            if flow.state_change(bind):
                return bind, f"{card} sets the task's state here", None
            for target in bind.targets:
                served = any(e.kind == "return" and e.value.reads_any({target}) for e in scope.exits)
                if target.startswith("self.") and target.count(".") == 1 and not served and flow.outlives_the_call(target, scope) and flow.attribute_decides(target, scope):
                    return bind, f"the fetched card replaces {target}, which later calls use", None
        return None
