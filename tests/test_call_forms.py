"""A call made through a bound method (``read = resp.json; read()``) or a ``functools.partial``
(``read = partial(f, x); read()``) is the call it makes: its callee, its arguments (the
partial's first), the receiver evaluated where it was bound. Each test writes the same
client both ways, on the same lines, and expects the same findings."""

from __future__ import annotations

import pytest

from a2alint.runner import lint_source


def findings(source: str, code: str) -> list[tuple[int, str]]:
    return sorted((d.line, d.code) for d in lint_source(source, select=(code,)).diagnostics)


def same_findings(direct: str, through: str, code: str) -> None:
    expected = findings(direct, code)
    assert code in {c for _, c in expected}, "the direct form is reported"
    assert findings(through, code) == expected


ENDLESS_RESOLVER = """\
import functools, itertools
from a2a.client import A2ACardResolver

async def wait_for_card(resolver: A2ACardResolver, digest, fingerprint):
    ticks = itertools.count
    for _ in {loop}:
        card = await resolver.get_agent_card()
        if fingerprint(card) == digest:
            return card
"""

ENDLESS_REQUESTS = """\
import functools, itertools
import requests

def card_when_up(base):
    forever = functools.partial(itertools.repeat, None)
    for _ in {loop}:
        reply = requests.get(base + "/.well-known/agent-card.json", timeout=5)
        if reply.status_code == 200:
            return reply.json()
"""


@pytest.mark.parametrize("template, direct, through", [
    (ENDLESS_RESOLVER, "itertools.count()", "ticks()"),
    (ENDLESS_REQUESTS, "itertools.repeat(None)", "forever()"),
], ids=["alias-of-count", "partial-of-repeat"])
def test_a_loop_over_an_endless_iterator_made_through_an_alias_is_endless(template, direct, through):
    same_findings(template.format(loop=direct), template.format(loop=through), "AC202")


REFETCH_REQUESTS = """\
import functools
import requests

def refresh(base):
    {first}
    {second}
    return card
"""

REFETCH_HTTPX = """\
import functools
import httpx

async def reload(http: httpx.AsyncClient, base: str):
    {first}
    {second}
    return card
"""


REFETCH_URLLIB = """\
import functools, json
from urllib.request import urlopen

def refresh(base):
    {first}
    {second}
    return card
"""


@pytest.mark.parametrize("template, code, direct, through", [
    (REFETCH_REQUESTS, "AC104",
     {"first": 'card = requests.get(base + "/.well-known/agent.json").json()',
      "second": 'card = requests.get(base + "/.well-known/agent.json").json()'},
     {"first": 'read = requests.get(base + "/.well-known/agent.json").json; card = read()',
      "second": 'again = requests.get(base + "/.well-known/agent.json").json; card = again()'}),
    (REFETCH_HTTPX, "AC104",
     {"first": 'card = (await http.get(base + "/.well-known/agent-card.json")).json()',
      "second": 'card = (await http.get(base + "/.well-known/agent-card.json")).json()'},
     {"first": 'decode = functools.partial((await http.get(base + "/.well-known/agent-card.json")).json); card = decode()',
      "second": 'again = functools.partial((await http.get(base + "/.well-known/agent-card.json")).json); card = again()'}),
    (REFETCH_URLLIB, "AC104",
     {"first": 'card = json.loads(urlopen(base + "/.well-known/agent-card.json").read())',
      "second": 'card = json.loads(urlopen(base + "/.well-known/agent-card.json").read())'},
     {"first": 'load = functools.partial(json.loads, urlopen(base + "/.well-known/agent-card.json").read()); card = load()',
      "second": 'again = functools.partial(json.loads, urlopen(base + "/.well-known/agent-card.json").read()); card = again()'}),
], ids=["alias-of-a-responses-json", "partial-of-a-responses-json", "partial-of-loads-of-a-read"])
def test_a_fetch_evaluated_where_a_call_is_bound_is_read_where_it_is_called(template, code, direct, through):
    same_findings(template.format(**direct), template.format(**through), code)


WHOLE_CARD_PROTOBUF = """\
import functools, hashlib, json
from a2a.types import AgentCard
from google.protobuf.json_format import MessageToDict

def card_digest(card: AgentCard) -> str:
    {dump}
    blob = json.dumps(payload, separators=(",", ":"), sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()
"""

WHOLE_CARD_PYDANTIC = """\
import hashlib, json
from a2a.client import A2ACardResolver

async def pin_contract(resolver: A2ACardResolver, store: dict) -> None:
    card = await resolver.get_agent_card()
    {dump}
    store["contract"] = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
"""


@pytest.mark.parametrize("template, direct, through", [
    (WHOLE_CARD_PROTOBUF, "payload = MessageToDict(card)", "to_dict = functools.partial(MessageToDict, card); payload = to_dict()"),
    (WHOLE_CARD_PYDANTIC, "payload = card.model_dump()", "dump = card.model_dump; payload = dump()"),
], ids=["partial-of-MessageToDict", "alias-of-model_dump"])
def test_a_copy_of_the_card_made_through_an_alias_is_the_whole_card(template, direct, through):
    same_findings(template.format(dump=direct), template.format(dump=through), "AC107")


