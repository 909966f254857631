from __future__ import annotations

from a2alint.flow import CONTRACT_FIELDS, Flow, field_of, flow_of, implements_api
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
    carrying such a digest into the send. One finding per send call.

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
class SlackBot:
    def send_message(self, channel, text):  # not A2A client code
        return channel, text

def notify(bot: SlackBot):
    bot.send_message("#ops", "done")
""",
    ]
    INVALID = [
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
import httpx

def submit(url, params):
    return httpx.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": params})  # expect: AC103
""",
    ]

    def check(self, model: ModuleModel) -> None:
        flow = flow_of(model)
        for scope in model.scopes:
            if implements_api(scope) or self._captures(flow, scope):
                continue
            for call in scope.calls:
                if "send" in call.roles and not self._carries_digest(flow, call):
                    self.report(
                        call.node,
                        "task sent without a frozen contract: no contract hash or card digest is captured for it",
                        suggestion=(
                            "capture sha256 of the canonical JSON of the contract fields (protocolVersion, "
                            "securitySchemes, security) before sending, attach it to the message metadata, and "
                            "verify later peer messages against it"
                        ),
                        notes=self._card_notes(flow, scope, call),
                    )

    def _captures(self, flow: Flow, scope: Scope) -> bool:
        scopes = [scope]
        if scope.class_name:
            scopes += [s for s in flow.model.scopes if s.class_name == scope.class_name and s is not scope]
        for candidate in scopes:
            captures = [c for c in candidate.calls if flow.effective(c, "contract-capture")]
            if candidate is scope and captures:
                return True
            if any(self._stored(candidate, c) for c in captures):  # frozen on the object for its sends
                return True
            contract = flow.derived(candidate, {k for b in candidate.binds for k in b.value.keys if field_of(k) in CONTRACT_FIELDS})
            if any(sink.args.reads_any(contract.keys()) for sink in flow.hash_sinks(candidate) if contract):
                return True
        return False

    @staticmethod
    def _carries_digest(flow: Flow, call: Call) -> bool:
        return any(word in text.lower() for text in flow.argument_texts(call) for word in _EVIDENCE_WORDS)

    @staticmethod
    def _stored(scope: Scope, capture: Call) -> bool:
        """A capture whose result is kept on ``self`` (a comparison elsewhere freezes nothing)."""
        return any(
            any(c is capture for c in bind.value.calls) and any(t.startswith("self.") for t in bind.targets)
            for bind in scope.binds
        )

    @staticmethod
    def _card_notes(flow: Flow, scope: Scope, send: Call) -> list[Note]:
        fetch = next((c for c in scope.calls if c.order < send.order and "card-fetch" in c.roles), None)
        return [Note(fetch.node, "the card this send relies on is fetched here")] if fetch else []
