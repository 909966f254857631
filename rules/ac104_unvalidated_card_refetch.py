from __future__ import annotations

import re

import libcst as cst

from a2alint.flow import Flow, bind_call, flow_of, implements_api, runs_before
from a2alint.model import Call, ModuleModel, Scope
from a2alint.rule import Note, Rule

VALIDATOR_WORDS = ("etag", "if-none-match", "if_none_match", "last-modified", "last_modified", "if-modified-since")
EXPIRY_WORDS = {"ttl", "expire", "expires", "expired", "expiry", "stale", "age", "fetched", "refresh", "deadline"}


def _words(key: str) -> set[str]:
    """``self.card_fetched_at`` -> {"self", "card", "fetched", "at"}."""
    return {w for w in re.split(r"[._]", key.lower()) if w}


class UnvalidatedCardRefetch(Rule):
    """An Agent Card is re-fetched without a validator (ETag / If-None-Match).

    ## What it does
    Flags a card fetch that reads the same peer's card again, on a later
    iteration of a loop, on a TTL/expiry branch, or overwriting a card the
    code already holds, when nothing sends `If-None-Match` /
    `If-Modified-Since` or keeps and compares an `ETag` / `Last-Modified`.
    A loop that fetches each of several peers once, or retries only until
    the first fetch succeeds, is not a re-fetch.

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
            if implements_api(scope):
                continue
            for call in scope.calls:
                fetch = flow.effective(call, "card-fetch")
                if fetch is None or self._has_validator(flow, fetch):
                    continue
                reason = self._refetch(flow, scope, call)
                if reason is None:
                    continue
                notes = [Note(reason[0], reason[1])]
                if fetch is not call:
                    notes.append(Note(call.node, f"calls {call.callee}(), which fetches the card"))
                self.report(
                    fetch.node,
                    "Agent Card re-fetched without a validator (no If-None-Match / ETag kept and compared)",
                    suggestion=(
                        "send If-None-Match with the stored ETag and keep the card on 304; without a "
                        "validator treat the card as immutable for the task's lifetime"
                    ),
                    notes=notes,
                )

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
        for loop in fetch.loops:
            if self._per_peer(scope, loop, fetch) or self._until_success(scope, loop, fetch):
                continue
            return loop.node, "runs again on every iteration of this loop"
        guards = flow.guards(fetch)
        for test, _holds in guards:
            if any(_words(key) & EXPIRY_WORDS for key in test.expr.keys):
                return test.node, "re-reads the card when a cache entry expires"
        targets = set(next((b.targets for b in scope.binds if bind_call(b) is not None and any(c is fetch for c in b.value.calls)), []))
        if any(test.expr.reads_any(targets) for test, _holds in guards):
            return None  # `if not card: card = fetch()`: a lazy first fetch
        for bind in scope.binds:
            if bind.order < fetch.order and targets.intersection(bind.targets) and runs_before(bind, fetch):
                if not _placeholder(bind.value.node):
                    return bind.node, "the card already held here is overwritten"
        return None

    @staticmethod
    def _per_peer(scope: Scope, loop, fetch: Call) -> bool:
        """``for url in urls: fetch(url)``: one fetch per peer."""
        bind = next((b for b in scope.binds if b.kind == "for" and b.node is loop.node), None)
        return bind is not None and not Flow.call_reads(fetch).isdisjoint(bind.targets) and not any(
            "send" in c.roles or "subscribe" in c.roles for c in bind.value.calls
        )

    @staticmethod
    def _until_success(scope: Scope, loop, fetch: Call) -> bool:
        """The loop leaves as soon as the fetch returned: a retry, not a re-read."""
        depth = len(fetch.path)
        return any(
            e.kind in ("break", "return")
            and e.order > fetch.order
            and e.path[:depth] == fetch.path
            and not any(frame.kind == "if" for frame, _ in e.path[depth:])
            for e in scope.exits
        )


def _placeholder(value: cst.CSTNode | None) -> bool:
    """``None``, ``{}``, ``[]``: nothing held yet."""
    if isinstance(value, cst.Name):
        return value.value == "None"
    return isinstance(value, (cst.Dict, cst.List)) and not value.elements
