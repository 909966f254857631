"""Shapes of public A2A client code that the rules judged wrongly (issue 25, the public
sample): each written here from scratch, in two styles, with the finding (or silence) the
rule's page promises."""

from __future__ import annotations

import textwrap

from a2alint.runner import lint_source


def findings(text: str, code: str, preview: bool | None = None) -> list[int]:
    result = lint_source(textwrap.dedent(text), select=(code,), preview=preview)
    assert result.errors == []
    return sorted(d.line for d in result.diagnostics)


# -- a card fetch behind a guard on the flag it sets runs once per object (AC104) --

FORECASTER = """
import httpx


class Forecaster:
    def __init__(self, endpoint: str):
        self.endpoint = endpoint
        self.http = httpx.AsyncClient()
        self.introduced = False

    async def introduce(self):
        reply = await self.http.get(self.endpoint + "/.well-known/agent-card.json")
        print("forecaster is", reply.json()["name"])
        self.introduced = True

    async def forecast(self, city: str) -> dict:
        if not self.{flag}:
            await self.introduce()
        body = {{"jsonrpc": "2.0", "id": 1, "method": "message/send",
                "params": {{"message": {{"role": "user", "messageId": city,
                                       "parts": [{{"kind": "text", "text": city}}]}}}}}}
        return (await self.http.post(self.endpoint, json=body)).json()


async def chat(forecaster: Forecaster):
    while city := input("city> "):
        print(await forecaster.forecast(city))
"""


def test_a_fetch_guarded_by_the_flag_it_sets_is_not_re_read_in_the_callers_loop():
    assert findings(FORECASTER.format(flag="introduced"), "AC104") == []


def test_a_guard_on_a_flag_the_fetch_does_not_set_still_re_reads():
    assert findings(FORECASTER.format(flag="quiet"), "AC104") == [12]


def test_the_flag_may_live_on_another_object_of_the_caller():
    source = """
    import logging
    from a2a.client import A2ACardResolver


    class Peer:
        def __init__(self, http, url):
            self.http, self.url, self.checked = http, url, False

        async def check(self):
            card = await A2ACardResolver(self.http, self.url).get_agent_card()
            logging.info("peer %s speaks %s", card.name, card.protocol_version)
            self.checked = True


    class Desk:
        def __init__(self, peer: Peer, client):
            self.peer, self.client = peer, client

        async def relay(self, request):
            if not self.peer.checked:
                await self.peer.check()
            return await self.client.send_message(request)


    async def pump(desk: Desk, queue):
        while True:
            await desk.relay(await queue.get())
    """
    assert findings(source, "AC104") == []


# -- a send wrapper that re-reads the card is reported once, at the fetch (AC104) --


def test_a_send_wrapper_that_re_reads_the_card_is_reported_at_the_fetch_only():
    source = """
    import requests


    class Courier:
        def __init__(self, base: str):
            self.base = base

        def send_message(self, text: str) -> dict:
            card = requests.get(self.base + "/.well-known/agent.json").json()
            body = {"jsonrpc": "2.0", "id": 1, "method": "message/send",
                    "params": {"message": {"role": "user", "messageId": text,
                                           "parts": [{"kind": "text", "text": text}]}}}
            return requests.post(card["url"], json=body).json()


    def run(courier: Courier):
        while True:
            courier.send_message(input("> "))
    """
    assert findings(source, "AC104") == [10]


# -- the tasks/send era: the id the client gives a task in the send creates it (AC101, AC103) --

LEGACY_CLIENT = """
from a2a.client import A2AClient


async def convert(url: str, amount: str):
    client = await A2AClient.get_client_from_agent_card_url(url)
    order = {"id": "fx-42", "sessionId": "s-1",
             "message": {"role": "user", "parts": [{"type": "text", "text": amount}]}}
    print(await client.send_task(payload=order))
    print(await client.get_task(payload={"id": "fx-42"}))
    async for chunk in client.send_task_streaming(payload=order):
        print(chunk)
    await client.cancel_task(payload={"id": "fx-42"})
"""


def test_a_legacy_send_task_is_a_submission():
    assert findings(LEGACY_CLIENT, "AC103") == [9, 11]


