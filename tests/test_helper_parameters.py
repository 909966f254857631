"""A helper's parameter is what its callers pass: code moved into a helper of its own is
judged by the values its call sites give it, not by everything they could hold. Each
source is a client as a developer writes it, its findings marked ``# expect: CODE``."""

from __future__ import annotations

import textwrap

import pytest
from test_rule_examples import expected

from a2alint.runner import lint_source

#: A hash helper given the contract fields of a raw JSON card; a second caller hands it the
#: whole card, which is still found in the helper.
HASH_HELPER_RAW = """
import hashlib
import json

import httpx

CONTRACT_KEYS = ("protocolVersion", "securitySchemes", "security")


def _sha256_json(payload) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True, separators=(",", ":")).encode()).hexdigest()  # {mark}


def pin_peer(base_url: str) -> str:
    card = httpx.get(f"{base_url}/.well-known/agent-card.json", timeout=5).json()
    return _sha256_json({key: card.get(key) for key in CONTRACT_KEYS})
"""

HASH_HELPER_RAW_WHOLE = HASH_HELPER_RAW + '''

def pin_whole(base_url: str) -> str:
    card = httpx.get(f"{base_url}/.well-known/agent-card.json", timeout=5).json()
    return _sha256_json(card)
'''

#: The same with an a2a-sdk card, a static method and a keyword argument.
HASH_HELPER_SDK = """
import hashlib
import json

from a2a.client import A2ACardResolver


class ContractPin:
    @staticmethod
    def _digest(blob, salt=""):
        return hashlib.sha256((salt + json.dumps(blob, sort_keys=True, default=str)).encode()).hexdigest()  # {mark}

    async def pin(self, resolver: A2ACardResolver) -> str:
        card = await resolver.get_agent_card()
        terms = {k: v for k, v in card.model_dump().items() if k in ("protocol_version", "security_schemes", "security")}
        return self._digest(blob=terms)
"""

HASH_HELPER_SDK_WHOLE = HASH_HELPER_SDK + '''
    async def pin_all(self, resolver: A2ACardResolver) -> str:
        card = await resolver.get_agent_card()
        return self._digest(blob=card.model_dump())
'''

#: A module function that keeps the card and its pin on the session it is handed (an a2a-sdk client).
STORE_THROUGH_SESSION = '''
import hashlib
import json

from a2a.client import A2ACardResolver, ClientFactory
from a2a.types import Message


def contract_hash(card) -> str:
    terms = {"protocol_version": card.protocol_version, "security_schemes": card.security_schemes, "security": card.security}
    return hashlib.sha256(json.dumps(terms, sort_keys=True, default=str).encode()).hexdigest()


def bind_peer(session, card):
    """Keep the peer's card and the pin of its terms on the session."""
    session.card = card
    session.pin = contract_hash(card)


class PeerSession:
    def __init__(self, client):
        self.client = client

    @classmethod
    async def open(cls, resolver: A2ACardResolver, factory: ClientFactory) -> "PeerSession":
        card = await resolver.get_agent_card()
        session = cls(factory.create(card))
        bind_peer(session, card)
        return session

    async def ask(self, message: Message):
        message.metadata = {"peer_pin": self.pin}
        async for event in self.client.send_message(message):
            yield event
'''

#: The same from a constructor that hands the helper ``self`` (raw JSON-RPC over httpx).
STORE_THROUGH_SELF = '''
import hashlib
import json
import uuid

import httpx

TERMS = ("protocolVersion", "securitySchemes", "security")


def _pin_terms(conn, doc: dict) -> None:
    conn.terms_sha = hashlib.sha256(json.dumps({k: doc.get(k) for k in TERMS}, sort_keys=True).encode()).hexdigest()


class RpcPeer:
    def __init__(self, base: str):
        self.http = httpx.Client(base_url=base, timeout=30)
        doc = self.http.get("/.well-known/agent-card.json").json()
        self.url = doc["url"]
        _pin_terms(self, doc)

    def send(self, text: str) -> dict:
        body = {"jsonrpc": "2.0", "id": str(uuid.uuid4()), "method": "message/send",
                "params": {"message": {"role": "user", "messageId": str(uuid.uuid4()),
                                       "parts": [{"kind": "text", "text": text}]},
                           "metadata": {"terms": self.terms_sha}}}
        return self.http.post(self.url, json=body).json()
'''

