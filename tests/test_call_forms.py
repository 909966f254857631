"""A call made through a bound method (``read = resp.json; read()``) or a ``functools.partial``
(``read = partial(f, x); read()``) is the call it makes: its callee, its arguments (the
partial's first), the receiver evaluated where it was bound. Each case writes the same
client both ways and expects the same findings (on the same lines, those after a line the
indirect form adds one further down). What each pair shows, two styles each:

- endless: a loop over an endless iterator made through one is endless (AC202);
- bound-receiver: a fetch evaluated where the method or partial is bound is read where it
  is called, and a partial's bind holds a callable, not a call's result (AC104);
- copy: ``dump = card.model_dump; dump()`` copies the card as ``card.model_dump()`` does (AC107);
- search: ``partial(any, (... for s in card.skills))()`` searches the skills (AC102);
- dumps: ``json.dumps`` through a partial is judged by the partial's arguments (AC107);
- envelope: the JSON-RPC method given to a partial names the call (AC103).
"""

from __future__ import annotations

import pytest

from a2alint.runner import lint_source


def findings(source: str, code: str) -> list[tuple[int, str]]:
    return sorted((d.line, d.code) for d in lint_source(source, select=(code,)).diagnostics)


ENDLESS_RESOLVER = """\
import functools, itertools
from a2a.client import A2ACardResolver

async def wait_for_card(resolver: A2ACardResolver, digest, fingerprint):
    ticks = itertools.count
    for _ in {form}:
        card = await resolver.get_agent_card()
        if fingerprint(card) == digest:
            return card
"""

ENDLESS_REQUESTS = """\
import functools, itertools
import requests

def card_when_up(base):
    forever = functools.partial(itertools.repeat, None)
    for _ in {form}:
        reply = requests.get(base + "/.well-known/agent-card.json", timeout=5)
        if reply.status_code == 200:
            return reply.json()
"""

REFETCH_FUNCTION = """\
import functools
import requests

def refresh(base):
    {first}
    {second}
    return card
"""

REFETCH_SESSION = """\
import functools
import requests

class Directory:
    def __init__(self, base):
        self.base, self.session = base, requests.Session()

    def card(self):
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

WHOLE_CARD_PROTOBUF = """\
import functools, hashlib, json
from a2a.types import AgentCard
from google.protobuf.json_format import MessageToDict

