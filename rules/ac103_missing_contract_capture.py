from __future__ import annotations

from dataclasses import replace
from typing import Container

import libcst as cst

from a2alint.apimodel import MESSAGE_TYPES
from a2alint.flow import Flow, Origin, api_named, argument_texts, flow_of, in_sdk_client, runs_before
from a2alint.freeze import freeze_fix
from a2alint.model import Call, ModuleModel, Scope
from a2alint.values import TYPE
from a2alint.rule import Files, Note, Rule

_EVIDENCE_WORDS = ("contract_hash", "contract_digest", "card_hash", "digest", "fingerprint")


class MissingContractCapture(Rule):
    """A task is sent without freezing the card's contract.

    ## What it does
    Flags a `send` when nothing in the sending function, its class, or the
    send's arguments and metadata captures a canonical hash of the contract
    fields (`protocolVersion` / `supportedInterfaces[].protocolVersion`,
    `securitySchemes`, `security` / `securityRequirements`) or a card digest.
    Evidence that satisfies it: a call of a `contract-capture` function
    (by default names like `*contract_hash*`, `*card_digest*`,
    `freeze_contract`, `capture_contract`, or what `[tool.a2alint.api]`
    declares), a `hashlib` digest over those fields, or a metadata key
    carrying such a digest into the send (also one stored into the message's
    metadata after it is built, `request.metadata.update({...})`,
    `request.metadata[k] = d`, `params.setdefault("metadata", {})[k] = d`, the
    same through a name for the metadata, `meta = request.metadata; meta[k] = d`,
    however that name got it (a dict or record that held it, a project function
    that returns it), or one a project helper the message is handed to before the
    send sets on it).
    One finding per send call. A
    wrapper named like the API (`RemoteAgentConnection.send_message`) is not
    judged itself: calls of it from outside its class are.

    ## Why is this bad?
    Without a frozen contract, nothing can tell later whether the peer is
    still honouring the authorization the task was accepted under. When
    both sides' cards go stale in a mutually consistent way (24 h caches),
    the task silently runs with weaker-than-negotiated authorization; only a
    contract hash captured at send time catches that.

    ## Example
    ```python
    async for event in client.send_message(message):
        ...
    ```

    ## Use instead
    ```python
    digest = contract_hash(card)   # sha256 of canonical JSON of the contract fields
    message.metadata = {**(message.metadata or {}), "contract_digest": digest}
    async for event in client.send_message(message):
        verify_against(digest, event)
    ```

    ## Fix
    Unsafe (review it): `a2alint check --fix --unsafe-fixes`, shown by
    `--diff`, offered as a quick fix in the editor. Where the card the send
    uses is in hand (the card the client was made from, a card passed to the
    send or whose URL it posts to, or the card the connection object keeps),
    the message goes out as `a2a_with_contract_hash(message, card)`:
    ```python
    async for event in client.send_message(a2a_with_contract_hash(message, card)):
    ```
    and the module gains, once, on the line after its last import (after the
    whole line: `import httpx; TIMEOUT = 5` stays before it), in the file's
    own line endings, `a2a_contract_hash(card)`, the SHA-256 of the
    card's protocol version, security schemes and security as canonical
    JSON for a raw JSON, a 0.2/0.3 pydantic or a 1.x protobuf card, and
    `a2a_with_contract_hash`, which stores it under the key
    `a2a_contract_hash` in the metadata of what is sent (a JSON-RPC body's
    `params.metadata`, a 1.x `SendMessageRequest` or `Message`, a 0.2/0.3
    message). The key is an option:
    ```toml
    [tool.a2alint.rules.AC103]
    metadata-key = "contract_sha256"
    ```
    The helpers import `hashlib` and `json` inside themselves, so they use the
    standard library's whatever the module binds to those names (`import ujson
    as json`, an `orjson` fallback), and the module's own names keep their
    meaning. Where the card is not in sight (a client made elsewhere, a caller
    that holds it), or the module binds a helper's name to something else
    (`a2a_contract_hash = None`), there is no fix, and the finding says why.
    `python benchmarks/contract_hash_cards.py` runs the helper on real cards
    of a2a-sdk 0.2, 0.3 and 1.x.

    ## Covers
    a2a-sdk 0.2 (`A2AClient.send_message[_streaming]`), 0.3 and 1.x
    (`Client.send_message`), the `tasks/send` era's `A2AClient.send_task[_streaming]`
    (early a2a, the A2A samples' `common.client`), python-a2a, fasta2a, ADK's send, raw JSON-RPC
    `message/send`, `message/stream`, `tasks/send`, `SendMessage`,
    `SendStreamingMessage` and REST `POST /message:send`.

    ## Limits
    - A field or key of what the send carries whose name contains
      `contract_hash`, `contract_digest`, `card_hash`, `digest` or
      `fingerprint` counts as a frozen contract whatever its value's origin
      (also one stored into the message before the send, or what a project
      helper stores on the message or builds it from), and so does a call of one named like a capture
      (`*contract_hash*`, `*card_digest*`, `freeze_contract`): these words
      only silence the rule (no public send of the sample carries one).
    - A call of a name `cls` that holds a project class (in a classmethod,
      or in a function a classmethod hands `cls` to) is taken for making an
      instance (its constructor), not for calling one.
    - `to_*()`, `as_*()`, `model_dump()` and `MessageToDict()` are taken to
      hand back the same message in another form, and a capitalized callee
      given `params=` / `message=` for a request model that wraps it.
    """

    code = "AC103"
    name = "missing-contract-capture"
    severity = "warning"
    fix_availability = "Sometimes"  # unsafe; only when the card the send uses is in reach
    options = {"metadata-key": "a2a_contract_hash"}

    VALID = [
        Files({
            "contracts.py": """
import hashlib, json

def contract_hash(card: dict) -> str:
    contract = {k: card.get(k) for k in ("protocolVersion", "securitySchemes", "security")}
    return hashlib.sha256(json.dumps(contract, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
""",
            "session.py": """
import httpx

from contracts import contract_hash

class Session:  # the contract is frozen when the session is made, handed in through cls(...)
    def __init__(self, http: httpx.Client, url: str, contract: str):
        self._http, self._url, self._contract = http, url, contract

    @classmethod
    def connect(cls, base_url: str) -> "Session":
        http = httpx.Client()
        card = http.get(base_url + "/.well-known/agent-card.json").json()
        return cls(http, card["url"], contract_hash(card))

    def ask(self, text: str) -> dict:
        message = {"role": "user", "parts": [{"kind": "text", "text": text}], "messageId": "m1"}
        body = {"jsonrpc": "2.0", "id": 1, "method": "message/send",
                "params": {"message": message, "metadata": {"contract": self._contract}}}
        return self._http.post(self._url, json=body).json()
""",
        }),
        """
import hashlib, json
import requests

SENDS = frozenset({"message/send", "message/stream"})  # a set of method names sends nothing

def label(payload: dict) -> str:
    return payload.get("method") or "tasks/sendSubscribe"  # a default string is no call

def check(payload: dict) -> bool:
    return payload.get("method") in SENDS
""",
        """
import hashlib, json
from urllib.parse import urljoin
import requests

class JsonRpc:  # a generic transport: it posts whatever method it is handed
    def __init__(self, url: str):
        self.url = url

    def call(self, method: str, params: dict) -> dict:
        return requests.post(self.url, json={"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).json()

def stream_url(base: str) -> str:
    return urljoin(base, "/message:stream")  # only builds a URL

def ask(rpc: JsonRpc, card: dict, text: str) -> dict:
    contract = {k: card.get(k) for k in ("protocolVersion", "securitySchemes", "security")}
    digest = hashlib.sha256(json.dumps(contract, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
    message = {"role": "user", "parts": [{"kind": "text", "text": text}], "messageId": "m1"}
    return rpc.call("message/send", {"message": message, "metadata": {"contract_digest": digest}})
""",
        """
import hashlib, json
from a2a.client import A2ACardResolver, ClientFactory

async def delegate(resolver: A2ACardResolver, factory: ClientFactory, message):
    card = await resolver.get_agent_card()
    contract = {"protocolVersion": card.protocol_version, "securitySchemes": card.security_schemes}
    digest = hashlib.sha256(json.dumps(contract, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
    message.metadata = {"contract_digest": digest}
    async for event in factory.create(card).send_message(message):
        print(event)
""",
        """
from a2a.client import Client

class Delegator:
    def __init__(self, client: Client, card):
        self.client = client
        self.frozen = self.freeze_contract(card)

    def freeze_contract(self, card):
        return card_digest(card)

    async def run(self, message):
        async for event in self.client.send_message(message):
            print(event)
""",
        """
from a2a.client import A2AClient

class RemoteAgentConnection:
    def __init__(self, http, card):
        self.client = A2AClient(http, card)
        self.digest = card_digest(card)  # frozen for every send of this connection

    async def send_message(self, request):
        request.params.metadata = {"contract_digest": self.digest}
        return await self.client.send_message(request)

async def delegate(conn: RemoteAgentConnection, request):
    return await conn.send_message(request)
""",
        """
from a2a.client import A2ACardResolver, create_client

class Target:
    async def pin(self, http, url) -> str:
        card = await A2ACardResolver(http, url).get_agent_card()
        digest = card_digest(card)  # handed to the caller, for the card every send uses
        self.card = card
        return f"sha256:{digest}"

    async def run(self, request):
        client = await create_client(self.card)
        async for event in client.send_message(request):
            print(event)
""",
        """
class SlackBot:
    def send_message(self, channel, text):  # not A2A client code
        return channel, text

def notify(bot: SlackBot):
    bot.send_message("#ops", "done")
""",
    ]
    INVALID = [
        """
import json
from urllib.request import Request, urlopen


def _envelope(method, params):
    return json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).encode()


class Hub:
    def __init__(self, base):
        self.base = base

    def submit(self, text):
        params = {"message": {"role": "user", "parts": [{"type": "text", "text": text}]}}
        return self._post(_envelope("tasks/send", params))  # expect: AC103

    def _post(self, body):
        req = Request(self.base + "/rpc", data=body, headers={"Content-Type": "application/json"}, method="POST")
        with urlopen(req, timeout=10) as resp:
            return json.loads(resp.read())
""",
        """
import uuid
import httpx
from google.protobuf import json_format
from jsonrpc.jsonrpc2 import JSONRPC20Request
from a2a.types import a2a_pb2


class Line:
    def __init__(self, url):
        self.url, self.http = url, httpx.AsyncClient()

    async def say(self, text):
        msg = a2a_pb2.Message(message_id=str(uuid.uuid4()), parts=[a2a_pb2.Part(text=text)])
        return await self._call("SendMessage", a2a_pb2.SendMessageRequest(message=msg))  # expect: AC103

    async def _call(self, method, request):
        rpc = JSONRPC20Request(method=method, params=json_format.MessageToDict(request), _id="1")
        return (await self.http.post(self.url, json=dict(rpc.data))).json()
""",
        Files({
            "connection.py": """
import httpx
from a2a.client import A2AClient
from a2a.types import AgentCard, SendMessageRequest

class RemoteAgentConnection:  # a thin wrapper: it passes on the request it is given
    def __init__(self, card: AgentCard, url: str):
        self.agent_client = A2AClient(httpx.AsyncClient(), agent_card=card, url=url)

    async def send_message(self, request: SendMessageRequest):
        return await self.agent_client.send_message(request)
""",
            "host.py": """
from uuid import uuid4

from a2a.types import MessageSendParams, SendMessageRequest

from connection import RemoteAgentConnection

class RoutingAgent:
    def __init__(self, connections: dict[str, RemoteAgentConnection]):
        self.conns = connections

    async def send_message(self, agent_name: str, task: str):  # the LLM's tool
        payload = {"message": {"role": "user", "parts": [{"kind": "text", "text": task}], "messageId": uuid4().hex}}
        request = SendMessageRequest(id=uuid4().hex, params=MessageSendParams.model_validate(payload))
        return await self.conns[agent_name].send_message(request)  # expect: AC103
""",
        }),
        """
from a2a.client import A2ACardResolver, create_client

class Peer:
    async def connect(self, http, url):
        self.card = await A2ACardResolver(http, url).get_agent_card()
        self.client = await create_client(self.card)

    def describe(self) -> str:  # for log lines: the digest is shown, never kept
        return f"{self.card.name} ({card_digest(self.card)[:8]})"

    async def ask(self, request):
        async for event in self.client.send_message(request):  # expect: AC103
            print(event)
""",
        """
from a2a.client import ClientFactory

async def delegate(url, message):
    client = await ClientFactory.connect(url)
    async for event in client.send_message(message):  # expect: AC103
        print(event)
""",
        """
from a2a.client import A2AClient

async def ask(client: A2AClient, request):
    return await client.send_message(request)  # expect: AC103
""",
        """
from a2a.client import A2AClient

class RemoteAgentConnection:
    def __init__(self, http, card):
        self.client = A2AClient(http, card)

    async def send_message(self, request):  # a wrapper: its callers are judged
        return await self.client.send_message(request)

async def delegate(conn: RemoteAgentConnection, request):
    return await conn.send_message(request)  # expect: AC103
""",
        """
import httpx

def submit(url, params):
    return httpx.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": params})  # expect: AC103
""",
        """
import httpx
from a2a.types import Message, Part, TextPart


class Transport:
    def __init__(self, url: str, interceptors=()):
        self.url, self.interceptors, self.http = url, list(interceptors), httpx.Client()

    def _apply(self, method: str, payload: dict, http_kwargs: dict):
        final = payload
        for interceptor in self.interceptors:
            final, http_kwargs = interceptor(method, final, http_kwargs)
        return final, http_kwargs

    def post_message(self, message: Message) -> dict:
        payload, kwargs = self._apply("message/send", message.model_dump(mode="json"), {})
        body = {"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": {"message": payload}}
        return self.http.post(self.url, json=body, **kwargs).json()


def ask(transport: Transport, text: str) -> dict:
    card = httpx.get(transport.url + "/.well-known/agent-card.json").json()
    return transport.post_message(Message(role="user", message_id="m1", parts=[Part(root=TextPart(text=text))]))  # expect: AC103
""",
    ]

    def check(self, model: ModuleModel) -> None:
        flow = flow_of(model)
        for scope in model.scopes:
            for call in scope.calls:
                chain, below = self._sends(flow, call)
                if not chain or self._carries_digest(flow, call) or flow.contract_capture(scope) is not None:
                    continue
                notes, card, where = self._card_notes(flow, scope, call)
                fix, why_not = self._freeze(flow, model, call, chain, below, where, notes)
                if len(chain) > 1:
                    notes.append(Note(chain[-1], f"{call.callee or call.method}() sends the task here"))
                what = ""
                if where is not None:
                    purpose = f" to create {call.receiver}" if where.how == "created" else ""
                    what = f" ({card}{', ' if card else ''}fetched at line {{line:card}}{purpose})"
                    if where.how in ("received", "set"):
                        what = f" ({card}, {where.how} at line {{line:card}})"
                self.report(
                    call.node,
                    "task sent without a frozen contract: no contract hash or card digest is captured for it",
                    suggestion=(
                        f"capture the contract of the card this send uses{what} before sending: sha256 of the "
                        "canonical JSON of its contract fields (protocolVersion, securitySchemes, security); attach it to the "
                        "message metadata and verify later peer messages against it"
                        + (f" (no automatic fix: {why_not})" if why_not else "")
                    ),
                    fix=fix,
                    notes=notes,
                    lines={"card": where.node} if where is not None else None,
                )

    def _freeze(self, flow: Flow, model: ModuleModel, call: Call, chain: list[Call], below, where: Origin | None, notes: list[Note]):
        """The fix that attaches the contract hash of the card this send uses, and None
        with the reason when there is none to make here."""
        scope = call.scope
        innermost = chain[-1]
        qualified = flow.qualified(innermost) or ""
        if not qualified.startswith("a2a:") and flow.analysis.wire(innermost) is None:
            package = qualified.split(":")[0].split(".")[0] or "this client"
            return None, f"the fix knows the metadata of a2a-sdk messages and raw JSON-RPC bodies, not {package}'s"
        card = flow.card_attribute(call) if where is None or where.how == "created" else None  # `conn.peer`
        if card is None:
            if where is None:
                last = next((w for n in notes for w in ("fetched", "held") if n.label.startswith(f"the last card {w}")), None)
                if last is not None:
                    return None, (
                        f"the card {last} before it is not tied to this send (not its client, its URL or an "
                        "argument): freeze that card by hand if it is the one"
                    )
                return None, "no card is in sight here: freeze the contract where the card and the message meet"
            if where.how == "created":
                return None, f"the card is fetched inside the making of {call.receiver}, not held in a variable here"
            home = where.bind.scope if where.bind is not None else flow.analysis.scope_of_param(where.node)
            kept = where.key.startswith("self.") and home is not None and home.class_name == scope.class_name
            if home is not scope and not kept:
                return None, f"the card is held in {home.name if home is not None else 'another function'}(), not where the message is sent"
            card = where.key
        if card.startswith("self.") and not (scope.params and scope.params[0].name == "self"):
            return None, f"{card} is not reachable from {scope.name}()"
        found = self._message_argument(flow, call, below)
        if found is None:
            return None, "the message is not passed to the send as one argument"
        argument, node = found
        if below is not None and not _carries_a_message(flow, call.scope, argument.value, call):
            return None, f"what is passed is not a message: {chain[1].scope.name}() builds it, so freeze the contract there"
        return freeze_fix(model, node, card, self.config["metadata-key"])

    @staticmethod
    def _message_argument(flow: Flow, call: Call, below):
        """The one argument of ``call`` that carries the message, with its expression node."""
        arguments = _message_arguments(flow, call) if below is None else _carrying_arguments(flow, call, below)
        found = {id(node): (arg, node) for arg in arguments if (node := _argument_node(call, arg)) is not None}
        return next(iter(found.values())) if len(found) == 1 else None

    @staticmethod
    def _sends(flow: Flow, call: Call) -> tuple[list[Call], list | None]:
        """How ``call`` sends a task, when the send is to be judged at ``call``: the chain
        down to the send, through project functions that only pass on the message they are
        given (a connection wrapper's ``send_message``, a generic JSON-RPC ``_rpc``). The
        function that builds the message is where its contract must be frozen; a chain
        through one that builds it is judged there. Empty when it sends none, when the
        send is judged elsewhere, or when a function on the way freezes the contract.
        With the chain: the parameters of the function ``call`` calls that take the
        message (None when ``call`` is the send itself)."""
        chain = flow.chain(call, "send")
        if not chain:
            return [], None
        carried = None  # the parameters of the function below that take the message
        below = None
        for position in range(len(chain) - 1, -1, -1):
            step = chain[position]
            if step is call:
                below = carried
            given = _message_params(flow, step, carried)
            if not given and position + 1 < len(chain) and step.receiver in ("self", "cls") and api_named(chain[position + 1].scope):
                # a client class's own method calling its send (`ask()` -> `self.send_message()`):
                # more of the implementation, which passes on what it is given
                given = [p for p in step.scope.params[1:] if not p.star]
            if step is not call and "request" in given:
                return [], None  # a relay of what a web request brought: its sender is out of sight
            if step is not call and not given:
                return [], None  # the function of this step builds the message: judged there
            if step is not call and flow.contract_capture(step.scope) is not None:
                return [], None
            if step is not call and MissingContractCapture._carries_digest(flow, step, local=True):
                return [], None  # a wrapper on the way attaches a digest of its own
            carried = given
        received = "request" in (carried or ())
        if carried and (received or flow.callers(call.scope) or api_named(call.scope) or in_sdk_client(call.scope, flow.analysis.model_of(call.scope))):
            return [], None  # it passes on what it is given: its callers are judged (or it implements the call)
        return chain, below

    @staticmethod
    def _carries_digest(flow: Flow, call: Call, local: bool = False) -> bool:
        """The send carries a contract digest in what it sends (its metadata), as a value
        (a capture's result) or, when the capture is out of sight, as a field named for one.
        ``local``: a digest the function adds, not one its callers hand it."""
        for arg in call.arguments:
            if flow.digest_of(arg.value, call, local) is not None:
                return True
        for store in flow.stored_by_helpers(call):  # `attach_digest(request, card)` before the send
            if flow.digest_of(store.value, store, local) is not None:
                return True
            if any(word in text.lower() for text in (*store.value.strings, *store.value.keys) for word in _EVIDENCE_WORDS):
                return True
        return any(word in text.lower() for text in argument_texts(call, flow.analysis.values(call.scope), returned=flow.returned_texts) for word in _EVIDENCE_WORDS)

    @classmethod
    def _card_notes(cls, flow: Flow, scope: Scope, send: Call, depth: int = 2) -> tuple[list[Note], str, Origin | None]:
        """The card ``send`` goes out under: where the client it is called on was made from a
        card (``ClientFactory.create(card)``, ``connect(url)``), a card it is passed, or the
        last card fetched or held before it; in the caller, for a send inside a project function.
        Also how to name the card in the suggestion."""
        cards = flow.card_keys(scope)
        client = flow.origin(scope, send.receiver, send) if send.receiver else None
        if client is not None and client.how == "fetched":  # `client = await ClientFactory.connect(url)`
            label = f"the card this send uses is {client.here(scope)}, to create {send.receiver}"
            return [Note(client.node, label)], "", replace(client, how="created")
        if client is not None and client.bind is not None:  # `client = factory.create(card)`
            there = cards if client.bind.scope is scope else flow.card_keys(client.bind.scope)
            card = _card_read(client.bind.value.keys, there)
            if card is not None:
                where = flow.origin(client.bind.scope, card, client.bind)
                notes = [Note(client.node, f"{send.receiver} is created from {card} here"), *_origin_notes(where, scope)]
                return notes, card, where
        card = _card_read(send.args.keys, cards)
        if card is not None:  # `send(card, message)`
            where = flow.origin(scope, card, send)
            return _origin_notes(where, scope), card, where
        held = [b for b in scope.binds if b.order < send.order and runs_before(b, send) and len(b.targets) == 1]
        held = [b for b in held if b.targets[0] in cards]
        if held:  # the last card fetched or read (`card = self.registry.cards[url]`): nothing ties it to the send
            where = flow.origin(scope, held[-1].targets[0], send)
            if where is not None and where.how in ("fetched", "set"):
                how = "fetched" if where.how == "fetched" else "held"
                return [Note(where.node, f"the last card {how} before this send ({where.key})")], "", None
        fetch = next((c for c in scope.calls if c.order < send.order and "card-fetch" in flow.roles(c)), None)
        if fetch is not None:
            return [Note(fetch, "a card is fetched here, before this send")], "", None
        if depth > 0 and scope.is_function:
            for caller in flow.callers(scope):
                notes, card, where = cls._card_notes(flow, caller.scope, caller, depth - 1)
                if where is not None:
                    return [Note(caller, f"calls {scope.name}(), which sends the task"), *notes], card, where
        if client is not None:  # no card in sight: at least the client it goes out through
            return [Note(client.node, f"the client this send uses ({send.receiver}) is {client.here(scope)}")], "", None
        return [], "", None


