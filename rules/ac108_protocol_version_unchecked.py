from __future__ import annotations

from a2alint.flow import flow_of
from a2alint.model import ModuleModel, Scope
from a2alint.rule import Note, Rule

VERSION_KEYS = ("protocol_version", "supported_interfaces", "protocolversion")


class ProtocolVersionUnchecked(Rule):
    """A fetched card is used to send without checking its protocol version.

    ## What it does
    Flags a `send` (itself, or a call of a project function that sends and
    compares no version first) that
    uses a card its function fetched (directly or through
    `ClientFactory.connect` / `create_client(url)`): made through a client
    built from it or an object of the project made with it (`PeerLink(card,
    url).send_message(...)`), given the card or a value derived from it (its URL, a
    transport), or run only as a field of it allows (its preferred
    transport, a capability), when nothing in that function or its class
    compares the card's `protocolVersion` (v1.0:
    `supportedInterfaces[].protocolVersion`) with the versions the client
    supports. A card only logged beside a send that uses nothing of it is
    not used to send.

    ## Why is this bad?
    Version skew voids every freshness rule: field semantics differ between
    protocol versions (0.3's `security` is 1.0's `securityRequirements`), so
    a contract captured under one version cannot be compared with a card of
    another.

    ## Example
    ```python
    client = await ClientFactory.connect(url)
    async for event in client.send_message(message): ...
    ```

    ## Use instead
    ```python
    card = await resolver.get_agent_card()
    if card.protocol_version not in SUPPORTED_VERSIONS:
        raise UnsupportedPeer(card.protocol_version)
    client = factory.create(card)
    ```

    ## Covers
    a2a-sdk 0.2 and 0.3 (`AgentCard.protocol_version`), 1.x
    (`supported_interfaces[].protocol_version`), raw JSON `protocolVersion`.
    Preview: it runs only with `--preview` or when selected by its code.

    ## Limits
    - A parameter with no caller is taken for a card when its name says so
      (`card`, `agent_card`, `peer_card`, `fresh_card`; not `credit_card`),
      one with a type (`card: dict`) only if it is read as one (`card["skills"]`,
      there or in a function it is handed to) (the last resort; no finding of the
      public sweep rests on it).
    - A version check is a test that reads a key named for the protocol's
      version fields (`protocol_version`, `protocolVersion`,
      `supported_interfaces`) on any object, not only on the fetched card:
      the field names silence the rule, they never raise it.
    """

    code = "AC108"
    name = "protocol-version-unchecked"
    severity = "warning"
    preview = True

    VALID = [
        """
from a2a.client import A2ACardResolver, ClientFactory

async def delegate(resolver: A2ACardResolver, factory: ClientFactory, message):
    card = await resolver.get_agent_card()
    if card.protocol_version not in ("0.3.0",):
        raise RuntimeError(card.protocol_version)
    async for event in factory.create(card).send_message(message):
        print(event)
""",
    ]
    INVALID = [
        """
from a2a.client import ClientFactory

async def delegate(url, message):
    client = await ClientFactory.connect(url)
    async for event in client.send_message(message):  # expect: AC108
        print(event)
""",
        """
from a2a.client import A2ACardResolver, create_client

async def delegate(http, url, message):
    card = await A2ACardResolver(http, url).get_agent_card()
    if card.supported_interfaces:  # that there is a version, not which one
        client = await create_client(card)
        async for event in client.send_message(message):  # expect: AC108
            print(event)
""",
    ]

    def check(self, model: ModuleModel) -> None:
        flow = flow_of(model)
        for scope in model.scopes:
            fetches = [c for c in scope.calls if (f := flow.effective(c, "card-fetch")) and not flow.is_probe(f)]
            if not fetches:
                continue
            if _compares_a_version(flow.class_scopes(scope)):
                continue
            for call in scope.calls:
                chain = flow.chain(call, "send")
                if not chain or _compares_a_version([step.scope for step in chain[1:]]):
                    continue  # not a send, itself or through project functions that compare no version first
                fetch = next(
                    (f for f in fetches if f.order < call.order and (flow.card_use(call, f) or flow.card_allows(call, f))), None
                )
                if fetch is not None:
                    self.report(
                        call.node,
                        "card used to send without its protocol version being compared with the supported versions",
                        suggestion="compare card.protocol_version (v1.0: supported_interfaces[].protocol_version) "
                        "with the versions this client was built for before sending",
                        notes=[Note(fetch.node, "the card is fetched here")],
                    )


def _compares_a_version(scopes: list[Scope]) -> bool:
    """A test in ``scopes`` compares a protocol version (not only that there is one)."""
    return any(
        not _mere_presence(test.shape)
        and (
            any(v in key.lower() for key in test.expr.keys for v in VERSION_KEYS)
            or any("protocolVersion" in s for s in test.expr.strings)
        )
        for scope in scopes
        for test in scope.tests
    )


def _mere_presence(shape: tuple) -> bool:
    """``if card.supported_interfaces:`` / ``if not card.protocol_version:`` / ``if card and
    card.protocol_version:``: that there is a version, not which one."""
    while shape and shape[0] == "not":
        shape = shape[1]
    if shape and shape[0] in ("and", "or"):
        return _mere_presence(shape[1]) and _mere_presence(shape[2])
    return bool(shape) and shape[0] == "key"