def test_polling_the_id_a_legacy_send_gave_its_task_is_not_after_an_earlier_submission():
    assert findings(LEGACY_CLIENT, "AC101") == []


def test_a_raw_tasks_send_with_a_client_chosen_id_creates_the_task():
    source = """
    import httpx


    async def nightly(http: httpx.AsyncClient, base: str, day: str):
        card = (await http.get(f"{base}/.well-known/agent.json")).json()
        job = f"report-{day}"
        await http.post(card["url"], json={"jsonrpc": "2.0", "id": 1, "method": "tasks/send", "params": {
            "id": job, "message": {"role": "user", "parts": [{"type": "text", "text": day}]}}})
        status = await http.post(card["url"], json={"jsonrpc": "2.0", "id": 2, "method": "tasks/get",
                                                    "params": {"id": job}})
        return status.json()["result"]["status"]["state"]
    """
    assert findings(source, "AC101") == []


def test_a_card_fetched_after_the_legacy_send_still_decides_on_its_task():
    source = """
    from a2a.client import A2AClient


    async def convert(sender: A2AClient, url: str):
        await sender.send_task(payload={"id": "fx-42", "message": {"role": "user", "parts": []}})
        poller = await A2AClient.get_client_from_agent_card_url(url)
        return await poller.get_task(payload={"id": "fx-42"})
    """
    assert findings(source, "AC101") == [7]


# -- a card only logged is not used to send (AC108) --


def test_a_card_only_logged_beside_a_client_built_from_the_url_is_not_used_to_send():
    source = """
    from uuid import uuid4
    import httpx
    from a2a.client import A2ACardResolver, A2AClient
    from a2a.types import Message, MessageSendParams, SendMessageRequest, TextPart


    async def greet(url: str, built_from_card: bool):
        async with httpx.AsyncClient() as http:
            card = await A2ACardResolver(http, url).get_agent_card()
            print("peer:", card.name, card.description)
            plain = A2AClient(httpx_client=http, url=url)
            request = SendMessageRequest(id=uuid4().hex, params=MessageSendParams(message=Message(
                role="user", message_id=uuid4().hex, parts=[TextPart(text="hello")])))
            await plain.send_message(request)
            await A2AClient(httpx_client=http, agent_card=card).send_message(request)
    """
    assert findings(source, "AC108", preview=True) == [16]


def test_a_raw_post_to_the_configured_endpoint_does_not_use_the_printed_card():
    source = """
    import requests

    ENDPOINT = "http://localhost:8080/"


    def ping(base: str):
        about = requests.get(base + "/.well-known/agent.json").json()
        print(f"connected to {about['name']} v{about['version']}")
        body = {"jsonrpc": "2.0", "id": 1, "method": "message/send",
                "params": {"message": {"role": "user", "messageId": "m1", "parts": [{"kind": "text", "text": "hi"}]}}}
        requests.post(ENDPOINT, json=body)
        requests.post(about["url"], json=body)
    """
    assert findings(source, "AC108", preview=True) == [13]


# -- a per-turn helper that re-reads the card continues the task the turn before made (AC101) --


def test_the_task_a_helper_returned_on_the_last_turn_is_continued_after_a_fresh_card_read():
    source = """
    from uuid import uuid4
    import httpx
    from a2a.client import A2ACardResolver, A2AClient
    from a2a.types import Message, MessageSendParams, SendMessageRequest, Task, TextPart


    async def _deliver(url: str, text: str, task_id: str | None):
        async with httpx.AsyncClient() as http:
            card = await A2ACardResolver(http, url).get_agent_card()
            client = A2AClient(httpx_client=http, agent_card=card)
            message = Message(role="user", message_id=uuid4().hex, task_id=task_id, parts=[TextPart(text=text)])
            return await client.send_message(SendMessageRequest(id=uuid4().hex, params=MessageSendParams(message=message)))


    async def _turn(url: str, text: str, task_id: str | None) -> str | None:
        outcome = (await _deliver(url, text, task_id)).root.result
        return outcome.id if isinstance(outcome, Task) else task_id


    async def interview(url: str, answers: list[str]):
        open_task = None
        for answer in answers:
            open_task = await _turn(url, answer, open_task)
    """
    assert findings(source, "AC101") == [10]