def _message_params(flow: Flow, call: Call, below: list | None) -> list:
    """Where the message ``call`` sends comes from, whole: the parameters of its function
    it is (for the send itself: its message, request or body, or the ``params`` /
    ``message`` of a body it builds; for a call into a project function: what it passes
    for the parameters ``below`` that take the message there), or ``"request"`` for the
    body of the web request the function serves. Empty: the function builds it."""
    values = flow.analysis.values(call.scope)
    arguments = _message_arguments(flow, call) if below is None else _carrying_arguments(flow, call, below)
    found = []
    for arg in arguments:
        expr = arg.value
        keys = [k for slot, k in expr.slots.items() if slot in ("params", "message")]
        keys += _enveloped(expr)
        key = _passed(expr)
        if key is not None:
            keys.append(key)
            parts = key.split(".")
            for end in range(len(parts), 0, -1):  # the body's bind, or the request object's (`rpc.data`)
                binds = values.sources(".".join(parts[:end]), call)
                for bind in binds:  # `body = {"method": method, "params": params}`
                    keys += [k for slot, k in bind.value.slots.items() if slot in ("params", "message")]
                    keys += _enveloped(bind.value)
                if binds:
                    break
        found += [given for k in keys if (given := _given(flow, values, k, call)) is not None]
    return found


