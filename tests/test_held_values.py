"""Values held on their way and read back: a tuple a local holds and then unpacks
(``entry = (card, time.time())``; ``card, fetched_at = entry``) gives each name its own
element, whatever that element is (a minted id, a condition, a fetch); an attribute
stored and read straight back through a getter (``self._card = ...``; ``card =
self.card``) gives what was stored, and is no cache when nothing else reads it; and a
card kept on the object besides is still the card its response gave."""

from __future__ import annotations

import textwrap

from a2alint.runner import lint_source


def codes(source: str) -> list[tuple[int, str]]:
    result = lint_source(textwrap.dedent(source), path="held.py")
    assert result.errors == []
    return sorted((d.line, d.code) for d in result.diagnostics)


def line_of(source: str, text: str) -> int:
    return next(i for i, line in enumerate(textwrap.dedent(source).splitlines(), 1) if text in line)


MINTED_TICKET = """
    import time
    import uuid

    import requests


    class Dispatcher:
        def __init__(self, base: str):
            self.base = base

        def dispatch(self, text: str) -> dict:
            card = requests.get(f"{self.base}/.well-known/agent-card.json", timeout=5).json()
            ticket = (uuid.uuid4().hex, time.monotonic())
            task_id, issued_at = ticket
            body = {"jsonrpc": "2.0", "id": task_id, "method": "message/send",
                    "params": {"message": {"role": "user", "messageId": task_id, "taskId": task_id,
                                           "parts": [{"kind": "text", "text": text}]}}}
            return requests.post(card["url"], json=body, timeout=30).json()
"""


def test_an_id_minted_into_a_ticket_pair_is_a_new_task_not_a_submitted_one():
    assert [code for _, code in codes(MINTED_TICKET) if code == "AC101"] == []


HELD_VERDICT = """
    import time

    from a2a.client import A2ACardResolver
    from a2a.types import TaskIdParams, TaskQueryParams, TaskState


    async def watch(client, resolver: A2ACardResolver, task_id: str, skill: str):
        task = await client.get_task(TaskQueryParams(id=task_id))
        if task.status.state != TaskState.working:
            return
        snapshot = (await resolver.get_agent_card(), time.monotonic())
        card, fetched_at = snapshot
        offered = {s.id for s in card.skills}
        verdict = (skill not in offered, fetched_at)
        dropped, seen_at = verdict
        if dropped:
            await client.cancel_task(TaskIdParams(id=task_id))
"""


def test_a_skill_check_kept_in_a_pair_with_its_time_still_cancels_on_skill_absence():
    assert (line_of(HELD_VERDICT, "cancel_task("), "AC102") in codes(HELD_VERDICT)


PROPERTY_READ_BACK = """
    import asyncio

    from a2a.client import A2ACardResolver
    from a2a.types import TaskIdParams, TaskQueryParams, TaskState


    class PeerSession:
        def __init__(self, client, resolver: A2ACardResolver):
            self._client = client
            self._resolver = resolver
            self._card = None

        @property
        def card(self):
            return self._card

        async def follow(self, task_id: str, skill: str) -> None:
            while True:
                task = await self._client.get_task(TaskQueryParams(id=task_id))
                if task.status.state in (TaskState.completed, TaskState.failed):
                    return
                self._card = await self._resolver.get_agent_card()
                card = self.card
                if skill not in {s.id for s in card.skills}:
                    await self._client.cancel_task(TaskIdParams(id=task_id))
                    return
                await asyncio.sleep(5)
"""


def test_a_card_stored_then_read_back_through_a_property_is_the_card_stored():
    assert (line_of(PROPERTY_READ_BACK, "cancel_task("), "AC102") in codes(PROPERTY_READ_BACK)


MINTED_THROUGH_A_GETTER = """
    import uuid

    import requests


    class Courier:
        def __init__(self, base: str):
            self.base = base
            self.http = requests.Session()

        def current_ticket(self):
            return self._ticket

        def hand_over(self, parcel: str) -> dict:
            card = self.http.get(f"{self.base}/.well-known/agent-card.json", timeout=5).json()
            self._ticket = uuid.uuid4().hex
            ticket = self.current_ticket()
            body = {"jsonrpc": "2.0", "id": ticket, "method": "message/send",
                    "params": {"message": {"role": "user", "messageId": ticket, "taskId": ticket,
                                           "parts": [{"kind": "text", "text": parcel}]}}}
            return self.http.post(card["url"], json=body, timeout=30).json()
"""


def test_an_id_minted_into_an_attribute_and_read_back_through_a_getter_is_a_new_task():
    assert [code for _, code in codes(MINTED_THROUGH_A_GETTER) if code == "AC101"] == []


LOGGED_THROUGH_A_GETTER = """
    import asyncio
    import logging

    import httpx
    from a2a.client import A2ACardResolver, Client
    from a2a.types import TaskIdParams, TaskState

    log = logging.getLogger(__name__)


    class Watcher:
        def __init__(self, http: httpx.AsyncClient, url: str):
            self.resolver = A2ACardResolver(http, url)

        def latest_card(self):
            return self._latest

        async def follow(self, client: Client, task_id: str) -> TaskState | None:
            for attempt in range(3):
                async for task, _update in client.resubscribe(TaskIdParams(id=task_id)):
                    if task.status.state in (TaskState.completed, TaskState.failed):
                        return task.status.state
                await asyncio.sleep(2**attempt)
            self._latest = await self.resolver.get_agent_card()
            latest = self.latest_card()
            log.info("peer now advertises %s; %s follows its own status", latest.version, task_id)
            return None
"""