#: A helper calls the send of the pinning wrapper its caller hands it (typed there, not in the helper).
METHOD_OF_HANDED_OBJECT = '''
import hashlib
import json
import uuid

from a2a.client import Client
from a2a.types import Message, Part, Role, TextPart


def contract_hash(card) -> str:
    terms = {"protocol_version": card.protocol_version, "security_schemes": card.security_schemes, "security": card.security}
    return hashlib.sha256(json.dumps(terms, sort_keys=True, default=str).encode()).hexdigest()


class PinnedClient:
    """Every message goes out with the pin of the peer's terms taken at construction."""

    def __init__(self, client: Client, card):
        self.client = client
        self.pin = contract_hash(card)

    async def send_message(self, message: Message):
        message.metadata = {**(message.metadata or {}), "pin": self.pin}
        async for event in self.client.send_message(message):
            yield event


async def _relay(pinned, message):
    async for event in pinned.send_message(message):
        print(event)


async def ask(pinned: PinnedClient, text: str):
    await _relay(pinned, Message(role=Role.user, message_id=uuid.uuid4().hex, parts=[Part(root=TextPart(text=text))]))
'''

#: The same wrapper over a 0.2 ``A2AClient``, handed from an attribute of another object.
METHOD_OF_HANDED_ATTRIBUTE = '''
import hashlib
import json
from uuid import uuid4

import httpx
from a2a.client import A2ACardResolver, A2AClient
from a2a.types import AgentCard, Message, MessageSendParams, Part, Role, SendMessageRequest, TextPart



def card_digest(card: AgentCard) -> str:
    terms = card.model_dump(include={"protocol_version", "security_schemes", "security"})
    return hashlib.sha256(json.dumps(terms, sort_keys=True, default=str).encode()).hexdigest()


class PinnedLink:
    def __init__(self, http: httpx.AsyncClient, card: AgentCard):
        self.client = A2AClient(http, agent_card=card)
        self.digest = card_digest(card)

    async def send_message(self, request: SendMessageRequest):
        request.params.metadata = {"digest": self.digest}
        return await self.client.send_message(request)


async def submit(link, text):
    message = Message(role=Role.user, message_id=uuid4().hex, parts=[Part(root=TextPart(text=text))])
    return await link.send_message(SendMessageRequest(id=uuid4().hex, params=MessageSendParams(message=message)))


class Desk:
    def __init__(self, http: httpx.AsyncClient, base: str):
        self.http, self.base = http, base
        self.link: PinnedLink | None = None

    async def ask(self, text: str):
        if self.link is None:
            card = await A2ACardResolver(self.http, self.base).get_agent_card()
            self.link = PinnedLink(self.http, card)
        return await submit(self.link, text)
'''

#: A task id made up by a helper of the client's (raw JSON-RPC): a new task, not one the server made.
MINTED_BY_HELPER_RAW = '''
import uuid

import requests


def new_task_id() -> str:
    return f"job-{uuid.uuid4().hex}"


def delegate(base: str, text: str) -> dict:
    card = requests.get(base + "/.well-known/agent-card.json", timeout=5).json()
    tid = new_task_id()
    payload = {"jsonrpc": "2.0", "id": tid, "method": "message/send",
               "params": {"message": {"role": "user", "parts": [{"kind": "text", "text": text}],
                                      "messageId": tid, "taskId": tid}}}
    return requests.post(card["url"], json=payload, timeout=30).json()  # expect: AC103
'''

#: The same made up by a method through a local name (a2a-sdk 0.3).
MINTED_BY_METHOD_SDK = '''
from uuid import uuid4

import httpx
from a2a.client import A2ACardResolver, ClientConfig, ClientFactory
from a2a.types import Message, Part, Role, TextPart


class Router:
    def __init__(self, http: httpx.AsyncClient):
        self.http = http

    def _fresh_id(self) -> str:
        ident = uuid4().hex
        return ident

    async def route(self, url: str, text: str):
        card = await A2ACardResolver(self.http, url).get_agent_card()
        if card.security and not card.security_schemes:
            raise RuntimeError("auth mismatch")
        client = ClientFactory(ClientConfig(httpx_client=self.http)).create(card)
        task_id = self._fresh_id()
        msg = Message(role=Role.user, message_id=task_id, task_id=task_id, parts=[Part(root=TextPart(text=text))])
        async for event in client.send_message(msg):  # expect: AC103
            last = event
        return last
'''

#: A readiness probe whose GET is in a helper that hands the response back: its caller reads only the status.
PROBE_THROUGH_HELPER = '''
import time

import requests

CARD_PATH = "/.well-known/agent-card.json"


def _get_card_doc(base: str):
    resp = requests.get(base + CARD_PATH, timeout=2)
    return resp


def is_up(base: str) -> bool:
    resp = _get_card_doc(base)
    return resp.status_code == 200


def wait_until_up(bases: list[str], deadline: float) -> bool:
    while time.monotonic() < deadline:
        if all([is_up(base) for base in bases]):
            return True
        time.sleep(1)
    return False
'''

#: The same helper, whose caller reads the card: a re-fetch without a validator.
PROBE_THROUGH_HELPER_READ = PROBE_THROUGH_HELPER.replace(
    "return resp.status_code == 200", 'return bool(resp.json().get("skills"))'
).replace("timeout=2)\n", "timeout=2)  # expect: AC104\n")