def _carrying_arguments(flow: Flow, call: Call, below: list) -> list:
    """The arguments of ``call`` given for the parameters ``below`` (of the project
    function it calls) that take the message."""
    target = flow.analysis.project_function(call)
    if target is None:
        return []
    offset = flow.analysis.offset(call, target.function)
    return [a for p in below if p != "request" and (a := call.argument(p.index - offset, p.name)) is not None]


#: Fields of a message, a send request or a JSON-RPC body (snake case).
_MESSAGE_FIELDS = frozenset({"message", "params", "parts", "role", "message_id"})


def _carries_a_message(flow: Flow, scope: Scope, expr, at, depth: int = 3) -> bool:
    """``expr`` holds a message, a send request or a body: a value of an a2a-sdk message
    type (built by its constructor, or annotated as one), or a dict laid out as a body or
    its params; not the text a wrapper builds one from."""
    if set(expr.fields) & _MESSAGE_FIELDS or isinstance(expr.node, cst.Dict):
        return True
    if any(a[0] == TYPE and isinstance(a[1], str) and a[1].startswith("a2a:") and a[1].rsplit(".", 1)[-1].split(":")[-1] in MESSAGE_TYPES
           for a in flow.expr_atoms(expr, at)):
        return True
    if depth <= 0 or expr.top or expr.texts or len(expr.reads) != 1:
        return False
    key = next(iter(expr.reads))
    binds = [b for b in flow.analysis.values(scope).reaching(key, at)[0] if not b.keyed]
    return bool(binds) and all(_carries_a_message(flow, scope, b.value, b, depth - 1) for b in binds)


