"""Values kept in a record on their way: a field of a project dataclass built with them
(``PeerState(card, client)``, by position in the order the fields are declared, or by
keyword) or an entry of a dict literal (``{"client": client, "message": message}``) holds
what it was given, whatever the field's annotation says (``object``), and wherever the
class is defined in the module."""

from __future__ import annotations

import textwrap

from a2alint.runner import lint_project


def findings(source: str) -> list[tuple[int, str]]:
    """What ``a2alint check`` reports on the source as the one module of a project."""
    result = lint_project({"client.py": textwrap.dedent(source)})["client.py"]
    assert result.errors == []
    return sorted((d.line, d.code) for d in result.diagnostics)


def line_of(source: str, text: str) -> int:
    return next(i for i, line in enumerate(textwrap.dedent(source).splitlines(), 1) if text in line)


PEER_STATE = """
    import uuid
    from dataclasses import dataclass, field

    import httpx
    from a2a.client import A2ACardResolver, ClientConfig, ClientFactory
    from a2a.types import Message, Part, Role, TextPart


    async def follow_up(base_url: str, task_id: str, answer: str) -> None:
        \"\"\"Answers the question a running task asked (input-required).\"\"\"
        async with httpx.AsyncClient(timeout=30) as http:
            card = await A2ACardResolver(http, base_url).get_agent_card()
            peer = PeerState(card, ClientFactory(ClientConfig(httpx_client=http)).create(card))
            reply = Message(role=Role.user, message_id=uuid.uuid4().hex, task_id=task_id,
                            parts=[Part(root=TextPart(text=answer))])
            async for event in peer.client.send_message(reply):
                peer.seen.append(event)


    @dataclass
    class PeerState:
        card: object
        client: object
        seen: list = field(default_factory=list)
"""


def test_a_client_kept_in_a_dataclass_field_given_by_position_is_that_client():
    assert (line_of(PEER_STATE, "get_agent_card()"), "AC101") in findings(PEER_STATE)


PENDING_ROW = """
    import httpx
    from a2a.client import A2ACardResolver, ClientConfig, ClientFactory
    from a2a.types import Message, Part, Role, TextPart


    async def answer_pending(agent_url: str, pending: dict, text: str) -> list:
        \"\"\"Replies to a task that asked for input; ``pending`` is the row the queue kept for it.\"\"\"
        async with httpx.AsyncClient() as http:
            card = await A2ACardResolver(http, agent_url).get_agent_card()
            turn = {
                "client": ClientFactory(ClientConfig(httpx_client=http, streaming=card.capabilities.streaming)).create(card),
                "message": Message(role=Role.user, message_id=pending["reply_id"], task_id=pending["task_id"],
                                   parts=[Part(root=TextPart(text=text))]),
            }
            return [event async for event in turn["client"].send_message(turn["message"])]
"""


def test_a_message_kept_in_a_dict_entry_is_that_message_and_continues_its_task():
    assert (line_of(PENDING_ROW, "get_agent_card()"), "AC101") in findings(PENDING_ROW)


NEW_JOB_ROW = """
    import uuid

    import requests


    def submit(base: str, text: str) -> dict:
        doc = requests.get(base + "/.well-known/agent-card.json", timeout=5).json()
        job = {"id": str(uuid.uuid4()), "endpoint": doc["url"]}
        tid = job["id"]
        body = {"jsonrpc": "2.0", "id": tid, "method": "message/send",
                "params": {"message": {"role": "user", "messageId": tid, "taskId": tid,
                                       "parts": [{"kind": "text", "text": text}]}}}
        return requests.post(job["endpoint"], json=body, timeout=30).json()
"""


def test_a_task_id_the_client_mints_into_a_dict_is_a_new_task_read_back():
    assert not any(code == "AC101" for _, code in findings(NEW_JOB_ROW))