#: A probe through a method returning the response, checked with raise_for_status() (httpx, async).
PROBE_THROUGH_METHOD = '''
import asyncio

import httpx


class Fleet:
    def __init__(self, urls: list[str]):
        self.urls = urls

    async def _fetch_card(self, http: httpx.AsyncClient, url: str) -> httpx.Response:
        reply = await http.get(f"{url}/.well-known/agent-card.json")
        return reply

    async def healthy(self) -> list[str]:
        up = []
        async with httpx.AsyncClient(timeout=3) as http:
            while len(up) < len(self.urls):
                for url in self.urls:
                    reply = await self._fetch_card(http, url)
                    try:
                        reply.raise_for_status()
                    except httpx.HTTPStatusError:
                        continue
                    up.append(url)
                await asyncio.sleep(2)
        return up
'''

#: A helper sets the task's state; its call runs once the card's signature checks out (the check raises).
STATE_SET_BY_HELPER = '''
from a2a.types import TaskState
from a2a.utils.signing import create_signature_verifier


def _mark_completed(task):
    task.status.state = TaskState.completed


def resume_from_journal(journal: list[dict], card, keys):
    check = create_signature_verifier(keys, ["RS256"])
    for entry in journal:
        check(card)  # raises when the card's signature does not verify
        _mark_completed(entry["task"])  # expect: AC201
'''

#: The same helper given the task's own status: the state comes from the status channel.
STATE_FROM_STATUS_BY_HELPER = '''
from a2a.client import Client
from a2a.types import TaskQueryParams
from a2a.utils.signing import create_signature_verifier


def _apply(task, fresh):
    task.status.state = fresh.status.state


async def resume_from_journal(client: Client, journal: list[dict], card, keys):
    create_signature_verifier(keys, ["RS256"])(card)
    for entry in journal:
        task = entry["task"]
        _apply(task, await client.get_task(TaskQueryParams(id=task.id)))
'''

#: A server-side executor whose method moves the task with a TaskUpdater, when a peer card's skills say so.
STATE_MOVED_BY_METHOD = '''
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.tasks import TaskUpdater
from a2a.types import AgentCard


class FastTrackExecutor(AgentExecutor):
    def __init__(self, peer_card: AgentCard):
        self.peer_card = peer_card

    async def _finish(self, updater):
        await updater.complete()

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        updater = TaskUpdater(event_queue, context.task_id, context.context_id)
        if "fast-track" in {skill.id for skill in self.peer_card.skills}:
            await self._finish(updater)  # expect: AC201

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        raise NotImplementedError
'''

#: A helper makes the text its caller hashes, without sort_keys (raw JSON); one for a log line is no digest.
CANONICAL_TEXT_BY_HELPER = '''
import hashlib
import json

import httpx


def _canonical(terms) -> str:
    return json.dumps(terms, separators=(",", ":"))  # expect: AC107


def _for_log(doc) -> str:
    return json.dumps(doc, indent=2)


def contract_hash(base: str) -> str:
    card = httpx.get(f"{base}/.well-known/agent-card.json", timeout=5).json()
    print(_for_log(card))
    terms = {key: card[key] for key in ("protocolVersion", "securitySchemes", "security")}
    return hashlib.sha256(_canonical(terms).encode()).hexdigest()
'''

#: A method's repr() of the contract fields, hashed by its caller with blake2b (a2a-sdk card).
REPR_BY_METHOD = '''
import hashlib

from a2a.types import AgentCard


class Pinning:
    def _text(self, card: AgentCard) -> str:
        return repr(card.model_dump(include={"protocol_version", "security_schemes", "security"}))  # expect: AC107

    def pin(self, card: AgentCard) -> str:
        return hashlib.blake2b(self._text(card).encode(), digest_size=16).hexdigest()
'''

#: A helper sends on a client made from a fetched card; another compares the card's version first.
SENT_BY_HELPER_SDK = '''
from a2a.client import A2ACardResolver, ClientConfig, ClientFactory


async def _stream(client, message):
    async for event in client.send_message(message):
        print(event)


async def _stream_checked(client, card, message):
    if card.protocol_version not in ("0.3.0",):
        raise RuntimeError(f"peer speaks A2A {card.protocol_version}")
    async for event in client.send_message(message):
        print(event)


async def delegate(http, url, message):
    card = await A2ACardResolver(http, url).get_agent_card()
    client = ClientFactory(ClientConfig(httpx_client=http)).create(card)
    await _stream(client, message)  # expect: AC108


async def delegate_checked(http, url, message):
    card = await A2ACardResolver(http, url).get_agent_card()
    client = ClientFactory(ClientConfig(httpx_client=http)).create(card)
    await _stream_checked(client, card, message)
'''