def _argument_node(call: Call, argument) -> cst.BaseExpression | None:
    """The expression node of one of ``call``'s arguments (None for one it does not own:
    the ``data=`` of a ``Request`` that ``urlopen`` is given)."""
    index = next((i for i, a in enumerate(call.arguments) if a is argument), None)
    args = getattr(call.node, "args", None)
    if index is None or args is None or len(args) != len(call.arguments) or argument.star:
        return None
    return args[index].value


def _passed(expr) -> str | None:
    """The one key an argument passes on whole, maybe in another form: ``body``,
    ``dict(rpc.data)``, ``copy(payload)``, ``request.model_dump(mode="json")``,
    ``json_format.MessageToDict(request)``."""
    if not (expr.top or expr.texts) and len(expr.reads) == 1:
        return next(iter(expr.reads))
    if len(expr.top) == 1 and not expr.texts:
        return _conversion(expr.top[0])
    return None


#: Calls that hand back their one argument in another form.
_COPIES = frozenset({"dict", "copy", "copy.copy", "copy.deepcopy"})
#: ``google.protobuf.json_format``'s conversions of a protobuf message.
_PROTOBUF_CONVERSIONS = frozenset({"MessageToDict", "MessageToJson"})
#: Methods that hand back their object in another form (``message.to_dict()``).
_CONVERSION_METHODS = ("to_", "as_", "model_dump", "dict", "serialize", "get_json")