CARD_DIFF = """
    from dataclasses import dataclass

    from a2a.client import Client
    from a2a.types import AgentCard, CancelTaskRequest


    @dataclass(frozen=True)
    class CardDiff:
        lost_skills: set
        same_modes: bool


    class Watch:
        def __init__(self, client: Client, approved: AgentCard, task_id: str):
            self.client, self.approved, self.task_id = client, approved, task_id

        async def on_card_pushed(self, pushed: AgentCard) -> None:
            diff = CardDiff(
                lost_skills={s.id for s in self.approved.skills} - {s.id for s in pushed.skills},
                same_modes=list(pushed.default_output_modes) == list(self.approved.default_output_modes),
            )
            if diff.lost_skills or not diff.same_modes:
                await self.client.cancel_task(CancelTaskRequest(id=self.task_id))
"""


def test_a_comparison_kept_in_a_dataclass_field_is_still_that_comparison():
    line = line_of(CARD_DIFF, "cancel_task(")
    assert {(line, "AC102"), (line, "AC106")} <= set(findings(CARD_DIFF))


DRIFT_REPORT = """
    from a2a.types import AgentCard


    class Drifted(RuntimeError):
        pass


    async def check_pushed(approved: AgentCard, pushed: AgentCard) -> None:
        report = {
            "skills_gone": sorted({s.id for s in approved.skills} - {s.id for s in pushed.skills}),
            "streaming_changed": pushed.capabilities.streaming != approved.capabilities.streaming,
        }
        if report["streaming_changed"]:
            raise Drifted("the partner changed its streaming support")
"""


def test_a_comparison_kept_in_a_dict_entry_is_still_that_comparison():
    assert (line_of(DRIFT_REPORT, "raise Drifted"), "AC106") in findings(DRIFT_REPORT)


# --- what reads binds follows copies out of records: `body = call["body"]` is no step ---


EXPIRING_LOOKUP = """
    import time

    import httpx


    class Directory:
        def __init__(self, http: httpx.AsyncClient, ttl: float = 300.0):
            self.http, self.ttl, self.cache = http, ttl, {}

        def _fresh(self, url: str):
            card, stamp = self.cache.get(url, (None, 0.0))
            return card if time.time() - stamp <= self.ttl else None

        async def card_for(self, url: str) -> dict:
            lookup = {"card": self._fresh(url), "source": "memory"}
            hit = lookup["card"]
            if hit:
                return hit
            response = await self.http.get(f"{url}/.well-known/agent-card.json")
            self.cache[url] = (response.json(), time.time())
            return self.cache[url][0]
"""


def test_a_cache_lookup_read_back_from_a_dict_is_still_the_helper_that_expires():
    assert (line_of(EXPIRING_LOOKUP, "await self.http.get("), "AC104") in findings(EXPIRING_LOOKUP)


PROBE_RECORD = """
    import asyncio
    import time
    from dataclasses import dataclass

    import httpx


    @dataclass
    class Probe:
        url: str
        response: httpx.Response


    async def ready(url: str) -> bool:
        async with httpx.AsyncClient(timeout=2.0) as http:
            probe = Probe(url, await http.get(f"{url}/.well-known/agent-card.json"))
            reply = probe.response
            return reply.status_code == 200


    async def wait_for(urls: list[str], timeout: float = 30.0) -> bool:
        start = time.monotonic()
        while time.monotonic() - start < timeout:
            if all([await ready(url) for url in urls]):
                return True
            await asyncio.sleep(1)
        return False
"""


def test_a_response_read_back_from_a_record_and_checked_for_its_status_is_a_probe():
    assert findings(PROBE_RECORD) == []


EMPTY_SWEEP = """
    import time
    from dataclasses import dataclass

    from a2a.client import A2ACardResolver


    @dataclass
    class Sweep:
        cards: dict
        started: float


    async def discover(http, urls: list[str]) -> dict:
        sweep = Sweep({}, time.time())
        cards = sweep.cards
        for url in urls:
            cards[url] = await A2ACardResolver(http, url).get_agent_card()
        return cards
"""


def test_an_empty_dict_read_back_from_a_record_and_filled_per_peer_is_no_refetch():
    assert findings(EMPTY_SWEEP) == []