#: A JSON-RPC helper posts the message to the fetched card's URL (raw httpx).
SENT_BY_HELPER_RAW = '''
import uuid

import httpx


def _rpc(http: httpx.Client, url: str, method: str, params: dict) -> dict:
    body = {"jsonrpc": "2.0", "id": str(uuid.uuid4()), "method": method, "params": params}
    return http.post(url, json=body, timeout=30).json()


def ask(base: str, text: str, digest: str) -> dict:
    with httpx.Client() as http:
        card = http.get(f"{base}/.well-known/agent-card.json").json()
        message = {"role": "user", "messageId": str(uuid.uuid4()), "parts": [{"kind": "text", "text": text}]}
        return _rpc(http, card["url"], "message/send", {"message": message, "metadata": {"contract_hash": digest}})  # expect: AC108
'''

#: A task update handler fails the task through a helper when the card's security schemes moved.
FAILED_BY_HELPER = '''
from a2a.types import Task, TaskState


def _give_up(task: Task) -> None:
    task.status.state = TaskState.failed


async def on_task_update(task: Task, frozen_schemes: dict, peer_card) -> None:
    if peer_card.security_schemes != frozen_schemes:
        _give_up(task)  # expect: AC105
'''

#: A relay's helper fails the TaskUpdater when the card re-read in the stream hashes otherwise.
FAILED_BY_UPDATER_HELPER = '''
from a2a.client import A2ACardResolver, Client
from a2a.server.tasks import TaskUpdater
from a2a.types import Message


async def _abandon(updater: TaskUpdater, reason: str) -> None:
    await updater.failed()


async def relay(client: Client, resolver: A2ACardResolver, updater: TaskUpdater, message: Message, pinned: str, contract_hash):
    async for event in client.send_message(message):
        card = await resolver.get_agent_card()
        if contract_hash(card) != pinned:
            await _abandon(updater, "peer contract moved")  # expect: AC105
            return
'''

#: A helper that always raises, called when two cards' skills differ (another only logs unless told to be strict).
RAISED_BY_HELPER = '''
import logging

from a2a.client import A2ACardResolver
from a2a.types import AgentCard


class PeerChanged(RuntimeError):
    pass


def _refuse(peer: str) -> None:
    raise PeerChanged(f"{peer} changed what it offers")


def _note(peer: str, strict: bool) -> None:
    if strict:
        raise PeerChanged(peer)
    logging.info("%s changed what it offers", peer)


async def guard(resolver: A2ACardResolver, pinned: AgentCard, peer: str) -> None:
    fresh = await resolver.get_agent_card()
    if {s.id for s in fresh.skills} != {s.id for s in pinned.skills}:
        _refuse(peer)  # expect: AC106


async def watch(resolver: A2ACardResolver, pinned: AgentCard, peer: str) -> None:
    fresh = await resolver.get_agent_card()
    if {s.id for s in fresh.skills} != {s.id for s in pinned.skills}:
        _note(peer, strict=False)
'''

#: A method that stops the intake when the input modes of two raw cards differ.
RAISED_BY_METHOD = '''
import httpx


class Intake:
    def __init__(self, base: str):
        self.base = base
        self.pinned = httpx.get(f"{base}/.well-known/agent-card.json", timeout=10).json()

    def _abort(self, what: str) -> None:
        raise SystemExit(f"peer {self.base} moved its {what}; stopping the intake")

    def preflight(self) -> None:
        doc = httpx.get(f"{self.base}/.well-known/agent-card.json", timeout=10).json()
        if doc.get("defaultInputModes") != self.pinned.get("defaultInputModes"):
            self._abort("input modes")  # expect: AC106
'''

#: A helper stamps the contract digest into the request's metadata before the send (a2a-sdk 1.x).
DIGEST_STAMPED_BY_HELPER = '''
import hashlib
import json
from uuid import uuid4

from a2a.client import Client
from a2a.types import AgentCard, Message, Part, Role, SendMessageRequest


def contract_digest(card: AgentCard) -> str:
    terms = {"versions": sorted(i.protocol_version for i in card.supported_interfaces), "schemes": sorted(card.security_schemes)}
    return hashlib.sha256(json.dumps(terms, sort_keys=True).encode()).hexdigest()


def _stamp(request: SendMessageRequest, card: AgentCard) -> None:
    request.metadata.update({"contract_digest": contract_digest(card)})


async def ask(client: Client, card: AgentCard, text: str) -> None:
    request = SendMessageRequest(message=Message(role=Role.ROLE_USER, message_id=uuid4().hex, parts=[Part(text=text)]))
    _stamp(request, card)
    async for response in client.send_message(request):
        print(response)
'''

#: A method seals the message with the pin its object keeps (a2a-sdk 0.3).
DIGEST_SEALED_BY_METHOD = '''
import uuid

from a2a.client import Client
from a2a.types import Message, Part, Role, TextPart


class Courier:
    def __init__(self, client: Client, pin: str):
        self.client, self.pin = client, pin

    def _seal(self, message: Message) -> None:
        message.metadata = {**(message.metadata or {}), "card_hash": self.pin}

    async def deliver(self, text: str):
        message = Message(role=Role.user, message_id=uuid.uuid4().hex, parts=[Part(root=TextPart(text=text))])
        self._seal(message)
        return [event async for event in self.client.send_message(message)]
'''