def card_digest(card: AgentCard) -> str:
    {form}
    blob = json.dumps(payload, separators=(",", ":"), sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()
"""

WHOLE_CARD_PYDANTIC = """\
import hashlib, json
from a2a.client import A2ACardResolver

async def pin_contract(resolver: A2ACardResolver, store: dict) -> None:
    card = await resolver.get_agent_card()
    {form}
    store["contract"] = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
"""

SKILL_HELPER = """\
import functools
from a2a.types import TaskIdParams

def has_skill(card, skill_id):
    {form}

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
        {form}
            await client.cancel_task(TaskIdParams(id=task.id))
"""

DUMPS_WHOLE_CARD = """\
import functools, hashlib, json
from a2a.client import A2ACardResolver

async def contract_of(resolver: A2ACardResolver) -> str:
    card = await resolver.get_agent_card()
    {form}
    return hashlib.sha256(blob.encode()).hexdigest()
"""

DUMPS_UNSORTED = """\
import functools, hashlib, json
import httpx

def contract_of(http: httpx.Client, base: str) -> str:
    card = http.get(base + "/.well-known/agent-card.json").json()
    {form}
    return hashlib.sha256(blob.encode()).hexdigest()
"""

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
        {form}
        return (await self.http.post(self.url, json=dict(rpc.data))).json()
"""

ENVELOPE_TYPED = """\
import functools, uuid
import httpx
from a2a.types import JSONRPCRequest


def ask(http: httpx.Client, url: str, text: str) -> dict:
    message = {{"role": "user", "parts": [{{"kind": "text", "text": text}}], "messageId": str(uuid.uuid4())}}
    {form}
    return http.post(url, json=body.model_dump()).json()
"""


def case(template: str, code: str, direct: dict[str, str], through: dict[str, str], name: str):
    return pytest.param(template.format(**direct), template.format(**through), code, id=name)


CASES = [
    case(ENDLESS_RESOLVER, "AC202", {"form": "itertools.count()"}, {"form": "ticks()"}, "endless/alias-of-count"),
    case(ENDLESS_REQUESTS, "AC202", {"form": "itertools.repeat(None)"}, {"form": "forever()"}, "endless/partial-of-repeat"),
    case(REFETCH_FUNCTION, "AC104",
         {"first": 'card = requests.get(base + "/.well-known/agent.json").json()',
          "second": 'card = requests.get(base + "/.well-known/agent.json").json()'},
         {"first": 'read = requests.get(base + "/.well-known/agent.json").json; card = read()',
          "second": 'again = requests.get(base + "/.well-known/agent.json").json; card = again()'},
         "bound-receiver/alias-of-a-responses-json"),
    case(REFETCH_HTTPX, "AC104",
         {"first": 'card = (await http.get(base + "/.well-known/agent-card.json")).json()',
          "second": 'card = (await http.get(base + "/.well-known/agent-card.json")).json()'},
         {"first": 'decode = functools.partial((await http.get(base + "/.well-known/agent-card.json")).json); card = decode()',
          "second": 'again = functools.partial((await http.get(base + "/.well-known/agent-card.json")).json); card = again()'},
         "bound-receiver/partial-of-a-responses-json"),
    case(REFETCH_SESSION, "AC104",
         {"first": 'card = self.session.get(self.base + "/.well-known/agent-card.json").json()',
          "second": 'card = self.session.get(self.base + "/.well-known/agent-card.json").json()'},
         {"first": 'decode = functools.partial(self.session.get(self.base + "/.well-known/agent-card.json").json); card = decode()',
          "second": 'again = functools.partial(self.session.get(self.base + "/.well-known/agent-card.json").json); card = again()'},
         "bound-receiver/partial-of-a-sessions-json"),
    case(WHOLE_CARD_PROTOBUF, "AC107", {"form": "payload = MessageToDict(card)"},
         {"form": "to_dict = functools.partial(MessageToDict, card); payload = to_dict()"}, "copy/partial-of-MessageToDict"),
    case(WHOLE_CARD_PYDANTIC, "AC107", {"form": "payload = card.model_dump()"},
         {"form": "dump = card.model_dump; payload = dump()"}, "copy/alias-of-model_dump"),
    case(SKILL_HELPER, "AC102", {"form": "return any(s.id == skill_id for s in card.skills)"},
         {"form": "offered = functools.partial(any, (s.id == skill_id for s in card.skills)); return offered()"},
         "search/partial-of-any-returned"),
    case(SKILL_INLINE, "AC102", {"form": "if not any(s.id == skill for s in latest.skills):"},
         {"form": "offered = functools.partial(any, (s.id == skill for s in latest.skills))\n        if not offered():"},
         "search/partial-of-any-tested"),
    case(DUMPS_WHOLE_CARD, "AC107", {"form": 'blob = json.dumps(card.model_dump(), sort_keys=True)'},
         {"form": 'canonical = functools.partial(json.dumps, card.model_dump(), sort_keys=True); blob = canonical()'},
         "dumps/partial-of-dumps-whole-card"),
    case(DUMPS_UNSORTED, "AC107", {"form": 'blob = json.dumps({"skills": card["skills"], "security": card.get("security")})'},
         {"form": 'canonical = functools.partial(json.dumps, {"skills": card["skills"], "security": card.get("security")}); blob = canonical()'},
         "dumps/partial-of-dumps-unsorted"),
    case(ENVELOPE_PROTOBUF, "AC103", {"form": 'rpc = JSONRPC20Request(method=method, params=json_format.MessageToDict(request), _id="1")'},
         {"form": 'envelope = functools.partial(JSONRPC20Request, method=method, _id="1"); rpc = envelope(params=json_format.MessageToDict(request))'},
         "envelope/partial-of-a-jsonrpc-library-request"),
    case(ENVELOPE_TYPED, "AC103", {"form": 'body = JSONRPCRequest(id="1", method="message/send", params={"message": message})'},
         {"form": 'envelope = functools.partial(JSONRPCRequest, id="1", method="message/send"); body = envelope(params={"message": message})'},
         "envelope/partial-of-an-sdk-request"),
]


@pytest.mark.parametrize("direct, through, code", CASES)
def test_a_call_through_a_bound_method_or_a_partial_is_found_as_the_call_it_makes(direct, through, code):
    expected = findings(direct, code)
    assert code in {c for _, c in expected}, "the direct form is reported"
    added = through.count("\n") - direct.count("\n")
    first_added = next(i for i, (a, b) in enumerate(zip(direct.splitlines(), through.splitlines()), 1) if a != b)
    assert findings(through, code) == [(line + added * (line > first_added), c) for line, c in expected]


BOUNDED_ATTEMPTS = """\
import functools, itertools
import requests

def attempts():
    return itertools.repeat(None, 3)

def card_when_up(base):
    five = functools.partial(itertools.repeat, None, 5)
    for _ in {form}:
        reply = requests.get(base + "/.well-known/agent-card.json", timeout=5)
        if reply.status_code == 200:
            return reply.json()
"""


@pytest.mark.parametrize("form", ["itertools.repeat(None, 5)", "itertools.repeat(None, times=5)", "five()", "attempts()"])
def test_repeat_with_a_count_ends_in_every_form(form):
    """``repeat(x, n)`` stops after ``n``: a retry over it is bounded (``repeat(x)`` is not)."""
    assert lint_source(BOUNDED_ATTEMPTS.format(form=form), "wait.py").diagnostics == []