VERIFIER_PAIR = """
    from typing import NamedTuple

    from a2a.types import TaskState
    from a2a.utils.signing import create_signature_verifier


    class Checks(NamedTuple):
        verify: object
        strict: bool


    def accept(card, tasks: list, key_provider):
        checks = Checks(create_signature_verifier(key_provider, ["ES256"]), True)
        verify = checks.verify
        try:
            verify(card)
        except Exception:
            return
        for task in tasks:
            task.status.state = TaskState.working
"""


def test_a_verifier_held_in_a_named_tuple_still_checks_the_card_signature():
    assert (line_of(VERIFIER_PAIR, "task.status.state ="), "AC201") in findings(VERIFIER_PAIR)


RESUME_DRAFT = """
    import time
    import uuid

    import requests


    def resume(endpoint: str, task_id: str, pinned: str, reply: str) -> dict:
        draft = {"message": {"kind": "message", "role": "user", "messageId": uuid.uuid4().hex, "taskId": task_id,
                             "parts": [{"kind": "text", "text": reply}], "metadata": {"contract_hash": pinned}},
                 "drafted_at": time.time()}
        message = draft["message"]
        outgoing = {"body": {"jsonrpc": "2.0", "id": 2, "method": "message/send", "params": {"message": message}}, "tries": 0}
        body = outgoing["body"]
        return requests.post(endpoint, json=body, timeout=30).json()
"""


def test_a_contract_hash_in_a_message_kept_in_a_draft_dict_goes_with_the_send():
    assert findings(RESUME_DRAFT) == []


RPC_ENVELOPE = """
    import itertools
    from uuid import uuid4

    import httpx


    class LedgerPeer:
        def __init__(self, http: httpx.AsyncClient, rpc_url: str):
            self.http, self.rpc_url, self._ids = http, rpc_url, itertools.count(1)

        async def _rpc(self, method: str, params: dict) -> dict:
            call = {"body": {"jsonrpc": "2.0", "id": next(self._ids), "method": method, "params": params}, "retries": 2}
            body = call["body"]
            reply = (await self.http.post(self.rpc_url, json=body, headers={"A2A-Version": "1.0"})).json()
            return reply["result"]

        async def send_text(self, text: str) -> dict:
            message = {"role": "ROLE_USER", "messageId": uuid4().hex, "parts": [{"text": text}]}
            return (await self._rpc("SendMessage", {"message": message}))["task"]
"""


def test_an_rpc_body_kept_in_a_dict_still_sends_the_message_it_is_given():
    assert (line_of(RPC_ENVELOPE, 'self._rpc("SendMessage"'), "AC103") in findings(RPC_ENVELOPE)


SKILL_GUARD = """
    import time
    from dataclasses import dataclass

    import httpx
    from a2a.client import A2ACardResolver, Client
    from a2a.types import TaskIdParams


    @dataclass
    class Snapshot:
        card: object
        taken_at: float


    class SkillGuard:
        def __init__(self, http: httpx.AsyncClient, client: Client, url: str, skill: str) -> None:
            self.http, self.client, self.url, self.skill = http, client, url, skill
            self.seen = Snapshot(None, 0.0)

        async def refresh(self) -> None:
            card = await A2ACardResolver(self.http, self.url).get_agent_card()
            self.seen = Snapshot(card, time.time())

        async def check(self, task_id: str) -> None:
            if self.skill not in {s.id for s in self.seen.card.skills}:
                await self.client.cancel_task(TaskIdParams(id=task_id))
"""


def test_a_card_kept_in_a_record_on_the_object_is_that_card_in_another_method():
    assert (line_of(SKILL_GUARD, "cancel_task("), "AC102") in findings(SKILL_GUARD)


def test_the_other_field_of_a_record_on_the_object_is_no_card():
    by_age = SKILL_GUARD.replace("if self.skill not in {s.id for s in self.seen.card.skills}:",
                                 "if time.time() - self.seen.taken_at > 600:")
    assert findings(by_age) == []