SKILL_HELPER = """\
import functools
from a2a.types import TaskIdParams

def has_skill(card, skill_id):
    {search}

async def reconcile(client, card, task, skill_id):
    if has_skill(card, skill_id):
        return
    await client.cancel_task(TaskIdParams(id=task.id))
"""

SKILL_INLINE = """\
import functools
from a2a.client import A2ACardResolver
from a2a.types import TaskIdParams

async def follow(client, resolver: A2ACardResolver, request, skill):
    async for task, _ in client.send_message(request):
        latest = await resolver.get_agent_card()
        {search}
            await client.cancel_task(TaskIdParams(id=task.id))
"""


@pytest.mark.parametrize("template, direct, through", [
    (SKILL_HELPER, "return any(s.id == skill_id for s in card.skills)",
     "offered = functools.partial(any, (s.id == skill_id for s in card.skills)); return offered()"),
    (SKILL_INLINE, "if not any(s.id == skill for s in latest.skills):",
     "offered = functools.partial(any, (s.id == skill for s in latest.skills))\n        if not offered():"),
], ids=["partial-of-any-returned", "partial-of-any-tested"])
def test_a_search_of_the_skills_made_through_a_partial_is_that_search(template, direct, through):
    direct_source, through_source = template.format(search=direct), template.format(search=through)
    shift = through_source.count("\n") - direct_source.count("\n")  # a line added before the cancel
    expected = [(line + shift, code) for line, code in findings(direct_source, "AC102")]
    assert expected and findings(through_source, "AC102") == expected


DUMPS_WHOLE_CARD = """\
import functools, hashlib, json
from a2a.client import A2ACardResolver

async def contract_of(resolver: A2ACardResolver) -> str:
    card = await resolver.get_agent_card()
    {dumps}
    return hashlib.sha256(blob.encode()).hexdigest()
"""

DUMPS_UNSORTED = """\
import functools, hashlib, json
import httpx

def contract_of(http: httpx.Client, base: str) -> str:
    card = http.get(base + "/.well-known/agent-card.json").json()
    {dumps}
    return hashlib.sha256(blob.encode()).hexdigest()
"""


@pytest.mark.parametrize("template, direct, through", [
    (DUMPS_WHOLE_CARD, 'blob = json.dumps(card.model_dump(), sort_keys=True)',
     'canonical = functools.partial(json.dumps, card.model_dump(), sort_keys=True); blob = canonical()'),
    (DUMPS_UNSORTED, 'blob = json.dumps({"skills": card["skills"], "security": card.get("security")})',
     'canonical = functools.partial(json.dumps, {"skills": card["skills"], "security": card.get("security")}); blob = canonical()'),
], ids=["partial-of-dumps-whole-card", "partial-of-dumps-unsorted"])
def test_json_dumps_through_a_partial_is_judged_by_the_partials_arguments(template, direct, through):
    same_findings(template.format(dumps=direct), template.format(dumps=through), "AC107")


ENVELOPE_PROTOBUF = """\
import functools, uuid
import httpx
from google.protobuf import json_format
from jsonrpc.jsonrpc2 import JSONRPC20Request
from a2a.types import a2a_pb2


class Line:
    def __init__(self, url):
        self.url, self.http = url, httpx.AsyncClient()

    async def say(self, text):
        msg = a2a_pb2.Message(message_id=str(uuid.uuid4()), parts=[a2a_pb2.Part(text=text)])
        return await self._call("SendMessage", a2a_pb2.SendMessageRequest(message=msg))

    async def _call(self, method, request):
        {envelope}
        return (await self.http.post(self.url, json=dict(rpc.data))).json()
"""

ENVELOPE_TYPED = """\
import functools, uuid
import httpx
from a2a.types import JSONRPCRequest


def ask(http: httpx.Client, url: str, text: str) -> dict:
    message = {{"role": "user", "parts": [{{"kind": "text", "text": text}}], "messageId": str(uuid.uuid4())}}
    {envelope}
    return http.post(url, json=body.model_dump()).json()
"""


@pytest.mark.parametrize("template, direct, through", [
    (ENVELOPE_PROTOBUF, 'rpc = JSONRPC20Request(method=method, params=json_format.MessageToDict(request), _id="1")',
     'envelope = functools.partial(JSONRPC20Request, method=method, _id="1"); rpc = envelope(params=json_format.MessageToDict(request))'),
    (ENVELOPE_TYPED, 'body = JSONRPCRequest(id="1", method="message/send", params={{"message": message}})',
     'envelope = functools.partial(JSONRPCRequest, id="1", method="message/send"); body = envelope(params={{"message": message}})'),
], ids=["partial-of-a-jsonrpc-library-request", "partial-of-an-sdk-request"])
def test_the_json_rpc_method_given_to_a_partial_names_the_call(template, direct, through):
    same_findings(template.format(envelope=direct), template.format(envelope=through), "AC103")
