from __future__ import annotations

import libcst as cst

from a2alint.flow import flow_of
from a2alint.model import Call, ModuleModel
from a2alint.rule import Invalid, Note, Replace, Rule

SUGGESTION = (
    "hash only the contract fields as canonical JSON: "
    'hashlib.sha256(json.dumps(contract, sort_keys=True, separators=(",", ":")).encode()).hexdigest()'
)


class UnstableContractHash(Rule):
    """A digest of Agent Card data that will not compare equal across processes or peers.

    ## What it does
    Flags a contract hash or card digest built so that the same card can hash
    differently: the built-in `hash()` of card data, `json.dumps` of card data
    without `sort_keys=True` feeding a hash, `str()`/`repr()` of a card or dict
    feeding a hash, and hashing the whole card (`model_dump()`,
    `MessageToDict(card)`, the raw dict) instead of only its contract fields.

    ## Why is this bad?
    Freezing the contract at send time only works if the hash is stable. The
    built-in `hash()` is salted per process (`PYTHONHASHSEED`), dict order
    and `str()` formatting differ between producers, and a whole-card hash
    changes when the peer merely reshuffles `skills`, so a capability change
    reads as a contract change and blocks or cancels a healthy task.

    ## Example
    ```python
    digest = hashlib.sha256(json.dumps(card.model_dump()).encode()).hexdigest()
    ```

    ## Use instead
    ```python
    CONTRACT_FIELDS = ("protocol_version", "security_schemes", "security")
    contract = {name: getattr(card, name) for name in CONTRACT_FIELDS}
    blob = json.dumps(contract, sort_keys=True, separators=(",", ":"), default=str)
    digest = hashlib.sha256(blob.encode()).hexdigest()
    ```

    ## Covers
    Any protocol version; a2a-sdk 0.2, 0.3 and 1.x cards (pydantic and
    protobuf), raw JSON cards, python-a2a and fasta2a cards. Canonicalising a
    whole card to verify its signature is not a digest and is not flagged;
    hashes of non-card data (message payloads, task ids) are out of scope.

    ## Fix safety
    Where a missing `sort_keys=True` is the only problem, the fix adds it. It
    is unsafe (`a2alint check --fix --unsafe-fixes`; `--diff` shows it first):
    it changes the digest's value, so a digest stored or sent before it (in a
    task's metadata, a database, a peer's cache) no longer matches the one
    computed after it, and a check comparing them fails once. Roll it out with
    the code that compares digests, or re-record the stored ones.

    ## Limits
    - A parameter with no caller is taken for a card when its name says so
      (`card`, `agent_card`, `peer_card`, `fresh_card`; not `credit_card`),
      one with a type (`card: dict`) only if it is read as one (`card["skills"]`,
      there or in a function it is handed to) (the last resort; no finding of the
      public sweep rests on it). The words before `_card` that say whose card
      or which version: `peer`, `partner`, `remote`, `fresh`, `cached`, `new`,
      `old`, `current`, `latest`, `last`, `first`, `previous`, `pinned`,
      `approved`, `held`, and `agent` anywhere (`peer_agent_card`).
    - A card kept as JSON text by a registry or a table is known by the
      name of its field when parsed: `json.loads(item["AgentCard"])`.
    """

    code = "AC107"
    name = "unstable-contract-hash"
    severity = "error"
    fix_availability = "Sometimes"  # json.dumps gets sort_keys=True; hash() has none

    VALID = [
        """
import hashlib, json
from a2a.types import AgentCard

def contract_hash(card: AgentCard) -> str:
    contract = {"protocolVersion": card.protocol_version, "securitySchemes": card.security_schemes}
    blob = json.dumps(contract, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(blob.encode()).hexdigest()
""",
        """
import hashlib, json
from a2a.client import A2ACardResolver

def task_key(task_id: str, payload: dict) -> str:
    # Not card data: message payloads and task ids are out of scope.
    return hashlib.sha256(json.dumps(payload).encode()).hexdigest() + str(hash(task_id))
""",
        """
import json
from a2a.types import AgentCard

def signing_input(card: AgentCard) -> bytes:
    # Canonical whole card for a JWS signature check: not a digest.
    return json.dumps(card.model_dump(exclude={"signatures"}), sort_keys=True).encode()
""",
        """
import hashlib, json

def digest(card: dict) -> str:
    # Not A2A client code: nothing imports an A2A package here.
    return str(hash(json.dumps(card)))
""",
    ]
    INVALID = [
        """
from a2a.types import AgentCard

def fingerprint(card: AgentCard) -> int:
    return hash(card.model_dump_json())  # expect: AC107
""",
        """
import hashlib, json
from a2a.types import AgentCard
from google.protobuf.json_format import MessageToDict

def card_digest(card: AgentCard) -> str:
    payload = MessageToDict(card)  # the whole 1.x (protobuf) card, skills and all
    blob = json.dumps(payload, separators=(",", ":"), sort_keys=True)  # expect: AC107
    return hashlib.sha256(blob.encode()).hexdigest()
""",
        Invalid(
            """
import hashlib, json
from a2a.client import A2ACardResolver

async def contract_digest(resolver: A2ACardResolver) -> str:
    card = await resolver.get_agent_card()
    contract = {"protocolVersion": card.protocol_version, "security": card.security}
    return hashlib.sha256(json.dumps(contract).encode()).hexdigest()  # expect: AC107
""",
            fixed="""
import hashlib, json
from a2a.client import A2ACardResolver

async def contract_digest(resolver: A2ACardResolver) -> str:
    card = await resolver.get_agent_card()
    contract = {"protocolVersion": card.protocol_version, "security": card.security}
    return hashlib.sha256(json.dumps(contract, sort_keys=True).encode()).hexdigest()  # expect: AC107
""",
            unsafe_fixes=True,
        ),
        Invalid(
            """
import hashlib, json
from a2a.client import A2ACardResolver

async def contract_digest(resolver: A2ACardResolver) -> str:
    card = await resolver.get_agent_card()
    if card.security:
        blob = json.dumps(  # expect: AC107
            {"protocolVersion": card.protocol_version, "security": card.security},
            separators=(",", ":"),
            default=str
        )
        return hashlib.sha256(blob.encode()).hexdigest()
    return ""
""",
            fixed="""
import hashlib, json
from a2a.client import A2ACardResolver

async def contract_digest(resolver: A2ACardResolver) -> str:
    card = await resolver.get_agent_card()
    if card.security:
        blob = json.dumps(  # expect: AC107
            {"protocolVersion": card.protocol_version, "security": card.security},
            separators=(",", ":"),
            default=str,
            sort_keys=True
        )
        return hashlib.sha256(blob.encode()).hexdigest()
    return ""
""",
            unsafe_fixes=True,
        ),
        """
import hashlib, json
from a2a.client import ClientFactory

async def connect(url):
    client = await ClientFactory.connect(url)
    card = await client.get_card()
    blob = json.dumps(card.model_dump(), sort_keys=True)  # expect: AC107
    return client, hashlib.sha256(blob.encode()).hexdigest()
""",
        """
import hashlib
import httpx

def card_digest(base_url: str) -> str:
    card = httpx.get(f"{base_url}/.well-known/agent-card.json").json()
    h = hashlib.sha256()
    h.update(str(card).encode())  # expect: AC107
    return h.hexdigest()
""",
        """
import hashlib
from google.protobuf.json_format import MessageToDict
from a2a.client import create_client

async def pin(url):
    client = await create_client(url)
    card = await client.get_extended_agent_card()
    raw = repr(MessageToDict(card))  # expect: AC107
    return hashlib.sha256(raw.encode()).hexdigest()
""",
    ]

    def check(self, model: ModuleModel) -> None:
        flow = flow_of(model)
        for scope in model.scopes:
            for call in scope.calls:
                if flow.is_builtin(call, "hash") and flow.reads_card(call.args.keys, scope):
                    self.report(
                        call.node,
                        "built-in hash() of Agent Card data is salted per process and differs between peers",
                        suggestion=SUGGESTION,
                    )
                elif flow.qualified(call) == "json.dumps":
                    self._check_dumps(call, flow)
                elif (flow.is_builtin(call, "str") or flow.is_builtin(call, "repr")) and call.argument(0, "object"):
                    self._check_text(call, flow)

    def _check_dumps(self, call: Call, flow) -> None:
        node, subject = call.call, call.argument(0, "obj")  # as given, a partial's arguments included
        sink = flow.hashed(call) if subject else None  # (what is hashed first: most dumps feed no hash)
        if sink is None or not flow.reads_card(call.args.keys, call.scope):
            return
        notes = _digest_notes(call, sink)
        whole = flow.is_card_value(subject.value.node, call)
        sort_keys = call.keyword("sort_keys")
        sorted_keys = sort_keys is not None and isinstance(sort_keys.value.node, cst.Name) and sort_keys.value.node.value == "True"
        if whole:
            self.report(
                node,
                "contract hash covers the whole Agent Card, so a reshuffle of skills reads as a contract change",
                suggestion=SUGGESTION,
                notes=notes,
            )
        elif not sorted_keys:
            fix = None
            if sort_keys is None and not any(a.star == "**" for a in call.arguments):
                fix = _sort_keys_fix(node)
            self.report(
                node,
                "json.dumps of Agent Card data without sort_keys=True feeds a hash; key order varies between peers",
                suggestion=SUGGESTION,
                fix=fix,
                notes=notes,
            )

    def _check_text(self, call: Call, flow) -> None:
        subject = call.argument(0, "object").value.node
        is_dict = isinstance(subject, (cst.Dict, cst.DictComp))
        sink = flow.hashed(call)
        if sink is None or not (is_dict or flow.is_card_value(subject, call) or flow.reads_card(call.args.keys, call.scope)):
            return
        self.report(
            call.node,
            f"{call.callee}() of Agent Card data feeds a hash; its text is not a canonical form",
            suggestion=SUGGESTION,
            notes=_digest_notes(call, sink),
        )


