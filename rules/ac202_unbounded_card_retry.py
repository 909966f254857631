from __future__ import annotations

from a2alint.flow import Flow, flow_of
from a2alint.model import Frame, ModuleModel, Scope
from a2alint.rule import Note, Rule

BOUND_WORDS = ("attempt", "retries", "retry", "tries", "deadline", "timeout", "elapsed", "monotonic", "time", "budget", "max_")


class UnboundedCardRetry(Rule):
    """A loop retries a card fetch (or reconciliation around one) without a bound.

    ## What it does
    Flags a loop with no bound (no attempt cap checked in the loop, no
    `range(...)`, no deadline in its condition or around it such as
    `async with asyncio.timeout(30)`, nor around every call of its function
    in sight, `await asyncio.wait_for(wait_ready(url), timeout=60)`; `while True` and
    `itertools.count()` that exit only on success are unbounded) that
    fetches a card and leaves only once the fetch or the comparison after it
    succeeds.

    ## Why is this bad?
    When the peer rotated its card or its key, the fetch or the check fails
    every time: the loop becomes a retry storm (40 minutes in the incident
    behind this rule) that hammers the peer and holds the task hostage.

    ## Example
    ```python
    while True:
        card = await resolver.get_agent_card()
        if card_digest(card) == task_digest:
            break
    ```

    ## Use instead
    ```python
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        task = await client.get_task(query)      # deferred: poll the task's own status
        ...
        await asyncio.sleep(backoff.next())
    escalate(task_id)
    ```

    ## Covers
    Every card fetch the API model knows, in `while` loops and
    `for ... in itertools.count()`.

    ## Limits
    - A loop bound other than `for ... in range(n)` is known by the names
      its test reads (`attempt`, `retries`, `deadline`, `timeout`, `max_*`,
      the clock).
    - An endless iterator is known by the name of what makes it (`count`,
      `cycle`, `repeat` without a count), in the loop or returned by a
      project function.
    """

    code = "AC202"
    name = "unbounded-card-retry"
    severity = "warning"

    VALID = [
        """
import asyncio
import httpx
from a2a.client import A2ACardResolver

async def wait_for_card(resolver: A2ACardResolver):
    async with asyncio.timeout(30):  # the deadline bounds the loop it wraps
        while True:
            try:
                return await resolver.get_agent_card()
            except httpx.TransportError:
                await asyncio.sleep(1)
""",
        """
import asyncio
from a2a.client import A2ACardResolver

async def fetch(resolver: A2ACardResolver):
    for attempt in range(5):
        try:
            return await resolver.get_agent_card()
        except OSError:
            await asyncio.sleep(2 ** attempt)
""",
        """
import asyncio, time
from a2a.client import A2ACardResolver

async def fetch(resolver: A2ACardResolver):
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            return await resolver.get_agent_card()
        except OSError:
            await asyncio.sleep(1)
""",
        """
import asyncio
from a2a.client import A2ACardResolver

async def fetch(resolver: A2ACardResolver):
    attempts = 0
    while True:
        try:
            return await resolver.get_agent_card()
        except OSError:
            attempts += 1
            if attempts > 3:
                raise
            await asyncio.sleep(1)
""",
        """
import time
import httpx

def poll(base_url, task_id):  # re-reads the card (AC101, AC104), then polls the task
    card = httpx.get(f"{base_url}/.well-known/agent-card.json").json()
    body = {"jsonrpc": "2.0", "id": 1, "method": "tasks/get", "params": {"id": task_id}}
    return httpx.post(card["url"], json=body).json()["result"]

def wait(base_url, task_id):
    while True:  # ends on the task's state, not on the card: a poll, not a retry of the fetch
        task = poll(base_url, task_id)
        if task["status"]["state"] in ("completed", "failed", "canceled"):
            return task
        time.sleep(2)
""",
    ]
    INVALID = [
        """
import asyncio
from a2a.client import A2ACardResolver

async def fetch(resolver: A2ACardResolver):
    while True:  # expect: AC202
        try:
            return await resolver.get_agent_card()
        except OSError:
            await asyncio.sleep(1)
""",
        """
import itertools
from a2a.client import A2ACardResolver

async def reconcile(resolver: A2ACardResolver, digest, card_digest):
    for _ in itertools.count():  # expect: AC202
        card = await resolver.get_agent_card()
        if card_digest(card) == digest:
            break
""",
    ]

    def check(self, model: ModuleModel) -> None:
        flow = flow_of(model)
        for scope in model.scopes:
            loops = {id(f): f for c in scope.calls for f in c.loops if f.kind in ("while", "for")}
            for loop in loops.values():
                fetch = next(
                    (c for c in scope.calls if (loop, "body") in c.path and flow.effective(c, "card-fetch")), None
                )
                if fetch is None or not self._exits_on_success(scope, loop, fetch) or self._bounded(flow, scope, loop):
                    continue
                if flow.reaches_a_task(fetch):
                    continue  # a poll of the task that re-reads the card each pass (AC101/AC104), not a retry
                chain = flow.chain(fetch, "card-fetch")
                if len(chain) > 1:
                    notes = [Note(fetch.node, f"calls {fetch.callee}(), which fetches the card: the fetch this loop retries")]
                    notes += [Note(n, label) for n, label in flow.helper_notes(chain[1:], "fetches the card")]
                else:
                    notes = [Note(fetch.node, "the fetch this loop retries")]
                notes = self._way_out(flow, scope, loop, fetch, notes)
                self.report(
                    loop.node,
                    "loop retries an Agent Card fetch with no bound: a retry storm when the card keeps failing",
                    suggestion=(
                        "stop re-fetching the card (line {line:fetch}) until it succeeds: enter a deferred state, "
                        "poll the task's own status with backoff within a bounded window (attempt cap or deadline), "
                        "then escalate"
                    ),
                    notes=notes,
                    lines={"fetch": fetch.node},
                )

    @staticmethod
    def _way_out(flow: Flow, scope: Scope, loop: Frame, fetch, notes: list[Note]) -> list[Note]:
        """``notes`` and the way out of the loop: the check of the fetched card, or the exit
        that returns the fetched card (said on the fetch's own note)."""
        exits = [
            e for e in scope.exits
            if _leaves(e, loop) and e.order >= fetch.order and not any(f.kind == "try" and b == "handlers" for f, b in e.path)
        ]
        for exit_ in exits:
            guard = next(
                (t for t, _ in flow.guards(exit_) if t.order > fetch.order and (loop, "body") in t.path), None
            )
            if guard is not None:
                return [*notes, Note(guard.node, "the loop ends when this check passes; nothing bounds the attempts")]
        if exits and any(c is fetch for c in exits[0].value.calls):  # `return await fetch()`
            return [Note(notes[0].node, f"{notes[0].label}; the loop ends once it succeeds, nothing bounds the attempts"), *notes[1:]]
        if exits:
            return [*notes, Note(exits[0].node, "the loop ends here once the fetch succeeds; nothing bounds the attempts")]
        return notes

    @staticmethod
    def _exits_on_success(scope: Scope, loop: Frame, fetch) -> bool:
        return any(
            _leaves(e, loop) and e.order >= fetch.order and not any(f.kind == "try" and b == "handlers" for f, b in e.path)
            for e in scope.exits
        )

    @staticmethod
    def _bounded(flow: Flow, scope: Scope, loop: Frame) -> bool:
        if any(frame.kind == "with" and frame.deadline for frame, _ in loop.path):
            return True  # `async with asyncio.timeout(30):` around the loop
        if flow.under_deadline(scope):
            return True  # `await asyncio.wait_for(wait_ready(url), timeout=60)` in every caller
        if loop.kind == "for":
            return not flow.endless(scope, loop)
        if loop.kind == "while" and not loop.endless:
            keys = loop.test.expr.keys if loop.test else set()
            if any(word in key.lower() for key in keys for word in BOUND_WORDS):
                return True
        counters = {t for b in scope.binds if b.kind == "augassign" and (loop, "body") in b.path for t in b.targets}
        for test in scope.tests:
            inside = (loop, "body") in test.path or test is loop.test
            if inside and (test.expr.reads_any(counters) or any(w in k.lower() for k in test.expr.keys for w in BOUND_WORDS)):
                return True
        return False


def _leaves(exit_, loop: Frame) -> bool:
    """``exit_`` leaves ``loop``: a ``return`` inside it, or a ``break`` of it (not of a loop inside it)."""
    if (loop, "body") not in exit_.path:
        return False
    if exit_.kind == "return":
        return True
    loops = [f for f, b in exit_.path if f.kind in ("for", "while") and b == "body"]
    return exit_.kind == "break" and bool(loops) and loops[-1] is loop
