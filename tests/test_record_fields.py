"""Values kept in a record on their way: a field of a project dataclass built with them
(``PeerState(card, client)``, by position in the order the fields are declared, or by
keyword) or an entry of a dict literal (``{"client": client, "message": message}``) holds
what it was given, whatever the field's annotation says (``object``), and wherever the
class is defined in the module."""

from __future__ import annotations

import textwrap

from a2alint.runner import lint_source


def findings(source: str) -> list[tuple[int, str]]:
    result = lint_source(textwrap.dedent(source), path="client.py")
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