def _digest_notes(producer: Call, sink: Call) -> list[Note]:
    """Where the hash is computed, when it is not the call around ``producer``."""
    if any(inner is producer for inner in sink.args.calls):
        return []
    return [Note(sink.node, f"the digest it feeds is computed here ({sink.callee or sink.method}())")]


def _sort_keys_fix(node: cst.Call) -> Replace | None:
    """Add ``sort_keys=True`` as one more argument after the last one, every other byte
    of the call as written: after a trailing comma with one of its own, on a line of its
    own (at the last argument's indentation) when the arguments are one a line, else on
    the last argument's line (the engine keeps the call's continuation lines where they
    stand when it writes it)."""
    call = node
    if not call.args:
        return None
    args = list(call.args)
    last = args[-1]
    if len(args) == 1:
        before = call.whitespace_before_args
    else:
        previous = args[-2].comma
        before = previous.whitespace_after if isinstance(previous, cst.Comma) else None
    comma = last.comma if isinstance(last.comma, cst.Comma) else None
    after = comma.whitespace_after if comma is not None else last.whitespace_after_arg
    commented = isinstance(after, cst.ParenthesizedWhitespace) and after.first_line.comment is not None
    gap: cst.BaseParenthesizableWhitespace = cst.SimpleWhitespace(" ")
    if isinstance(before, cst.ParenthesizedWhitespace) and not commented:  # the arguments are one a line
        gap = cst.ParenthesizedWhitespace(indent=before.indent, last_line=cst.SimpleWhitespace(before.last_line.value))
    added = _sort_keys_arg()
    if comma is not None:  # ``last, sort_keys=True,`` and what followed the comma after the new one
        args[-1] = last.with_changes(comma=comma.with_changes(whitespace_after=gap))
        added = added.with_changes(comma=cst.Comma(whitespace_after=comma.whitespace_after))
    else:  # ``last, sort_keys=True`` and what followed the last argument after the new one
        args[-1] = last.with_changes(whitespace_after_arg=cst.SimpleWhitespace(""), comma=cst.Comma(whitespace_after=gap))
        added = added.with_changes(whitespace_after_arg=last.whitespace_after_arg)
    return Replace(node, call.with_changes(args=[*args, added]), "unsafe", "add sort_keys=True")


def _sort_keys_arg() -> cst.Arg:
    return cst.Arg(
        keyword=cst.Name("sort_keys"),
        value=cst.Name("True"),
        equal=cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")),
    )
