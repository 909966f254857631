from __future__ import annotations

from a2alint.flow import Flow, api_named, argument_texts, call_reads, flow_of, in_sdk_client, runs_before
from a2alint.model import Call, ModuleModel
from a2alint.rule import Files, Note, Rule

VALIDATOR_WORDS = ("etag", "if-none-match", "if_none_match", "last-modified", "last_modified", "if-modified-since")


class UnvalidatedCardRefetch(Rule):
    """An Agent Card is re-fetched without a validator (ETag / If-None-Match).

    ## What it does
    Flags a card fetch that reads the same peer's card again, on a later
    iteration of a loop, on a TTL/expiry branch, or overwriting a card the
    code already holds, when nothing sends `If-None-Match` /
    `If-Modified-Since` or keeps and compares an `ETag` / `Last-Modified`.
    A loop that fetches each of several peers once, or retries only until
    the first fetch succeeds, is not a re-fetch, nor is one reached only
    while a flag it sets is unset (`if not self.ready: await self.hello()`,
    `hello()` setting `self.ready`): it runs once per object however often its
    caller loops; and likewise a fetch in a loop behind a local that its
    block sets and nothing else in the loop binds (`if card is None: card =
    await resolver.get_agent_card()`): once per run of the loop. A fetch of
    another peer's card is no re-read of an earlier one. A readiness probe
    that only checks the response's status reads no card. A single read into a
    fresh value when a later call resumes a submitted task is not one
    either: the earlier read is in another call, and when that card decides
    what happens to the task, AC101 reports the read (one finding, not two).

    ## Why is this bad?
    Without a validator a re-fetch is an unconditional read: it cannot tell
    a rotated card from a flapping one, and on many peers it is a
    negotiation event. With no validator the card must be treated as
    immutable for the task's lifetime.

    ## Example
    ```python
    if time.monotonic() - self.fetched_at > CARD_TTL:
        self.card = await self.resolver.get_agent_card()
    ```

    ## Use instead
    ```python
    response = await http.get(card_url, headers={"If-None-Match": self.etag})
    if response.status_code != 304:
        self.card, self.etag = AgentCard.model_validate(response.json()), response.headers["ETag"]
    ```

    ## Covers
    a2a-sdk 0.2, 0.3 and 1.x fetches (no SDK version sends `If-None-Match`;
    a2a-sdk servers from 1.2.0 answer it with a weak ETag), python-a2a,
    crewai `fetch_agent_card`, raw httpx/requests/aiohttp GETs of card URLs.

    ## Limits
    - A card resolved through an MCP tool or another registry client (not an
      HTTP request for it) has no validator to keep: the finding then asks to
      resolve it once per task and keep it for the task's lifetime.
    - Whether a cache expires is read from its test (an expiry word, or a
      read time compared with the clock), and an object out of sight stores
      a card when a method like `set`, `put` or `update` is given it.
      Validators are the HTTP header names themselves (`ETag`,
      `If-None-Match`, `Last-Modified`).
    - A function named like the card fetch it makes (`get_agent_card`) is
      taken for that fetch: a fetch inside it is reported where it is called
      from outside its class, not inside it. A send wrapper (`send_message`)
      that reads the card on the way is not a fetch to its callers: its fetch
      is reported inside it, once.
    - Text parsed from a record's field named for the card type
      (`json.loads(item["AgentCard"])`) is taken for a card, and the read that
      brings the record for a card fetch.
    - Two fetches are of different peers when each is given a URL or value
      the other is not, besides the HTTP client (`A2ACardResolver(http,
      a_url)`, `A2ACardResolver(http, b_url)`), even if both hold one address.
    """

    code = "AC104"
    name = "unvalidated-card-refetch"
    severity = "warning"

    VALID = [
        """
import httpx
from a2a.types import AgentCard
from a2a.utils import new_task


async def ask(http: httpx.AsyncClient, url: str, msg):
    reply = await http.get(f"{url}/.well-known/agent-card.json")
    card = AgentCard(**reply.json())
    task = new_task(msg)  # made up on this side: the server holds no task yet
    body = {"jsonrpc": "2.0", "id": 1, "method": "message/send",
            "params": {"message": msg.model_dump(), "task_id": task.id}}
    return (await http.post(card.url, json=body)).json()
""",
        """
import asyncio, time
import httpx
from a2a.client import A2ACardResolver

class Peer:
    async def card(self, resolver: A2ACardResolver):
        if self._card is not None:  # fetched once, then kept for the task's lifetime
            return self._card
        give_up_at = time.monotonic() + 30
        while True:
            if time.monotonic() > give_up_at:  # a bounded retry of the first fetch
                raise TimeoutError("the peer never served its card")
            try:
                self._card = await resolver.get_agent_card()
                return self._card
            except httpx.TransportError:
                await asyncio.sleep(1)

async def fetch_or_fallback(resolver: A2ACardResolver, fallback):
    give_up_at = time.monotonic() + 30
    while True:
        if time.monotonic() > give_up_at:  # gives up with a fallback: no cache here
            return fallback
        try:
            return await resolver.get_agent_card()
        except OSError:
            await asyncio.sleep(1)
""",
        """
from a2a.client import A2ACardResolver

async def discover(http, urls):
    cards = {}
    for url in urls:  # each peer once: not a re-fetch
        cards[url] = await A2ACardResolver(http, url).get_agent_card()
    return cards
""",
        """
import asyncio
from a2a.client import A2ACardResolver

async def first_card(resolver: A2ACardResolver):
    for attempt in range(3):  # retries only until the first fetch succeeds
        try:
            card = await resolver.get_agent_card()
            break
        except OSError:
            await asyncio.sleep(2 ** attempt)
    return card
""",
        """
from a2a.client import A2ACardResolver

async def discover(http, addresses):
    cards = {}
    for address in addresses:  # a resolver per peer, each card read once
        resolver = A2ACardResolver(http, address)
        card = await resolver.get_agent_card()
        cards[card.name] = card
    return cards
""",
        """
import asyncio
import httpx

async def wait_ready(http: httpx.AsyncClient, url: str) -> bool:
    for _ in range(10):  # a readiness probe: stops at the first card it gets
        try:
            response = await http.get(f"{url}/.well-known/agent-card.json")
            if response.status_code == 200:
                return True
        except httpx.TransportError:
            pass
        await asyncio.sleep(1)
    return False
""",
        """
import asyncio, time
import httpx

async def is_ready(url: str) -> bool:  # a probe: only the status is read, no card
    async with httpx.AsyncClient(timeout=2.0) as http:
        response = await http.get(f"{url}/.well-known/agent-card.json")
        return response.status_code == 200

async def wait_for_agents(urls: list[str], timeout: int = 30) -> bool:
    start = time.time()
    while time.time() - start < timeout:
        if sum([await is_ready(url) for url in urls]) == len(urls):
            return True
        await asyncio.sleep(1)
    return False
""",
        """
import asyncio, time
from a2a.client import A2ACardResolver

async def fetch_with_deadline(resolver: A2ACardResolver):
    deadline = time.monotonic() + 30
    while True:
        if time.monotonic() > deadline:  # a bounded retry, not a cache expiry
            raise TimeoutError("the peer never served its card")
        try:
            return await resolver.get_agent_card()
        except OSError:
            await asyncio.sleep(1)
""",
        """
import asyncio
import httpx

async def follow(http: httpx.AsyncClient, endpoint: str, stream):
    response = await http.get(f"{endpoint}/.well-known/agent-card.json")
    card, snapshots = response.json(), {}

    def consume(response):  # another 'response': a task event, not the card's
        artifact = response.artifact
        return snapshots.get(artifact.artifact_id, "")

    for _ in range(3):
        async for event in stream(card):
            consume(event)
        await asyncio.sleep(1)
""",
        """
import time
import httpx

class CardCache:
    async def get(self, http: httpx.AsyncClient, url):
        if time.monotonic() - self.fetched_at > 300:
            response = await http.get(url + "/.well-known/agent-card.json", headers={"If-None-Match": self.etag})
            if response.status_code != 304:
                self.card, self.etag = response.json(), response.headers["ETag"]
        return self.card
""",
    ]
    INVALID = [
        """
import json
from uuid import uuid4
from a2a.client import A2AClient
from a2a.types import AgentCard, Message, MessageSendParams, SendStreamingMessageRequest, TextPart


class Step:  # each turn asks the MCP registry which agent serves the goal
    def __init__(self, mcp, http):
        self.mcp, self.http = mcp, http

    async def lookup(self, goal: str) -> AgentCard:
        found = await self.mcp.call_tool("find_agent", {"query": goal})  # expect: AC104
        return AgentCard(**json.loads(found.content[0].text))  # an MCP tool: no ETag to keep

    async def converse(self, goal: str, replies: list[str]):
        for reply in replies:
            agent = await self.lookup(goal)  # the same goal's card, re-read on every turn
            client = A2AClient(self.http, agent)
            params = MessageSendParams(message=Message(role="user", parts=[TextPart(text=reply)],
                                                       message_id=uuid4().hex))
            async for chunk in client.send_message_streaming(SendStreamingMessageRequest(id="1", params=params)):
                yield chunk
""",
        Files({
            "client.py": """
import httpx

class PeerClient:
    def __init__(self, base_url: str):
        self.base_url = base_url.rstrip("/")
        self.http = httpx.Client()

    def get_agent_card(self) -> dict:
        return self.http.get(f"{self.base_url}/.well-known/agent-card.json").json()
""",
            "remote.py": """
import time

from client import PeerClient

class RemoteAgent:
    def __init__(self, a2a_client: PeerClient, ttl: float = 300.0):
        self.a2a_client = a2a_client
        self.ttl = ttl
        self._cached = None

    def card(self) -> dict:
        now = time.monotonic()
        if self._cached and now - self._cached[1] < self.ttl:
            return self._cached[0]
        card = self.a2a_client.get_agent_card()  # expect: AC104
        self._cached = (card, now)
        return card
""",
        }),
        """
import asyncio
from a2a.client import A2ACardResolver

class Watcher:
    async def watch(self, resolver: A2ACardResolver):
        while True:  # refreshes the held card every five minutes, unconditionally
            self.card = await resolver.get_agent_card()  # expect: AC104
            await asyncio.sleep(300)

async def wait_for_skill(resolver: A2ACardResolver):
    for _ in range(60):  # polls until the skill appears: every pass re-reads the card
        card = await resolver.get_agent_card()  # expect: AC104
        if any(skill.id == "translate" for skill in card.skills):
            return card
        await asyncio.sleep(5)
""",
        """
import time
from a2a.client import A2ACardResolver

class Peer:
    def __init__(self, resolver: A2ACardResolver):
        self.resolver = resolver

    async def card(self):
        if time.monotonic() - self.fetched_at > 3600:
            self.agent_card = await self.resolver.get_agent_card()  # expect: AC104
        return self.agent_card
""",
        """
from a2a.client import A2ACardResolver

async def watch(resolver: A2ACardResolver, client, message):
    async for event in client.send_message(message):
        latest = await resolver.get_agent_card()  # expect: AC104
        print(latest.version)
""",
        """
import time
import httpx

class Client:
    async def get_agent_card(self):  # a caching wrapper: the re-fetch is its own
        if self.card is not None and time.time() < self.card_fetched_at + 300:
            return self.card
        response = await self.http.get(f"{self.base_url}/.well-known/agent-card.json")  # expect: AC104
        self.card, self.card_fetched_at = response.json(), time.time()
        return self.card
""",
        """
import asyncio, time
import httpx

class CardCache:
    def __init__(self):
        self.cards, self.lock = {}, asyncio.Lock()

    async def get(self, http: httpx.AsyncClient, base_url: str):
        async with self.lock:
            cached = self.cards.get(base_url)
            if cached and cached[1] > time.monotonic():  # fresh: served from the cache
                return cached[0]
        response = await http.get(f"{base_url}/.well-known/agent-card.json")  # expect: AC104
        card = response.json()
        self.cards[base_url] = (card, time.monotonic() + 600)
        return card
""",
        """
import time
import httpx

class Discovery:
    async def discover(self, http: httpx.AsyncClient, url: str):
        cached = self._get_cached(url)  # the expiry check is in the helper
        if cached:
            return cached
        response = await http.get(f"{url}/.well-known/agent.json")  # expect: AC104
        self.cache[url] = (response.json(), time.time())
        return self.cache[url][0]

    def _get_cached(self, url: str):
        card, stamp = self.cache.get(url, (None, 0.0))
        return card if time.time() - stamp <= self.ttl else None
""",
        """
import asyncio
from a2a.client import A2ACardResolver

async def wait_for_rotation(resolver: A2ACardResolver, old):
    for _ in range(60):  # polls until the card changes: every pass re-reads it
        card = await resolver.get_agent_card()  # expect: AC104
        if card.version != old.version:
            return card
        await asyncio.sleep(5)
""",
        """
import asyncio
import aiohttp

CARD_PATH = "/.well-known/agent.json"

def card_url(base):
    return f"{base.rstrip('/')}{CARD_PATH}"

async def refresh_forever(session: aiohttp.ClientSession, bases, cards):
    while True:  # every peer's card again, every five minutes
        for base in bases:
            async with session.get(card_url(base)) as response:  # expect: AC104
                cards[base] = await response.json()
        await asyncio.sleep(300)
""",
        """
import asyncio
import aiohttp

CARD_PATH = "/.well-known/agent.json"

async def refresh_forever(session: aiohttp.ClientSession, hosts, cards):
    while True:
        for host in hosts:
            url = f"https://{host}:8443{CARD_PATH}"
            async with session.get(url) as response:  # expect: AC104
                cards[host] = await response.json()
        await asyncio.sleep(300)
""",
        """
import requests

def refresh(base):
    card = requests.get(base + "/.well-known/agent.json").json()
    card = requests.get(base + "/.well-known/agent.json").json()  # expect: AC104
    return card
""",
    ]

    def check(self, model: ModuleModel) -> None:
        flow = flow_of(model)
        for place, chain in flow.playing("card-fetch"):
            if flow.fetch_place(place, chain) is not place:
                continue  # reported where the card is fetched, or where a helper's request becomes a fetch
            for call, chain in flow.sightings(place):
                if self._judge(flow, model, place, call, chain):
                    break  # one finding per fetch, for the nearest call that re-reads it

    def _judge(self, flow: Flow, model: ModuleModel, place: Call, call: Call, chain: list[Call]) -> bool:
        """Report ``place`` when the card it fetches, seen at ``call`` (``place`` itself, or
        a caller the card is handed back to, down ``chain``), is a re-read with no validator."""
        if self._has_validator(flow, chain) or flow.is_probe(chain[-1]):
            return False
        reason = self._refetch(flow, call)
        if reason is None or (reason[2] == "overwrite" and (api_named(call.scope) or in_sdk_client(call.scope, model))):
            return False  # a get_agent_card() that refreshes what its object holds: its callers decide when
        notes = [Note(flow.placeable(reason[0], call), reason[1])]
        if call is not place:  # the card comes back to a caller, which re-reads it
            what = "hands back the card fetched at the flagged line (or a client built from it)"
            if flow.fetch_in_sight(call) is not call:
                what = "stores the card fetched at the flagged line on the object it is given"
            notes.append(Note(call, f"{call.callee or call.method}() {what}"))
        if chain[-1] is not place:  # a wrapper named like the API: its callers are where it fetches
            notes.append(Note(chain[-1], f"{place.callee or place.method}() fetches the card here"))
        earlier = self._earlier(flow, call, reason)
        if earlier is not None:
            earlier = (flow.placeable(earlier[0], call), *earlier[1:])
            notes.append(Note(earlier[0], earlier[1]))
        if flow.analysis.registry_lookup(chain[-1]):
            lines = None
            validator = (
                "this lookup is not an HTTP request for the card (a registry or MCP call), so it has no ETag "
                "to keep: resolve the card once per task and reuse it"
            )
        elif earlier is not None and earlier[2]:
            lines = {"first": earlier[0]}
            validator = "send If-None-Match with the ETag of the fetch at line {line:first} and keep that card on 304"
        else:
            lines = None
            validator = "keep this fetch's ETag and send it as If-None-Match next time, keeping the card on 304"
        self.report(
            place.node,
            "Agent Card re-fetched without a validator (no If-None-Match / ETag kept and compared)",
            suggestion=f"{validator}; without a validator treat the card as immutable for the task's lifetime",
            notes=notes,
            lines=lines,
        )
        return True

    @staticmethod
    def _earlier(flow: Flow, call: Call, reason: tuple):  # reason: see _refetch
        """The earlier fetch this one re-reads (in this function, or the same call in another
        method of the class), or for a cache the cached card it replaces: (fact, label,
        whether it is a fetch). A fact, not its node: a module whose check is over keeps no
        nodes, and the note must be placed the same whichever module was checked first."""
        scope = call.scope
        before = [
            c for c in scope.calls
            if c.order < call.order and runs_before(c, call) and not any(loop in c.loops for loop in call.loops)
            and flow.chain(c, "card-fetch") and not flow.other_peer(c, call)
        ]
        before.sort(key=lambda c: c.callee != call.callee)  # the same call first
        elsewhere = [
            c for s in flow.class_scopes(scope)[1:] for c in s.calls
            if c.callee == call.callee and call_reads(c) == call_reads(call) and flow.chain(c, "card-fetch")
        ] if reason[2] == "loop" else []
        if before or elsewhere:
            first = (before or elsewhere)[0]
            overwritten = reason[3]
            if overwritten is not None and any(c is first for c in overwritten.value.calls):
                return reason[0], reason[1], True  # the overwritten card is that fetch: one note says both
            name = flow.card_name(first)
            held = f" ({name})" if name else ""
            by = f", by {first.callee}()" if len(flow.chain(first, "card-fetch")) > 1 else ""
            if first.scope is scope:
                return first, f"the card is first fetched here{held}{by}; this re-reads it", True
            return first, f"the same card is also fetched here{held}, in {first.scope.name}(); this re-reads it", True
        target = next((b.targets[0] for b in scope.binds if len(b.targets) == 1 and any(c is call for c in b.value.calls)), None)
        if target is None or reason[2] != "expiry" or not target.startswith("self."):
            return None
        for exit_ in scope.exits:  # `return self.card`: the cached card, served until the re-read
            if exit_.kind == "return" and exit_.order > call.order and exit_.value.reads_any({target}):
                return exit_, f"serves the cached card ({target}) until the expiry check re-reads it", False
        return None

    @staticmethod
    def _has_validator(flow: Flow, chain: list[Call]) -> bool:
        """A fetch on the way sends a validator, or the code keeps the card's ETag / Last-Modified."""
        for step in chain:
            if any(word in text.lower() for text in argument_texts(step, flow.analysis.values(step.scope)) for word in VALIDATOR_WORDS):
                return True
        for step in chain:
            scope = step.scope
            fetched = flow.derived(scope, calls=[step])
            for s in flow.class_scopes(scope):
                for bind in s.binds:
                    kept = [t for t in bind.targets if any(w in t.lower() for w in VALIDATOR_WORDS)]
                    if kept and (any("card" in t.lower() for t in kept) or (s is scope and bind.value.reads_any(fetched.keys()))):
                        return True
                    if s is scope and bind.value.reads_any(fetched.keys()) and any(
                        w in text.lower() for text in bind.value.strings for w in VALIDATOR_WORDS
                    ):
                        return True  # `etag = response.headers.get("ETag")`
        return False

    def _refetch(self, flow: Flow, fetch: Call):
        """Why ``fetch`` re-reads a card: (node, label, "loop" | "expiry" | "overwrite", the
        overwritten bind), or None."""
        scope = fetch.scope
        rerun = flow.reruns(fetch)
        if rerun is not None:
            return rerun[0], rerun[1], "loop", None
        chain = flow.chain(fetch, "card-fetch")
        if any(
            (flow.caches(step) and not flow.stores_card_on_handed(above)) or flow.decorator_cache(step.scope)
            for above, step in zip(chain, chain[1:])
        ):
            return None  # a held card, served by the function that keeps it (judged there), not by one storing it for us
        kept = flow.decorator_cache(scope)
        if kept == "forever":
            return None  # read once, then served from the cache
        if kept == "expires":
            return scope.node if scope.node is not None else fetch, (
                f"{scope.name}() is cached until its entries expire: each expiry re-reads the card"
            ), "expiry", None
        guards = flow.guards(fetch)
        if flow.caches(fetch):
            deadlines = {id(g.test) for g in scope.guards if g.exit_kind == "raise"}  # `if late: raise`
            for test, _holds in flow.guards(fetch, conditional=True):
                if id(test) not in deadlines and flow.checks_expiry(test):
                    return test, "re-reads the card whenever this cache expiry check is true", "expiry", None
        targets = {t for b in scope.binds if b.direct is not None and any(c is fetch for c in b.value.calls) for t in b.targets}
        targets.update(t for b in flow.analysis.values(scope).readers(fetch) for t in b.targets)  # `card = held["card"]`
        if any(test.expr.reads_any(targets) for test, _holds in guards):
            return None  # `if not card: card = fetch()`: a lazy first fetch
        for bind in scope.binds:
            if bind.order < fetch.order and targets.intersection(bind.targets) and runs_before(bind, fetch):
                if not flow.analysis.values(scope).empty(bind):
                    fetched = any(flow.chain(c, "card-fetch") for c in bind.value.calls)
                    held = ", ".join(bind.targets)
                    label = f"the card ({held}) {'first fetched' if fetched else 'held'} here, which this overwrites"
                    return bind, label, "overwrite", bind
        if any(flow.outlives_the_call(key, scope) for test, _holds in guards for key in test.expr.keys):
            return None  # `if self._client is None:`: the object's first fill
        for bind in scope.binds:  # `fresh = fetch(); self._card = fresh`, over the card another method keeps there
            if bind.order > fetch.order and bind.copy_of in targets:
                targets.update(bind.targets)
                held = next((h for key in bind.targets if (h := flow.card_stored_elsewhere(key, scope))), None)
                if held is not None:
                    label = f"the card ({', '.join(bind.targets)}) that {held.scope.name}() keeps, which this overwrites"
                    return bind, label, "overwrite", held
        return None