def _conversion(call) -> str | None:
    """The key ``call`` hands back in another form, or None when it builds something new."""
    first = call.positional(0)
    if first is not None and len(call.arguments) == 1 and (
        call.callee in _COPIES or (call.callee or "").rsplit(".", 1)[-1] in _PROTOBUF_CONVERSIONS
    ):
        return _passed(first.value)
    if call.receiver and first is None and (call.method or "").startswith(_CONVERSION_METHODS):
        return call.receiver
    return None


def _enveloped(expr, depth: int = 2) -> list[str]:
    """The keys a request model wraps whole (``SendMessageRequest(id="1", params=params)``,
    ``MessageSendParams(message=message)``): the envelope carries what it is given."""
    found = []
    for call in expr.top:
        if not (call.method or "")[:1].isupper():
            continue  # a function may build the message (``create_text_message(text)``)
        for arg in call.arguments:
            if arg.keyword not in ("params", "message", "request"):
                continue
            value = arg.value
            key = _passed(value)
            if key is not None:
                found.append(key)
            elif depth > 1:
                found += _enveloped(value, depth - 1)
    return found


def _given(flow: Flow, values, key: str, fact, depth: int = 4):
    """What ``key`` passes on whole: the parameter it is (or a field or a copy of one, in
    another form: ``data = message.to_dict()``), ``"request"`` for the body of the web
    request being served (``request.get_json()``), or None when the function builds it."""
    parts = key.split(".")
    for end in range(len(parts), 0, -1):
        prefix = ".".join(parts[:end])
        binds, replaced = values.reaching(prefix, fact)
        if prefix in values.params and not replaced:
            return values.params[prefix]
        if end == 1 and _web_request(flow, values, prefix):
            return "request"
        strong = [b for b in binds if not b.weak]
        if not strong:
            continue
        if depth <= 0:
            return None
        sources = [_converted(b) or _unwrapped(b) or _passed_through(flow, values, b, prefix) for b in strong]
        if any(s is None or s == prefix for s in sources):
            return None
        found = [_given(flow, values, source + key[len(prefix):], b, depth - 1) for source, b in zip(sources, strong)]
        return found[0] if found and all(f is not None for f in found) else None
    return None


