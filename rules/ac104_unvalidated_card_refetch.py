from __future__ import annotations

import re

from a2alint.flow import STATUS_FIELDS, TASK_ROLES, Flow, bind_call, flow_of, implements_api, placeholder, runs_before
from a2alint.model import Call, ModuleModel, Scope
from a2alint.rule import Note, Rule

VALIDATOR_WORDS = ("etag", "if-none-match", "if_none_match", "last-modified", "last_modified", "if-modified-since")
EXPIRY_WORDS = {"ttl", "expire", "expires", "expired", "expiry", "stale", "age", "fetched", "refresh", "deadline"}


def _words(key: str) -> set[str]:
    """``self.card_fetched_at`` -> {"self", "card", "fetched", "at"}."""
    return {w for w in re.split(r"[._]", key.lower()) if w}


def _checks_expiry(test) -> bool:
    """``if age > self.ttl:`` / ``if cached[1] > time.monotonic():``: an expiry word, or a
    freshness check against the clock."""
    return any(_words(key) & EXPIRY_WORDS for key in test.expr.keys) or any(
        (call.qualified or call.callee or "").endswith(("time.time", "time.monotonic", ".now", ".utcnow"))
        for call in test.expr.calls
    )


class UnvalidatedCardRefetch(Rule):
    """An Agent Card is re-fetched without a validator (ETag / If-None-Match).

    ## What it does
    Flags a card fetch that reads the same peer's card again, on a later
    iteration of a loop, on a TTL/expiry branch, or overwriting a card the
    code already holds, when nothing sends `If-None-Match` /
    `If-Modified-Since` or keeps and compares an `ETag` / `Last-Modified`.
    A loop that fetches each of several peers once, or retries only until
    the first fetch succeeds, is not a re-fetch, and a readiness probe that
    only checks the response's status reads no card.

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
    """

    code = "AC104"
    name = "unvalidated-card-refetch"
    severity = "warning"

    VALID = [
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
        for scope in model.scopes:
            for call in scope.calls:
                chain = flow.chain(call, "card-fetch")
                if not chain or self._has_validator(flow, chain[-1]) or flow.is_probe(chain[-1]):
                    continue
                reason = self._refetch(flow, scope, call)
                if reason is None or (reason[2] == "overwrite" and implements_api(scope)):
                    continue  # a get_agent_card() that refreshes what its object holds: its callers decide when
                notes = [Note(reason[0], reason[1]), *(Note(n, label) for n, label in flow.helper_notes(chain, "fetches the card"))]
                earlier = self._earlier(flow, scope, call, reason)
                if earlier is not None:
                    notes.append(Note(earlier[0], earlier[1]))
                if earlier is not None and earlier[2]:
                    lines = {"first": earlier[0]}
                    validator = "send If-None-Match with the ETag of the fetch at line {line:first} and keep that card on 304"
                else:
                    lines = None
                    validator = "keep this fetch's ETag and send it as If-None-Match next time, keeping the card on 304"
                self.report(
                    chain[-1].node,
                    "Agent Card re-fetched without a validator (no If-None-Match / ETag kept and compared)",
                    suggestion=f"{validator}; without a validator treat the card as immutable for the task's lifetime",
                    notes=notes,
                    lines=lines,
                )

    @staticmethod
    def _earlier(flow: Flow, scope: Scope, call: Call, reason: tuple):  # reason: see _refetch
        """The earlier fetch this one re-reads (in this function, or the same call in another
        method of the class), or for a cache the cached card it replaces: (node, label,
        whether it is a fetch)."""
        before = [
            c for c in scope.calls
            if c.order < call.order and runs_before(c, call) and not any(loop in c.loops for loop in call.loops)
            and flow.chain(c, "card-fetch")
        ]
        before.sort(key=lambda c: c.callee != call.callee)  # the same call first
        elsewhere = [
            c for s in flow.class_scopes(scope)[1:] for c in s.calls
            if c.callee == call.callee and Flow.call_reads(c) == Flow.call_reads(call) and flow.chain(c, "card-fetch")
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
                return first.node, f"the card is first fetched here{held}{by}; this re-reads it", True
            return first.node, f"the same card is also fetched here{held}, in {first.scope.name}(); this re-reads it", True
        target = next((b.targets[0] for b in scope.binds if len(b.targets) == 1 and any(c is call for c in b.value.calls)), None)
        if target is None or reason[2] != "expiry" or not target.startswith("self."):
            return None
        for exit_ in scope.exits:  # `return self.card`: the cached card, served until the re-read
            if exit_.kind == "return" and exit_.order > call.order and exit_.value.reads_any({target}):
                return exit_.node, f"serves the cached card ({target}) until the expiry check re-reads it", False
        return None

    @staticmethod
    def _has_validator(flow: Flow, fetch: Call) -> bool:
        """The fetch sends a validator, or the code keeps the card's ETag / Last-Modified."""
        if any(word in text.lower() for text in flow.argument_texts(fetch) for word in VALIDATOR_WORDS):
            return True
        scope = fetch.scope
        scopes = [scope] + [s for s in flow.model.scopes if scope.class_name and s.class_name == scope.class_name]
        fetched = flow.derived(scope, calls=[fetch])
        for s in scopes:
            for bind in s.binds:
                kept = [t for t in bind.targets if any(w in t.lower() for w in VALIDATOR_WORDS)]
                if kept and (any("card" in t.lower() for t in kept) or (s is scope and bind.value.reads_any(fetched.keys()))):
                    return True
        return False

    def _refetch(self, flow: Flow, scope: Scope, fetch: Call):
        """Why ``fetch`` re-reads a card: (node, label, "loop" | "expiry" | "overwrite", the
        overwritten bind), or None."""
        retries = bool(fetch.loops) and self._until_success(flow, scope, fetch)
        for loop in fetch.loops:
            if retries or self._per_peer(scope, loop, fetch):
                continue
            return loop.node, "re-runs on every iteration of this loop, re-reading the card the last one fetched", "loop", None
        guards = flow.guards(fetch)
        if self._caches(flow, scope, fetch):
            deadlines = {id(g.test) for g in scope.guards if g.exit_kind == "raise"}  # `if late: raise`
            for test, _holds in guards:
                if id(test) in deadlines:
                    continue
                if _checks_expiry(test) or any(_checks_expiry(t) for t in self._lookups(flow, scope, test)):
                    return test.node, "re-reads the card whenever this cache expiry check is true", "expiry", None
        targets = set(next((b.targets for b in scope.binds if bind_call(b) is not None and any(c is fetch for c in b.value.calls)), []))
        if any(test.expr.reads_any(targets) for test, _holds in guards):
            return None  # `if not card: card = fetch()`: a lazy first fetch
        for bind in scope.binds:
            if bind.order < fetch.order and targets.intersection(bind.targets) and runs_before(bind, fetch):
                if not placeholder(bind.value.node):
                    fetched = any(flow.chain(c, "card-fetch") for c in bind.value.calls)
                    held = ", ".join(bind.targets)
                    label = f"the card ({held}) {'first fetched' if fetched else 'held'} here, which this overwrites"
                    return bind.node, label, "overwrite", bind
        return None

    @staticmethod
    def _lookups(flow: Flow, scope: Scope, test) -> list:
        """The tests of same-module helpers whose result ``test`` checks: ``cached =
        self._get_cached(url)`` ... ``if cached: return cached``, the TTL inside the helper."""
        found = []
        for bind in scope.binds:
            if bind.order < test.order and test.expr.reads_any(set(bind.targets)):
                for call in bind.value.calls:
                    helper = flow.callee(call)
                    if helper is not None and helper is not scope:
                        found += helper.tests
        return found

    @staticmethod
    def _caches(flow: Flow, scope: Scope, fetch: Call) -> bool:
        """The card outlives the call: kept on the object or in a module-level table, or
        served from such a place by an earlier ``return`` (``if fresh: return cached``). A
        deadline checked before a fetch that is only returned is a bounded retry."""
        lasting = flow.outlives_the_call
        kept = flow.derived(scope, calls=[fetch])
        for bind in scope.binds:
            if any(c is fetch for c in bind.value.calls) or (bind.order > fetch.order and bind.value.reads_any(kept.keys())):
                if any(lasting(t) for t in bind.targets):
                    return True
        served = {t for b in scope.binds if any(lasting(k) for k in b.value.keys) for t in b.targets}
        return any(
            e.kind == "return" and e.order < fetch.order and any(lasting(k) or k.split(".")[0] in served for k in e.value.keys)
            for e in scope.exits
        )

    @staticmethod
    def _per_peer(scope: Scope, loop, fetch: Call) -> bool:
        """``for url in urls: fetch(url)``, or a fetch through what the loop builds from its
        target (``resolver = A2ACardResolver(http, url)``): one fetch per peer."""
        bind = next((b for b in scope.binds if b.kind == "for" and b.node is loop.node), None)
        if bind is None or any("send" in c.roles or "subscribe" in c.roles for c in bind.value.calls):
            return False
        per_peer = set(bind.targets)
        for inner in scope.binds:  # in source order, so chains of them are followed
            if loop.start < inner.order <= loop.end and inner.value.reads_any(per_peer):
                per_peer.update(inner.targets)
        return not Flow.call_reads(fetch).isdisjoint(per_peer)

    @staticmethod
    def _until_success(flow: Flow, scope: Scope, fetch: Call) -> bool:
        """The loop leaves as soon as the fetch returned, or as soon as it returned something
        (``if card is not None: return True``, ``if r.status_code == 200: break``): a retry
        or a readiness probe, not a re-read. A test that compares with anything else the
        function holds (``if card.version != old.version: break``) waits for a change, and
        one whose branch acts on a task (cancels it) decides on the card."""
        depth = len(fetch.path)
        result = flow.derived(scope, calls=[fetch])
        held = {b.split(".")[0] for bind in scope.binds for b in bind.targets} | {p.name for p in scope.params}
        acting = [c.order for c in scope.calls if c.roles & TASK_ROLES]

        def checks_the_result(frame) -> bool:
            """Whether there is a result (``card``, ``card is not None``, ``r.status_code``),
            not what the card says (``card.skills``): that would be waiting for a change."""
            keys = frame.test.expr.keys if frame.test is not None else {""}
            for key in keys:
                root, _, rest = key.partition(".")
                if root in result and rest and rest.split(".")[0] not in STATUS_FIELDS:
                    return False
                if root not in result and root in held:
                    return False
            return not any(frame.start < order <= frame.end for order in acting)

        return any(
            e.kind in ("break", "return")
            and e.order > fetch.order
            and e.path[:depth] == fetch.path
            and all(checks_the_result(frame) for frame, _ in e.path[depth:] if frame.kind == "if")
            for e in scope.exits
        )