def test_an_attribute_only_read_straight_back_is_no_card_the_object_keeps_for_later():
    assert codes(LOGGED_THROUGH_A_GETTER) == []


RESPONSE_HELD_ON_THE_WAY = """
    import time

    import httpx


    class CardSource:
        def __init__(self, http: httpx.Client, base: str):
            self.http = http
            self.base = base

        def last_response(self):
            return self._response

        def get_agent_card(self) -> dict:
            self._response = self.http.get(self.base + "/.well-known/agent-card.json")
            response = self.last_response()
            return response.json()


    class Dispatcher:
        max_age = 120.0

        def __init__(self, source: CardSource):
            self.source = source
            self.doc: dict = {}
            self.fetched_at = 0.0

        def partner(self) -> dict:
            if time.time() - self.fetched_at > self.max_age:
                self.doc = self.source.get_agent_card()
                self.fetched_at = time.time()
            return self.doc
"""


def test_a_response_held_on_the_object_only_on_its_way_back_is_no_cache_of_the_card():
    """The wrapper keeps no card: the dispatcher's expiring cache re-reads it, unvalidated."""
    assert (line_of(RESPONSE_HELD_ON_THE_WAY, "self.doc = self.source.get_agent_card()"), "AC104") in codes(RESPONSE_HELD_ON_THE_WAY)


KEPT_BESIDES = """
    import asyncio

    import aiohttp


    class Mirror:
        def __init__(self, session: aiohttp.ClientSession, base_url: str):
            self.session = session
            self.base_url = base_url.rstrip("/")
            self.sent_under: dict[str, str] = {}
            self.last_card: dict | None = None

        async def delegate(self, document_url: str) -> str:
            async with self.session.get(f"{self.base_url}/.well-known/agent-card.json") as resp:
                card = await resp.json()
            payload = {"message": {"role": "ROLE_USER", "messageId": document_url, "parts": [{"url": document_url}]}}
            async with self.session.post(f"{self.base_url}/message:send", json=payload) as resp:
                body = await resp.json()
            self.sent_under[body["task"]["id"]] = card["version"]
            return body["task"]["id"]

        async def run(self) -> None:
            while True:
                async with self.session.get(f"{self.base_url}/.well-known/agent-card.json") as resp:
                    card = await resp.json()
                    self.last_card = card
                for task_id, version in list(self.sent_under.items()):
                    async with self.session.get(f"{self.base_url}/tasks/{task_id}") as resp:
                        state = (await resp.json())["status"]["state"]
                    if state == "TASK_STATE_WORKING" and card["version"] != version:
                        async with self.session.post(f"{self.base_url}/tasks/{task_id}:cancel"):
                            pass
                await asyncio.sleep(30)
"""


def test_a_card_also_kept_on_the_object_is_still_the_card_the_response_gave():
    """Storing the card asks what the attribute holds while the GET's role is being
    decided; that answer is not final and must not be remembered for the response."""
    found = codes(KEPT_BESIDES)
    fetch = line_of(KEPT_BESIDES, "self.last_card = card") - 2  # the GET that card comes from
    assert (fetch, "AC101") in found and (line_of(KEPT_BESIDES, ":cancel"), "AC105") in found, found


KEPT_BESIDES_SYNC = """
    import time

    import requests


    class ShipmentWatch:
        def __init__(self, base: str):
            self.base = base
            self.http = requests.Session()
            self.jobs: dict[str, str] = {}
            self.card: dict | None = None

        def submit(self, parcel: str) -> str:
            with self.http.get(self.base + "/.well-known/agent-card.json", timeout=5) as resp:
                card = resp.json()
            body = {"jsonrpc": "2.0", "id": 1, "method": "message/send",
                    "params": {"message": {"role": "user", "messageId": parcel, "parts": [{"kind": "text", "text": parcel}]}}}
            task = self.http.post(card["url"], json=body, timeout=30).json()["result"]
            self.jobs[task["id"]] = card["version"]
            return task["id"]

        def watch(self) -> None:
            while self.jobs:
                with self.http.get(self.base + "/.well-known/agent-card.json", timeout=5) as resp:
                    latest = resp.json()
                    self.card = latest
                for task_id, version in list(self.jobs.items()):
                    if latest["version"] != version:
                        self.http.post(latest["url"], json={"jsonrpc": "2.0", "id": 2, "method": "tasks/cancel",
                                                            "params": {"id": task_id}}, timeout=30)
                        del self.jobs[task_id]
                time.sleep(20)
"""


def test_a_card_kept_on_the_object_besides_still_decides_in_a_requests_watch_loop():
    found = codes(KEPT_BESIDES_SYNC)
    fetch = line_of(KEPT_BESIDES_SYNC, "self.card = latest") - 2
    assert (fetch, "AC101") in found and (line_of(KEPT_BESIDES_SYNC, '"tasks/cancel"'), "AC105") in found, found