def _unwrapped(bind) -> str | None:
    """The key a request model wraps whole in the bind (``rpc = SendMessageRequest(params=request)``)."""
    found = _enveloped(bind.value)
    return found[0] if len(found) == 1 else None


def _passed_through(flow: Flow, values, bind, target: str) -> str | None:
    """The key of the argument a project function hands back as ``target`` (``payload, kw
    = await self._apply_interceptors("message/send", rpc.model_dump(), kw)``: the payload
    it returns is the one it was given, interceptors aside)."""
    call = bind.direct or (bind.value.top[0] if len(bind.value.top) == 1 else None)
    if call is None or target not in bind.targets:
        return None
    argument = flow.analysis.handed_back(call, bind.targets.index(target), len(bind.targets))
    return _passed(argument.value) if argument is not None else None


def _web_request(flow: Flow, values, name: str) -> bool:
    """``name`` is the request a web handler serves (Flask's or Quart's ``request``)."""
    imported = values.model.imports.get(name, "")
    return name not in values.locals and imported.split(".")[0] in ("flask", "quart", "werkzeug") and imported.endswith("request")


def _message_arguments(flow: Flow, send: Call) -> list:
    """What a send sends: an HTTP request's body, an SDK call's message or request."""
    if flow.analysis.wire(send) is not None:
        request = flow.analysis.urllib_request(flow.analysis.values(send.scope), send) if send.method == "urlopen" else None
        if request is not None:  # `urlopen(Request(url, data=body))`
            return [a for a in (request.argument(1, "data"),) if a is not None]
        body = [a for a in send.arguments if a.keyword in ("json", "data", "content", "body")]
        return body or [a for a in (send.positional(1),) if a is not None]
    named = [a for a in send.arguments if a.keyword in ("message", "request", "params")]
    return named or [a for a in (send.positional(0),) if a is not None]


def _converted(bind) -> str | None:
    """The key a bind copies, also through a conversion of it (``data = message.to_dict()``,
    ``payload = message.to_google_a2a()``, ``data = request.get_json()``): the same
    message in another form."""
    if bind.copy_of is not None:
        return bind.copy_of
    return _conversion(bind.direct) if bind.direct is not None else None


def _card_read(keys: set[str], cards: Container[str]) -> str | None:
    """The card among ``keys`` (``card``, not ``card.url``; ``self.card`` too)."""
    found = {k for k in keys if k in cards}
    return min(found, key=lambda k: (k.count("."), k), default=None)


def _origin_notes(where: Origin | None, scope: Scope) -> list[Note]:
    if where is None:
        return []
    return [Note(where.node, f"the card this send uses ({where.key}) is {where.here(scope)}")]
