from __future__ import annotations

from dataclasses import replace

from a2alint.flow import Flow, Origin, flow_of, implements_api, is_card_name, runs_before
from a2alint.model import Call, ModuleModel, Scope
from a2alint.rule import Note, Rule

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
    carrying such a digest into the send. One finding per send call. A
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

    ## Covers
    a2a-sdk 0.2 (`A2AClient.send_message[_streaming]`), 0.3 and 1.x
    (`Client.send_message`), python-a2a, fasta2a, ADK's send, raw JSON-RPC
    `message/send`, `message/stream`, `tasks/send`, `SendMessage`,
    `SendStreamingMessage` and REST `POST /message:send`.
    """

    code = "AC103"
    name = "missing-contract-capture"
    severity = "warning"

    VALID = [
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
    ]

    def check(self, model: ModuleModel) -> None:
        flow = flow_of(model)
        for scope in model.scopes:
            if implements_api(scope) or flow.contract_capture(scope) is not None:
                continue
            for call in scope.calls:
                chain = self._sends(flow, call)
                if chain and not self._carries_digest(flow, call):
                    notes, card, where = self._card_notes(flow, scope, call)
                    if len(chain) > 1:
                        notes.append(Note(chain[-1].node, f"{call.callee}() sends the task here"))
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
                        ),
                        notes=notes,
                        lines={"card": where.node} if where is not None else None,
                    )

    @staticmethod
    def _sends(flow: Flow, call: Call) -> list[Call]:
        """How ``call`` sends a task: ``[call]``, or the chain through a wrapper of this module
        named like the API (``RemoteAgentConnection.send_message``), which is not judged
        itself: its callers are, unless the wrapper or its class freezes the contract or its
        send carries one. The wrapper's own class calling it (``self.send_message`` in a
        client library's ``ask()``) is more of the implementation. Empty when it sends none."""
        if "send" in call.roles:
            return [call]
        wrapper = flow.callee(call)
        if wrapper is None or call.receiver in ("self", "cls") or not implements_api(wrapper):
            return []
        if flow.contract_capture(wrapper) is not None:
            return []
        chain = flow.chain(call, "send")
        return chain if chain and not MissingContractCapture._carries_digest(flow, chain[-1]) else []

    @staticmethod
    def _carries_digest(flow: Flow, call: Call) -> bool:
        return any(word in text.lower() for text in flow.argument_texts(call) for word in _EVIDENCE_WORDS)

    @classmethod
    def _card_notes(cls, flow: Flow, scope: Scope, send: Call, depth: int = 2) -> tuple[list[Note], str, Origin | None]:
        """The card ``send`` goes out under: where the client it is called on was made from a
        card (``ClientFactory.create(card)``, ``connect(url)``), a card it is passed, or the
        last card fetched before it; in the caller, for a send inside a same-module helper.
        Also how to name the card in the suggestion."""
        cards = flow.card_keys(scope)
        client = flow.origin(scope, send.receiver, send) if send.receiver else None
        if client is not None and client.how == "fetched":  # `client = await ClientFactory.connect(url)`
            label = f"the card this send uses is {client.here(scope)}, to create {send.receiver}"
            return [Note(client.node, label)], "", replace(client, how="created")
        if client is not None and client.bind is not None:  # `client = factory.create(card)`
            card = _card_read(client.bind.value.keys, cards)
            if card is not None:
                where = flow.origin(client.bind.scope, card, client.bind)
                notes = [Note(client.node, f"{send.receiver} is created from {card} here"), *_origin_notes(where, scope)]
                return notes, card, where
        card = _card_read(send.args.keys, cards)
        if card is not None:  # `send(card, message)`
            where = flow.origin(scope, card, send)
            return _origin_notes(where, scope), card, where
        fetched = [
            b for b in scope.binds
            if b.order < send.order and runs_before(b, send) and any(flow.chain(c, "card-fetch") for c in b.value.calls)
        ]
        if fetched and len(fetched[-1].targets) == 1 and fetched[-1].targets[0] in cards:  # the last card fetched
            where = flow.origin(scope, fetched[-1].targets[0], send)
            if where is not None and where.how == "fetched":  # nothing ties it to the send: a note, no claim
                return [Note(where.node, f"the last card fetched before this send ({where.key})")], "", None
        fetch = next((c for c in scope.calls if c.order < send.order and "card-fetch" in c.roles), None)
        if fetch is not None:
            return [Note(fetch.node, "a card is fetched here, before this send")], "", None
        if depth > 0 and scope.is_function:
            for caller in flow.callers(scope):
                notes, card, where = cls._card_notes(flow, caller.scope, caller, depth - 1)
                if where is not None:
                    return [Note(caller.node, f"calls {scope.name}(), which sends the task"), *notes], card, where
        if client is not None:  # no card in sight: at least the client it goes out through
            return [Note(client.node, f"the client this send uses ({send.receiver}) is {client.here(scope)}")], "", None
        return [], "", None


def _card_read(keys: set[str], cards: set[str]) -> str | None:
    """The card among ``keys`` (``card``, not ``card.url``; ``self.card`` too)."""
    found = {k for k in keys if k in cards or is_card_name(k)}
    return min(found, key=lambda k: (k.count("."), k), default=None)


def _origin_notes(where: Origin | None, scope: Scope) -> list[Note]:
    if where is None:
        return []
    return [Note(where.node, f"the card this send uses ({where.key}) is {where.here(scope)}")]