#: A helper builds the reply with the contract hash it is handed in its metadata (raw requests).
DIGEST_IN_BUILT_MESSAGE = '''
import uuid

import requests


def build_reply(task_id: str, text: str, terms: str) -> dict:
    msg = {"kind": "message", "role": "user", "messageId": uuid.uuid4().hex, "taskId": task_id,
           "parts": [{"kind": "text", "text": text}], "metadata": {"contractHash": terms}}
    return msg


def answer(endpoint: str, job_id: str, text: str, terms: str) -> dict:
    body = {"jsonrpc": "2.0", "id": uuid.uuid4().hex, "method": "message/send",
            "params": {"message": build_reply(job_id, text, terms)}}
    return requests.post(endpoint, json=body, timeout=30).json()
'''

#: A method builds the JSON-RPC params with the card hash (httpx).
DIGEST_IN_BUILT_PARAMS = '''
import uuid

import httpx


class Relay:
    def __init__(self, url: str):
        self.url = url
        self.http = httpx.Client(timeout=30)

    def _params(self, text: str, pin: str) -> dict:
        params = {"message": {"role": "user", "messageId": str(uuid.uuid4()), "parts": [{"kind": "text", "text": text}]},
                  "metadata": {"card_hash": pin}}
        return params

    def send(self, text: str, pin: str) -> dict:
        payload = {"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": self._params(text, pin)}
        return self.http.post(self.url, json=payload).json()
'''

#: A classmethod hands cls to a module function that makes the session with its contract (raw httpx).
MADE_BY_CLASS_HELPER = '''
import hashlib
import json

import requests

TERMS = ("protocolVersion", "securitySchemes", "security")


def pin_of(doc: dict) -> str:
    return hashlib.sha256(json.dumps({k: doc.get(k) for k in TERMS}, sort_keys=True).encode()).hexdigest()


def _channel_for(cls, doc: dict, session: requests.Session):
    return cls(doc["url"], pin_of(doc), session)


class Channel:
    def __init__(self, endpoint: str, pin: str, session: requests.Session):
        self.endpoint = endpoint
        self.pin = pin
        self.session = session

    @classmethod
    def discover(cls, host: str, session: requests.Session | None = None) -> "Channel":
        session = session or requests.Session()
        doc = session.get(f"https://{host}/.well-known/agent-card.json", timeout=10).json()
        return _channel_for(cls, doc, session)

    def post(self, text: str) -> dict:
        envelope = {"jsonrpc": "2.0", "id": "1", "method": "message/send",
                    "params": {"message": {"role": "user", "messageId": "1", "parts": [{"kind": "text", "text": text}]},
                               "metadata": {"pin": self.pin}}}
        return self.session.post(self.endpoint, json=envelope, timeout=30).json()
'''

#: The same with an a2a-sdk 0.2 client, cls passed by keyword.
MADE_BY_CLASS_KEYWORD = '''
import hashlib
import json

import httpx
from a2a.client import A2AClient
from a2a.types import AgentCard, MessageSendParams, SendMessageRequest


def terms_of(card: AgentCard) -> str:
    fields = {"protocolVersion": card.protocol_version, "securitySchemes": card.security_schemes, "security": card.security}
    return hashlib.sha256(json.dumps(fields, sort_keys=True, default=str).encode()).hexdigest()


def build_desk(client: A2AClient, card: AgentCard, cls):
    return cls(client, terms_of(card))


class PricingDesk:
    def __init__(self, client: A2AClient, terms: str):
        self.client, self.terms = client, terms

    @classmethod
    async def open(cls, http: httpx.AsyncClient, card: AgentCard) -> "PricingDesk":
        return build_desk(A2AClient(http, agent_card=card), card, cls=cls)

    async def quote(self, params: MessageSendParams):
        params.metadata = {"terms": self.terms}
        return await self.client.send_message(SendMessageRequest(id="q1", params=params))
'''

#: A digest a module helper stores on the connection it is handed; the class never reads it back.
DIGEST_PINNED_ON_HANDED_SELF = '''
"""A peer connection whose contract digest is pinned by a module helper that is handed
the connection; the class itself never touches the attribute."""

import hashlib
import json

from a2a.client import Client
from a2a.types import AgentCard, Message


def contract_sha(card: AgentCard) -> str:
    terms = card.model_dump(mode="json", include={"protocol_version", "security_schemes", "security"})
    return hashlib.sha256(json.dumps(terms, sort_keys=True).encode()).hexdigest()


def pin_contract(conn, card: AgentCard) -> None:
    conn.pinned_sha = contract_sha(card)


class PeerConnection:
    def __init__(self, client: Client, card: AgentCard) -> None:
        self.client = client
        pin_contract(self, card)

    async def ask(self, message: Message):
        async for event in self.client.send_message(message):
            yield event
'''

