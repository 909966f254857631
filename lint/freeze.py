"""The edit that freezes a card's contract at a send: AC103's fix.

The fix wraps what the send sends in ``a2a_with_contract_hash(outgoing, card)``, a helper
it adds to the module once (on the line after its last top-level import). The helper
imports ``hashlib`` and ``json`` inside itself, so that they are the standard library's
whatever the module binds to those names (``import ujson as json``, an ``orjson``
fallback), and the module's own names mean what they meant. The helper hashes the card's contract fields as
canonical JSON, whatever the card's shape (a raw JSON dict, an a2a-sdk 0.2/0.3 pydantic
card, a 1.x protobuf card), and puts the digest in the metadata of what goes out: a
JSON-RPC body's ``params.metadata``, a 1.x ``SendMessageRequest`` or ``Message``'s
``metadata`` (a ``Struct``), a 0.2/0.3 message's ``metadata``. It needs only the standard
library (and, for a protobuf card, the protobuf package the card came with); it never
imports a2alint.
"""

from __future__ import annotations

import json

import libcst as cst

from a2alint.model import ModuleModel
from a2alint.rule import Insert, Replace

HASH_HELPER = "a2a_contract_hash"
WRAP_HELPER = "a2a_with_contract_hash"

_HASH_SOURCE = '''def a2a_contract_hash(card) -> str:
    """SHA-256 of the card's contract (protocol version, security schemes, security) as
    canonical JSON: equal for equal contracts, whatever the key order, the skills or the
    description (added by a2alint's AC103 fix)."""
    import hashlib
    import json

    if isinstance(card, dict):  # raw JSON
        data = card
    elif hasattr(card, "DESCRIPTOR"):  # a2a-sdk 1.x (protobuf)
        from google.protobuf.json_format import MessageToDict

        data = MessageToDict(card)
    else:  # a2a-sdk 0.2 / 0.3 (pydantic)
        data = card.model_dump(mode="json", by_alias=True, exclude_none=True)
    interfaces = data.get("supportedInterfaces") or []
    contract = {
        "protocolVersion": data.get("protocolVersion") or sorted({i.get("protocolVersion", "") for i in interfaces}),
        "securitySchemes": data.get("securitySchemes") or {},
        "security": data.get("security") or data.get("securityRequirements") or [],
    }
    return hashlib.sha256(json.dumps(contract, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
'''

_WRAP_SOURCE = '''def a2a_with_contract_hash(outgoing, card):
    """``outgoing`` (a message, a send request or a JSON-RPC body) with the contract hash of
    ``card`` in its metadata, frozen at send time (added by a2alint's AC103 fix)."""
    frozen = {KEY: a2a_contract_hash(card)}
    if isinstance(outgoing, dict):  # raw JSON-RPC: params.metadata
        target = outgoing.get("params", outgoing)
        target["metadata"] = {**(target.get("metadata") or {}), **frozen}
    elif hasattr(outgoing, "DESCRIPTOR"):  # a2a-sdk 1.x: SendMessageRequest.metadata, Message.metadata
        outgoing.metadata.update(frozen)
    else:  # a2a-sdk 0.2 / 0.3: the message's metadata
        message = getattr(getattr(outgoing, "params", outgoing), "message", None) or outgoing
        message.metadata = {**(message.metadata or {}), **frozen}
    return outgoing
'''


def helper_source(key: str, with_hash: bool = True) -> str:
    """The helpers' code, the digest stored under ``key``."""
    wrap = _WRAP_SOURCE.replace("KEY", json.dumps(key))
    return f"{_HASH_SOURCE}\n\n{wrap}" if with_hash else wrap


def freeze_fix(model: ModuleModel, argument: cst.BaseExpression, card: str, key: str) -> tuple[Replace | None, str | None]:
    """The fix that sends ``argument`` (what the send sends) with the contract hash of the
    card the expression ``card`` holds; or why there is none."""
    bound = _bound_otherwise(model)
    if bound:
        return None, f"this module binds {bound} to something else, the name of the helper the fix would add"
    wrapped = cst.Call(func=cst.Name(WRAP_HELPER), args=[cst.Arg(argument), cst.Arg(cst.parse_expression(card))])
    return Replace(argument, wrapped, "unsafe", "attach the card's contract hash to the message", _inserts(model, key)), None


def _defined(model: ModuleModel) -> set[str]:
    """The module's top-level functions."""
    return {scope.name for scope in model.scopes if scope.is_function and scope.parent is model.scopes[0]}


def _bound_otherwise(model: ModuleModel) -> str | None:
    """A helper's name the module binds otherwise than by a ``def`` or an import (an
    assignment, a class, a loop): a helper added beside it would be replaced, or replace
    it. (An imported helper is one the fix calls: a project's shared copy of it.)"""
    top = model.scopes[0]
    for name in (WRAP_HELPER, HASH_HELPER):
        if name in model.classes or any(name in b.targets for b in top.binds):
            return name
    return None


def _inserts(model: ModuleModel, key: str) -> tuple[Insert, ...]:
    """The helpers the module still lacks, on the line after its last top-level import
    (after its docstring when it has none)."""
    defined = _defined(model)
    if WRAP_HELPER in defined or WRAP_HELPER in model.imports:
        return ()
    statements = model.module.body
    imports = [
        line for line in statements if isinstance(line, cst.SimpleStatementLine)
        and any(isinstance(small, (cst.Import, cst.ImportFrom)) for small in line.body)
    ]
    text = "\n\n" + helper_source(key, HASH_HELPER not in defined and HASH_HELPER not in model.imports)
    if imports:
        return (Insert(imports[-1], text, whole_line=True),)
    first = statements[0]
    if isinstance(first, cst.SimpleStatementLine) and isinstance(first.body[0], cst.Expr) and isinstance(
        first.body[0].value, (cst.SimpleString, cst.ConcatenatedString)
    ):  # after the module's docstring, which must stay first
        return (Insert(first, text, whole_line=True),)
    return (Insert(first, text.lstrip("\n") + "\n\n", after=False),)