def test_a_raw_turn_helper_pair_continuing_the_returned_task_id_re_reads_the_card_after_submission():
    source = """
    import requests


    def post_turn(base, text, task_id=None):
        card = requests.get(base + "/.well-known/agent-card.json").json()
        message = {"role": "user", "messageId": text, "parts": [{"kind": "text", "text": text}]}
        if task_id:
            message["taskId"] = task_id
        body = {"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": {"message": message}}
        return requests.post(card["url"], json=body).json()


    def next_task(base, text, task_id):
        reply = post_turn(base, text, task_id)
        return reply["result"]["id"]


    def session(base, lines):
        task_id = None
        while lines:
            task_id = next_task(base, lines.pop(0), task_id)
    """
    assert findings(source, "AC101") == [6]


# -- a send through a helper that a field of the card decides uses the card (AC108) --


def test_a_module_helper_send_that_the_cards_transport_decides_uses_the_card():
    source = """
    import requests


    def _rpc(url: str, method: str, params: dict) -> dict:
        return requests.post(url, json={"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).json()


    def submit(base: str, endpoint: str, text: str) -> dict:
        card = requests.get(base + "/.well-known/agent-card.json").json()
        if card.get("preferredTransport", "JSONRPC") != "JSONRPC":
            raise RuntimeError("this client speaks JSON-RPC only")
        return _rpc(endpoint, "message/send", {"message": {
            "role": "user", "messageId": "m-1", "parts": [{"kind": "text", "text": text}]}})
    """
    assert findings(source, "AC108", preview=True) == [13]


def test_a_helper_send_run_only_when_the_card_allows_streaming_uses_the_card():
    source = """
    import httpx
    from a2a.client import A2ACardResolver


    async def _stream(http: httpx.AsyncClient, url: str, text: str):
        body = {"jsonrpc": "2.0", "id": 7, "method": "message/stream", "params": {"message": {
            "role": "user", "messageId": "m-7", "parts": [{"kind": "text", "text": text}]}}}
        async with http.stream("POST", url, json=body) as events:
            async for line in events.aiter_lines():
                print(line)


    async def watch(http: httpx.AsyncClient, base: str, endpoint: str, text: str):
        card = await A2ACardResolver(http, base).get_agent_card()
        if card.capabilities.streaming:
            await _stream(http, endpoint, text)
        else:
            print("the peer cannot stream")
    """
    assert findings(source, "AC108", preview=True) == [17]


def test_a_connection_wrapper_built_from_the_card_sends_with_it():
    source = """
    from uuid import uuid4
    import httpx
    from a2a.client import A2ACardResolver, A2AClient
    from a2a.types import AgentCard, Message, MessageSendParams, SendMessageRequest, TextPart


    class Channel:
        def __init__(self, http: httpx.AsyncClient, card: AgentCard):
            self.client = A2AClient(httpx_client=http, agent_card=card)

        async def send_message(self, request: SendMessageRequest):
            return await self.client.send_message(request)


    async def hello(url: str):
        async with httpx.AsyncClient() as http:
            card = await A2ACardResolver(http, url).get_agent_card()
            channel = Channel(http, card)
            request = SendMessageRequest(id=uuid4().hex, params=MessageSendParams(message=Message(
                role="user", message_id=uuid4().hex, parts=[TextPart(text="hello")])))
            return await channel.send_message(request)
    """
    assert findings(source, "AC108", preview=True) == [22]


def test_a_raw_peer_object_made_from_the_card_json_sends_with_it():
    source = """
    import requests


    class Peer:
        def __init__(self, card: dict):
            self.endpoint = card["url"]

        def ask(self, text: str) -> dict:
            body = {"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": {"message": {
                "role": "user", "messageId": "m-1", "parts": [{"kind": "text", "text": text}]}}}
            return requests.post(self.endpoint, json=body).json()


    def greet(base: str) -> dict:
        peer = Peer(requests.get(base + "/.well-known/agent.json").json())
        return peer.ask("hello")
    """
    assert findings(source, "AC108", preview=True) == [17]