#: A method called on what a helper's untyped parameter holds (``peer.strategy.execute(m)``) is that
#: class's method: the wrapper's callers are judged, and this one attaches the digest.
STRATEGY_OF_HANDED_PEER = '''
"""Delivery strategies behind a peer: the peer's helpers are handed the peer and call
the strategy it holds; the caller attaches the contract digest to every message."""

import hashlib
import json

import httpx
from a2a.client import A2ACardResolver, Client, ClientConfig, ClientFactory
from a2a.types import Message


def contract_digest(card) -> str:
    terms = {"protocolVersion": card.protocol_version, "security": card.security}
    return hashlib.sha256(json.dumps(terms, sort_keys=True, default=str).encode()).hexdigest()


class BlockingStrategy:
    def __init__(self, sdk: Client) -> None:
        self._sdk = sdk

    async def execute(self, message: Message):
        last = None
        async for event in self._sdk.send_message(message):
            last = event
        return last


class Peer:
    def __init__(self, http: httpx.AsyncClient, url: str) -> None:
        self.http, self.url = http, url
        self.strategy: BlockingStrategy | None = None
        self.digest = ""

    async def connect(self) -> None:
        card = await A2ACardResolver(self.http, self.url).get_agent_card()
        self.digest = contract_digest(card)
        self.strategy = BlockingStrategy(ClientFactory(ClientConfig(httpx_client=self.http)).create(card))


async def deliver(peer, message: Message):
    return await peer.strategy.execute(message)


async def ask(peer: Peer, message: Message):
    message.metadata = {**(message.metadata or {}), "contract_digest": peer.digest}
    return await deliver(peer, message)
'''

#: The same through a card loader the handed session holds: a re-fetch while the task streams.
CARD_LOADER_OF_HANDED_SESSION = '''
"""A review session re-reads the reviewer's card through a helper handed the session,
while the task it submitted is still streaming, and stops on what the card now says."""

import httpx
from a2a.client import A2ACardResolver, Client
from a2a.types import Message


class CardSource:
    def __init__(self, http: httpx.AsyncClient, url: str) -> None:
        self.http, self.url = http, url

    async def load(self):
        return await A2ACardResolver(self.http, self.url).get_agent_card()  # expect: AC101, AC104


class ReviewSession:
    def __init__(self, http: httpx.AsyncClient, url: str, client: Client) -> None:
        self.cards = CardSource(http, url)
        self.client = client


async def current_card(session):
    return await session.cards.load()


async def review(session: ReviewSession, message: Message) -> list:
    events = []
    async for event in session.client.send_message(message):  # expect: AC103
        events.append(event)
        card = await current_card(session)
        if not card.capabilities.streaming:
            break
    return events
'''

#: A draft-era job id the client mints, polled through a helper handed the id: the card is read
#: before the job exists.
DRAFT_JOB_POLLED_BY_HELPER = '''
"""Draft-protocol renders: the job id is ours, sent with tasks/send, then polled through
a small helper that posts tasks/get for the id it is handed."""

import hashlib
import json
import time
import uuid

import requests

DOC = "/.well-known/agent.json"


def terms_digest(doc: dict) -> str:
    terms = {k: doc.get(k) for k in ("protocolVersion", "securitySchemes", "security")}
    return hashlib.sha256(json.dumps(terms, sort_keys=True).encode()).hexdigest()


def job_state(web: requests.Session, endpoint: str, job_id: str) -> str:
    body = {"jsonrpc": "2.0", "id": 2, "method": "tasks/get", "params": {"id": job_id}}
    return web.post(endpoint, json=body, timeout=30).json()["result"]["status"]["state"]


def render(web: requests.Session, base: str, scene: str) -> str:
    doc = web.get(base + DOC, timeout=10).json()
    job = uuid.uuid4().hex
    params = {"id": job, "message": {"role": "user", "parts": [{"type": "text", "text": scene}]},
              "metadata": {"terms": terms_digest(doc)}}
    web.post(doc["url"], json={"jsonrpc": "2.0", "id": 1, "method": "tasks/send", "params": params}, timeout=30)
    while (state := job_state(web, doc["url"], job)) not in ("completed", "failed", "canceled"):
        time.sleep(5)
    return state
'''

#: The same with the poll in a method of the runner.
DRAFT_JOB_POLLED_BY_METHOD = '''
"""A draft-protocol (tasks/send) job runner over httpx: it names each job itself, checks
the agent's document before sending, and asks a status method about the job after."""

import asyncio
import hashlib
import json
import secrets

import httpx


class JobRunner:
    def __init__(self, http: httpx.AsyncClient, base: str) -> None:
        self.http, self.base = http, base

    async def status_of(self, job_ref: str) -> str:
        request = {"jsonrpc": "2.0", "id": "poll", "method": "tasks/get", "params": {"id": job_ref}}
        reply = await self.http.post(self.base, json=request)
        return reply.json()["result"]["status"]["state"]

    async def run(self, text: str) -> str:
        document = (await self.http.get(self.base + "/.well-known/agent.json")).json()
        if "tasks/send" not in document.get("methods", ["tasks/send"]):
            raise RuntimeError("the agent no longer takes draft jobs")
        pin = hashlib.sha256(json.dumps({"security": document.get("security")}, sort_keys=True).encode()).hexdigest()
        ref = secrets.token_hex(8)
        send = {"jsonrpc": "2.0", "id": "send", "method": "tasks/send",
                "params": {"id": ref, "message": {"role": "user", "parts": [{"type": "text", "text": text}]}, "metadata": {"pin": pin}}}
        await self.http.post(self.base, json=send)
        while (state := await self.status_of(ref)) == "working":
            await asyncio.sleep(2)
        return state
'''


#: A library object a helper's untyped parameter is handed by every caller (a ``hashlib`` hash)
#: is that library's: what the helper feeds it is hashed.
HASH_OBJECT_FED_BY_HELPER = '''
"""Fingerprints a peer's card for the audit log, feeding the hash through a helper."""

import hashlib

import httpx


def feed_card(digest, card: dict) -> None:
    digest.update(repr(card).encode())  # expect: AC107


def card_fingerprint(base_url: str) -> str:
    card = httpx.get(f"{base_url}/.well-known/agent-card.json").json()
    digest = hashlib.sha256()
    feed_card(digest, card)
    return digest.hexdigest()
'''

#: The same with an ``hmac`` object handed to a method.
MAC_FED_BY_METHOD = '''
"""Signs a contract snapshot with a keyed hash that a method fills in."""

import hmac

import httpx

SECRET = b"audit"


class CardAudit:
    def __init__(self, http: httpx.Client) -> None:
        self.http = http

    def _absorb(self, mac, card: dict) -> None:
        mac.update(str(card).encode())  # expect: AC107

    def seal(self, url: str) -> str:
        card = self.http.get(url + "/.well-known/agent-card.json").json()
        mac = hmac.new(SECRET, digestmod="sha256")
        self._absorb(mac, card)
        return mac.hexdigest()
'''


#: A loop over the endless iterator a helper returns (``itertools.count()``) has no end of its own.
ENDLESS_ATTEMPTS_BY_HELPER = '''
"""Waits for a peer to publish its card again after a deploy, one attempt after another."""

import asyncio
import itertools

import httpx
from a2a.client import A2ACardResolver


def attempts():
    return itertools.count(1)


async def wait_for_card(http: httpx.AsyncClient, url: str):
    resolver = A2ACardResolver(http, url)
    for attempt in attempts():  # expect: AC202
        try:
            return await resolver.get_agent_card()
        except httpx.HTTPError:
            await asyncio.sleep(min(attempt, 30))
'''

#: The same with ``itertools.repeat`` returned by a method.
ENDLESS_TICKS_BY_METHOD = '''
"""A directory entry that re-reads the peer's JSON card until the peer answers."""

import itertools
import time

import requests


class DirectoryEntry:
    def __init__(self, base: str) -> None:
        self.base = base
        self.web = requests.Session()

    def _ticks(self):
        return itertools.repeat(None)

    def card(self) -> dict:
        for _ in self._ticks():  # expect: AC202
            reply = self.web.get(self.base + "/.well-known/agent-card.json", timeout=5)
            if reply.ok:
                return reply.json()
            time.sleep(2)
'''


#: A client whose ``refresh()`` checks the card's age and calls a module helper handed
#: ``self`` that stores the fetched card on it: the store is the client's, as if inline.
CARD_STORED_ON_HANDED_SELF = '''
"""A peer client that keeps the peer's card and reloads it every ten minutes."""

import time

import httpx
from a2a.client import A2ACardResolver

CARD_MAX_AGE = 600


async def _load_card(self, url):
    resolver = A2ACardResolver(self.http, url)
    self.card = await resolver.get_agent_card()  # expect: AC104
    self.loaded_at = time.monotonic()


class PeerClient:
    def __init__(self, http: httpx.AsyncClient, url: str) -> None:
        self.http = http
        self.url = url
        self.card = None
        self.loaded_at = 0.0

    async def refresh(self):
        if self.card is None or time.monotonic() - self.loaded_at > CARD_MAX_AGE:
            await _load_card(self, self.url)
        return self.card
'''

#: The same over plain HTTP, the helper handed a process-wide registry object.
CARD_STORED_ON_HANDED_REGISTRY = '''
"""Partner cards read over plain HTTP into one process-wide registry, re-read after five minutes."""

import time

import requests

TTL_SECONDS = 300


class CardRegistry:
    def __init__(self) -> None:
        self.cards: dict = {}
        self.fetched: dict = {}


REGISTRY = CardRegistry()


def _fetch_into(registry, base):
    reply = requests.get(base + "/.well-known/agent-card.json", timeout=5)  # expect: AC104
    registry.cards[base] = reply.json()
    registry.fetched[base] = time.time()


def partner_card(base: str) -> dict:
    if base not in REGISTRY.cards or time.time() - REGISTRY.fetched[base] > TTL_SECONDS:
        _fetch_into(REGISTRY, base)
    return REGISTRY.cards[base]
'''


SOURCES = {
    "hash-helper-raw": HASH_HELPER_RAW.replace("{mark}", "the contract fields only"),
    "hash-helper-raw-whole": HASH_HELPER_RAW_WHOLE.replace("{mark}", "expect: AC107"),
    "hash-helper-sdk": HASH_HELPER_SDK.replace("{mark}", "the contract fields only"),
    "hash-helper-sdk-whole": HASH_HELPER_SDK_WHOLE.replace("{mark}", "expect: AC107"),
    "store-through-session": STORE_THROUGH_SESSION,
    "store-through-self": STORE_THROUGH_SELF,
    "method-of-handed-object": METHOD_OF_HANDED_OBJECT,
    "method-of-handed-attribute": METHOD_OF_HANDED_ATTRIBUTE,
    "minted-by-helper-raw": MINTED_BY_HELPER_RAW,
    "minted-by-method-sdk": MINTED_BY_METHOD_SDK,
    "probe-through-helper": PROBE_THROUGH_HELPER,
    "probe-through-helper-read": PROBE_THROUGH_HELPER_READ,
    "probe-through-method": PROBE_THROUGH_METHOD,
    "state-set-by-helper": STATE_SET_BY_HELPER,
    "state-from-status-by-helper": STATE_FROM_STATUS_BY_HELPER,
    "state-moved-by-method": STATE_MOVED_BY_METHOD,
    "canonical-text-by-helper": CANONICAL_TEXT_BY_HELPER,
    "repr-by-method": REPR_BY_METHOD,
    "digest-stamped-by-helper": DIGEST_STAMPED_BY_HELPER,
    "digest-sealed-by-method": DIGEST_SEALED_BY_METHOD,
    "digest-in-built-message": DIGEST_IN_BUILT_MESSAGE,
    "digest-in-built-params": DIGEST_IN_BUILT_PARAMS,
    "made-by-class-helper": MADE_BY_CLASS_HELPER,
    "made-by-class-keyword": MADE_BY_CLASS_KEYWORD,
    "digest-pinned-on-handed-self": DIGEST_PINNED_ON_HANDED_SELF,
    "strategy-of-handed-peer": STRATEGY_OF_HANDED_PEER,
    "card-loader-of-handed-session": CARD_LOADER_OF_HANDED_SESSION,
    "draft-job-polled-by-helper": DRAFT_JOB_POLLED_BY_HELPER,
    "draft-job-polled-by-method": DRAFT_JOB_POLLED_BY_METHOD,
    "hash-object-fed-by-helper": HASH_OBJECT_FED_BY_HELPER,
    "mac-fed-by-method": MAC_FED_BY_METHOD,
    "endless-attempts-by-helper": ENDLESS_ATTEMPTS_BY_HELPER,
    "endless-ticks-by-method": ENDLESS_TICKS_BY_METHOD,
    "card-stored-on-handed-self": CARD_STORED_ON_HANDED_SELF,
    "card-stored-on-handed-registry": CARD_STORED_ON_HANDED_REGISTRY,
}


@pytest.mark.parametrize("name", SOURCES)
def test_findings_are_judged_by_what_callers_pass(name):
    source = textwrap.dedent(SOURCES[name])
    result = lint_source(source, path=f"{name}.py")
    assert result.errors == []
    assert sorted((d.line, d.code) for d in result.diagnostics) == expected(source)


#: Sources checked with one rule (off by default, or one other rules also speak of): (source, the rule).
ONE_RULE = {
    "sent-by-helper-sdk": (SENT_BY_HELPER_SDK, "AC108"),
    "sent-by-helper-raw": (SENT_BY_HELPER_RAW, "AC108"),
    "failed-by-helper": (FAILED_BY_HELPER, "AC105"),
    "failed-by-updater-helper": (FAILED_BY_UPDATER_HELPER, "AC105"),
    "raised-by-helper": (RAISED_BY_HELPER, "AC106"),
    "raised-by-method": (RAISED_BY_METHOD, "AC106"),
}


@pytest.mark.parametrize("name", ONE_RULE)
def test_one_rule_findings_are_judged_by_what_callers_pass(name):
    source, code = ONE_RULE[name]
    source = textwrap.dedent(source)
    result = lint_source(source, path=f"{name}.py", select=(code,))
    assert result.errors == []
    assert sorted((d.line, d.code) for d in result.diagnostics) == expected(source)
