"""The A2A API model: which calls fetch a card, send, poll, cancel, subscribe, verify.

One table, shared by every rule and by the prefilter. Names are resolved
through the module's imports and the types its variables are bound to
(``resolver = A2ACardResolver(...)`` makes ``resolver.get_agent_card()`` a
card fetch), never guessed from text alone. A method whose receiver is unknown
matches by name only inside A2A client code, and never when the receiver is
known to be something else or the module defines that method itself.

Names come from the real packages: a2a-sdk 0.2.16, 0.3.x and 1.x, google-adk,
python-a2a, fasta2a and crewai (see the rule docs for the versions covered).
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass, field
from typing import Iterable

import libcst as cst

from a2alint.model import Call, Expr, ModuleModel, Scope, dotted, string_value

# --- packages --------------------------------------------------------------------------

#: Import prefix -> short name used in canonical names (``a2a:Client.send_message``).
A2A_PACKAGES = {
    "a2a": "a2a",
    "python_a2a": "python_a2a",
    "fasta2a": "fasta2a",
    "google.adk.agents.remote_a2a_agent": "adk",
    "google.adk.a2a": "adk",
    "crewai.a2a": "crewai",
}
_FUNCTIONS = {
    "create_client", "create_signature_verifier", "fetch_agent_card", "afetch_agent_card",
    "send_message", "minimal_agent_card", "verify_agent_card_signature", "parse_agent_card",
}

# --- roles ------------------------------------------------------------------------------

ROLES = ("card-fetch", "send", "get-task", "cancel", "subscribe", "verify-signature", "contract-capture")

#: Canonical names (fnmatch patterns) and the role they play.
QUALIFIED_ROLES: dict[str, tuple[str, ...]] = {
    "card-fetch": (
        "a2a:A2ACardResolver.get_agent_card",
        "a2a:A2AClient.get_client_from_agent_card_url",
        "a2a:ClientFactory.create_from_url",
        "a2a:Client.get_extended_agent_card",
        "a2a:BaseClient.get_extended_agent_card",
        "python_a2a:A2AClient",  # the constructor fetches the card
        "python_a2a:AgentNetwork.add",
        "crewai:fetch_agent_card",
        "crewai:afetch_agent_card",
    ),
    "send": (
        "a2a:Client.send_message",
        "a2a:BaseClient.send_message",
        "a2a:A2AClient.send_message",
        "a2a:A2AClient.send_message_streaming",
        "a2a:A2AGrpcClient.send_message",
        "a2a:A2AGrpcClient.send_message_streaming",
        "a2a:*Transport.send_message",
        "a2a:*Transport.send_message_streaming",
        "python_a2a:A2AClient.send_message",
        "python_a2a:A2AClient.send_message_async",
        "python_a2a:A2AClient.send_conversation",
        "python_a2a:A2AClient.send_conversation_async",
        "python_a2a:A2AClient.send_task_async",
        "python_a2a:A2AClient.ask",
        "python_a2a:A2AClient.stream_response",
        "python_a2a:A2AClient.stream_task",
        "python_a2a:StreamingClient.send_task",
        "python_a2a:StreamingClient.create_task",
        "python_a2a:StreamingClient.tasks_send_subscribe",
        "python_a2a:StreamingClient.stream_response",
        "fasta2a:A2AClient.send_message",
        "fasta2a:A2AClient.stream_message",
        "adk:send_message",
    ),
    "get-task": (
        "a2a:*Client.get_task",
        "a2a:*Client.list_tasks",
        "a2a:*Transport.get_task",
        "python_a2a:A2AClient.get_task",
        "fasta2a:A2AClient.get_task",
    ),
    "cancel": ("a2a:*Client.cancel_task", "a2a:*Transport.cancel_task", "python_a2a:A2AClient.cancel_task"),
    "subscribe": (
        "a2a:*Client.resubscribe",
        "a2a:*Client.subscribe",
        "a2a:*Transport.resubscribe",
        "a2a:*Transport.subscribe",
        "python_a2a:StreamingClient.tasks_resubscribe",
    ),
    "verify-signature": ("crewai:verify_agent_card_signature",),
    "contract-capture": (),
}

#: Methods matched by name on a receiver of unknown type, inside A2A client code.
METHOD_ROLES: dict[str, str] = {
    "get_agent_card": "card-fetch",
    "get_client_from_agent_card_url": "card-fetch",
    "create_from_url": "card-fetch",
    "get_extended_agent_card": "card-fetch",
    "fetch_agent_card": "card-fetch",
    "afetch_agent_card": "card-fetch",
    "send_message": "send",
    "send_message_streaming": "send",
    "send_task": "send",
    "send_task_streaming": "send",
    "stream_message": "send",
    "get_task": "get-task",
    "list_tasks": "get-task",
    "cancel_task": "cancel",
    "resubscribe": "subscribe",
    "tasks_resubscribe": "subscribe",
}
#: ``get_agent_card`` is python-a2a's attribute getter; by name it counts only beside a2a-sdk.
_SDK_ONLY_METHODS = {"get_agent_card"}

#: JSON-RPC method names. The slash forms are distinctive anywhere in a call's
#: arguments; the PascalCase (v1.0) forms only as the value of a ``"method"`` key.
RPC_ROLES: dict[str, str] = {
    "tasks/send": "send",
    "tasks/sendSubscribe": "send",
    "message/send": "send",
    "message/stream": "send",
    "tasks/get": "get-task",
    "tasks/cancel": "cancel",
    "tasks/resubscribe": "subscribe",
    "agent/getAuthenticatedExtendedCard": "card-fetch",
    "SendMessage": "send",
    "SendStreamingMessage": "send",
    "GetTask": "get-task",
    "ListTasks": "get-task",
    "CancelTask": "cancel",
    "SubscribeToTask": "subscribe",
    "GetExtendedAgentCard": "card-fetch",
}
#: REST paths (f-string holes are ``{}``) and the role of a request to them.
REST_ROLES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"/message:(send|stream)$"), "send"),
    (re.compile(r"/tasks/[^/]+:cancel$"), "cancel"),
    (re.compile(r"/tasks/[^/]+:subscribe$"), "subscribe"),
)
#: REST reads of a task's own status: ``GET /tasks/{id}``.
REST_READS: tuple[tuple[re.Pattern[str], str], ...] = ((re.compile(r"/tasks/[^/:]+$"), "get-task"),)
#: Calls that take a JSON-RPC method name as an argument (``self._rpc("SendMessage", params)``).
_RPC_HELPER = re.compile(r"rpc|call|request|invoke|post|send", re.IGNORECASE)
CARD_PATHS = (
    "/.well-known/agent.json",
    "/.well-known/agent-card.json",
    "/agent/authenticatedExtendedCard",
    "/extendedAgentCard",
    "/v1/card",
)
CARD_PATH_CONSTANTS = ("AGENT_CARD_WELL_KNOWN_PATH", "PREV_AGENT_CARD_WELL_KNOWN_PATH", "EXTENDED_AGENT_CARD_PATH")
HTTP_READS = {"get", "request", "urlopen", "stream", "head"}
HTTP_WRITES = {"post", "request", "stream", "put", "send"}

#: What a call returns, where rules need to know (``client = await create_client(url)``).
RETURNS: dict[str, str] = {
    "a2a:ClientFactory.connect": "a2a:Client",
    "a2a:ClientFactory.create": "a2a:Client",
    "a2a:ClientFactory.create_from_url": "a2a:Client",
    "a2a:create_client": "a2a:Client",
    "a2a:A2AClient.get_client_from_agent_card_url": "a2a:A2AClient",
    "a2a:A2ACardResolver.get_agent_card": "a2a:AgentCard",
    "a2a:Client.get_card": "a2a:AgentCard",
    "a2a:Client.get_extended_agent_card": "a2a:AgentCard",
    "a2a:create_signature_verifier": "a2a:SignatureVerifier",
    "crewai:fetch_agent_card": "a2a:AgentCard",
    "crewai:afetch_agent_card": "a2a:AgentCard",
}

#: Default names of functions that freeze the contract (AC103's evidence).
CONTRACT_CAPTURE_NAMES = ("*contract_hash*", "*card_digest*", "*contract_digest*", "freeze_contract", "capture_contract")


def canonical(qualified: str) -> str:
    """``a2a.client.card_resolver.A2ACardResolver.get_agent_card`` -> ``a2a:A2ACardResolver.get_agent_card``.

    Module paths moved between SDK versions; class and function names did not.
    """
    for prefix in sorted(A2A_PACKAGES, key=len, reverse=True):
        if qualified == prefix or qualified.startswith(prefix + "."):
            rest = qualified[len(prefix) + 1 :].split(".") if qualified != prefix else []
            for index, part in enumerate(rest):
                if part[:1].isupper() or part in _FUNCTIONS:
                    return f"{A2A_PACKAGES[prefix]}:{'.'.join(rest[index:])}"
            return f"{A2A_PACKAGES[prefix]}:{'.'.join(rest)}"
    return qualified


def is_card_url(text: str) -> bool:
    return any(path in text for path in CARD_PATHS)


def rest_role(text: str) -> str | None:
    for pattern, role in REST_ROLES:
        if pattern.search(text):
            return role
    return None


# --- the prefilter ---------------------------------------------------------------------


#: An import of an A2A package spells the last part of its name as a whole word
#: (``from a2a.client import``, ``from google.adk import a2a``); each contains "a2a".
PACKAGE_WORDS = sorted({name.rsplit(".", 1)[-1] for name in A2A_PACKAGES})
_PACKAGE_WORD = re.compile(rb"\b(?:%s)\b" % b"|".join(re.escape(word.encode()) for word in PACKAGE_WORDS))


def prefilter_tokens(api: dict[str, tuple[str, ...]]) -> tuple[bytes, ...]:
    """Byte strings one of which any file that can yield a finding and imports no A2A
    package (see ``PACKAGE_WORDS``) contains."""
    tokens = {name.encode() for name in RPC_ROLES}
    tokens.update(path.encode() for path in CARD_PATHS)
    tokens.update(name.encode() for name in CARD_PATH_CONSTANTS)
    for patterns in api.values():
        for pattern in patterns:
            last = pattern.rsplit(".", 1)[-1].strip("*")
            if last:
                tokens.add(last.encode())
    return tuple(sorted(tokens))


_TOKENS_BY_API: dict[tuple, tuple[bytes, ...]] = {}
#: The last answer: a file's bytes are asked about by the pool's dispatcher, the cache and
#: the checker in turn, and a large tree is mostly files that cannot matter.
_last: tuple[bytes, object, bool] | None = None


def may_matter(data: bytes, settings: object) -> bool:
    """Whether ``data`` can yield a finding: decided on bytes, before parsing."""
    global _last
    if _last is not None and _last[0] is data and _last[1] is settings:
        return _last[2]
    api = getattr(settings, "api", {}) or {}
    key = tuple(sorted((k, tuple(v)) for k, v in api.items()))
    tokens = _TOKENS_BY_API.get(key)
    if tokens is None:
        tokens = _TOKENS_BY_API[key] = prefilter_tokens(api)
    # A substring search per token beats one regex; "a2a" is in many a data table ("\\u2a2a"),
    # so the package names are looked for as words only where it is.
    answer = any(token in data for token in tokens) or (b"a2a" in data and _PACKAGE_WORD.search(data) is not None)
    _last = (data, settings, answer)
    return answer


# --- resolution -------------------------------------------------------------------------


@dataclass
class ApiModel:
    """Types of names and roles of calls in one module."""

    model: ModuleModel
    configured: dict[str, tuple[str, ...]]
    imports_sdk: bool = False
    #: scope -> key -> canonical type; ``self.x`` keys live under the class name.
    types: dict[int, dict[str, str]] = field(default_factory=dict)
    class_types: dict[str, dict[str, str]] = field(default_factory=dict)
    #: scope -> variable -> roles its value carries (a JSON-RPC body, a card URL).
    carried: dict[int, dict[str, set[str]]] = field(default_factory=dict)
    #: Functions of the module that return a card URL (``def card_url(base): return base + PATH``).
    card_url_functions: set[str] = field(default_factory=set)
    locals: dict[int, frozenset[str]] = field(default_factory=dict)
    defined: set[str] = field(default_factory=set)

    def qualify(self, text: str | None, scope: Scope) -> str | None:
        """The canonical name of a dotted expression, or None if unknown."""
        if not text:
            return None
        parts = text.split(".")
        env = self.env(scope)
        for end in range(len(parts), 0, -1):
            head = ".".join(parts[:end])
            if head in env:
                return ".".join([env[head], *parts[end:]])
        if parts[0] in self.model.imports:
            return canonical(".".join([self.model.imports[parts[0]], *parts[1:]]))
        if parts[0] in self.model.classes:  # a class this module defines: never an SDK type
            return ".".join([f"local:{parts[0]}", *parts[1:]])
        return None

    def env(self, scope: Scope) -> dict[str, str]:
        found = dict(self.class_types.get(scope.class_name or "", {}))
        chain = []
        current: Scope | None = scope
        while current is not None:
            chain.append(current)
            current = current.parent
        for s in reversed(chain):
            found.update(self.types.get(id(s), {}))
        return found

    def _locals(self, scope: Scope) -> frozenset[str]:
        """The names a function has of its own (parameters and assigned names)."""
        found = self.locals.get(id(scope))
        if found is None:
            names = {p.name for p in scope.params} | {t.split(".")[0] for b in scope.binds for t in b.targets}
            found = self.locals[id(scope)] = frozenset(names) if scope.is_function else frozenset()
        return found

    def carried_by(self, name: str, scope: Scope) -> set[str]:
        """Roles the value of ``name`` carries in ``scope``, or in an enclosing scope
        (a module-level ``CARD_PATH = "/.well-known/agent-card.json"``) unless ``scope``
        has a name of its own by that name (a parameter or a local)."""
        current: Scope | None = scope
        while current is not None:
            found = self.carried.get(id(current), {}).get(name)
            if found is not None:
                return found
            if name.split(".")[0] in self._locals(current):
                return set()
            current = current.parent
        return set()

    def type_of_call(self, call: Call) -> str | None:
        name = self.qualify(call.callee, call.scope)
        if name is None:
            return None
        if name in RETURNS:
            return RETURNS[name]
        last = name.rsplit(".", 1)[-1].rsplit(":", 1)[-1]
        return name if last[:1].isupper() else None


def _bound_type(api: ApiModel, scope: Scope, bind) -> str | None:
    """The type a bind gives its target: its annotation, the call it stores, or the
    type of the name it copies (``self.factory = factory``)."""
    if bind.annotation:
        annotated = api.qualify(bind.annotation, scope)
        if annotated:
            return annotated
    value = bind.value.node
    inner = value.expression if isinstance(value, cst.Await) else value
    call = next((c for c in bind.value.calls if c.node is inner), None)
    if call is not None:
        return api.type_of_call(call)
    if isinstance(inner, cst.Name):
        return api.types.get(id(scope), {}).get(inner.value)
    return None


#: QUALIFIED_ROLES compiled: one regular expression per role.
_QUALIFIED_PATTERNS = {
    role: re.compile("|".join(fnmatch.translate(p) for p in patterns))
    for role, patterns in QUALIFIED_ROLES.items()
    if patterns
}


def _configured_match(patterns: Iterable[str], *names: str | None) -> bool:
    return any(name and fnmatch.fnmatchcase(name, pattern) for pattern in patterns for name in names)


def _stringish(node: cst.BaseExpression, scope: Scope, api: ApiModel) -> bool:
    """A URL rather than an AgentCard: a literal, an f-string, ``str`` parameter or a
    ``*url*`` name or attribute (``self.base_url``)."""
    if string_value(node) is not None or isinstance(node, cst.BinaryOperation):
        return True
    key = dotted(node) if isinstance(node, (cst.Name, cst.Attribute)) else None
    if key is None:
        return False
    for param in scope.params:
        if param.name == key and param.annotation:
            return param.annotation == "str"
    name = key.rsplit(".", 1)[-1].lower()
    return any(word in name for word in ("url", "endpoint", "base", "address", "host"))


def _first_arg(call: Call, keyword: str) -> cst.BaseExpression | None:
    arg = call.keyword(keyword)
    if arg is not None:
        return arg.value
    positional = [a for a in call.call.args if a.keyword is None and not a.star]
    return positional[0].value if positional else None


def _conditional_fetch(name: str, call: Call, api: ApiModel) -> bool:
    """Calls that fetch only for some arguments (a URL rather than a card)."""
    if name in ("a2a:create_client", "a2a:ClientFactory.connect", "adk:RemoteA2aAgent"):
        keyword = "agent_card" if name == "adk:RemoteA2aAgent" else "agent"
        arg = call.keyword(keyword)
        if arg is None and name == "adk:RemoteA2aAgent":
            positional = [a for a in call.call.args if a.keyword is None]
            value = positional[1].value if len(positional) > 1 else None
        else:
            value = arg.value if arg is not None else _first_arg(call, keyword)
        return value is not None and _stringish(value, call.scope, api)
    if name == "fasta2a:A2AClient":
        flag = call.keyword("fetch_card")
        return flag is not None and isinstance(flag.value, cst.Name) and flag.value.value == "True"
    return False


def roles_of(call: Call, api: ApiModel) -> set[str]:
    model = api.model
    name = api.qualify(call.callee, call.scope)
    call.qualified = name
    roles: set[str] = set()
    if name:
        roles.update(role for role, pattern in _QUALIFIED_PATTERNS.items() if pattern.match(name))
        if _conditional_fetch(name, call, api):
            roles.add("card-fetch")
    raw_name = None
    if name is None and call.callee and call.callee.split(".")[0] in model.imports:
        raw_name = model.imports[call.callee.split(".")[0]] + call.callee[len(call.callee.split(".")[0]) :]
    for role, patterns in api.configured.items():
        if _configured_match(patterns, name, raw_name, call.callee):
            roles.add(role)
    if "contract-capture" not in api.configured and _configured_match(CONTRACT_CAPTURE_NAMES, call.method):
        roles.add("contract-capture")
    if not roles and name is None and model.is_a2a and call.method in METHOD_ROLES:
        defined_here = call.method in api.defined and (call.receiver in (None, "self", "cls"))
        if not defined_here and (call.method not in _SDK_ONLY_METHODS or api.imports_sdk):
            roles.add(METHOD_ROLES[call.method])
    roles |= _wire_roles(call, api)
    return roles


def _wire_roles(call: Call, api: ApiModel) -> set[str]:
    """Roles from what a call puts on the wire: JSON-RPC methods, REST and card paths."""
    roles: set[str] = set()
    args = call.args
    nested_strings = {s for inner in args.calls for s in inner.args.strings}
    nested_methods = {m for inner in args.calls for m in inner.args.rpc_methods}
    own_strings = [s for s in args.strings if s not in nested_strings]
    method = (call.method or "").lstrip("_")
    positional = [string_value(a.value) for a in call.call.args if a.keyword is None]
    for text in own_strings:
        if "/" in text and RPC_ROLES.get(text):
            roles.add(RPC_ROLES[text])
        elif text in RPC_ROLES and text in positional and _RPC_HELPER.search(method):
            roles.add(RPC_ROLES[text])
        role = rest_role(text)
        if role:
            roles.add(role)
        if method in HTTP_READS:
            roles.update(r for pattern, r in REST_READS if pattern.search(text))
    for method in args.rpc_methods - nested_methods:
        if method in RPC_ROLES:
            roles.add(RPC_ROLES[method])
    if method in HTTP_READS and _requests_card(call, own_strings):
        roles.add("card-fetch")
    for name in args.names:
        for role in api.carried_by(name, call.scope):
            if role == "card-url" and method in HTTP_READS:
                roles.add("card-fetch")
            elif role != "card-url" and method in HTTP_WRITES:
                roles.add(role)
    if method in HTTP_READS and _http_client(call) and any(
        inner.method in api.card_url_functions and inner.receiver in (None, "self", "cls") for inner in args.calls
    ):
        roles.add("card-fetch")  # `session.get(self._card_url(url))`, not `CARDS.get(card_url(base))`
    return roles


def _http_client(call: Call) -> bool:
    """``call`` is made on an HTTP client (``httpx.get``, ``session.get``, ``self.http.get``),
    as far as its name tells."""
    if (call.qualified or "").split(".")[0] in ("httpx", "requests", "aiohttp", "urllib"):
        return True
    receiver = (call.receiver or "").rsplit(".", 1)[-1].lower()
    return any(word in receiver for word in ("http", "session", "client", "requests", "httpx"))


def _requests_card(call: Call, strings: list[str]) -> bool:
    """An HTTP GET of a card URL: a card path joined to a base URL, or any card path
    through a known HTTP client. A bare path on something else is a server route
    (``app.get(AGENT_CARD_WELL_KNOWN_PATH)``), not a fetch."""
    names = call.args.names
    via_http = (call.qualified or "").split(".")[0] in ("httpx", "requests", "aiohttp", "urllib")
    for text in strings:
        if is_card_url(text) and (via_http or not text.startswith("/") or len(names) > 0):
            return True
    if names & set(CARD_PATH_CONSTANTS):
        return via_http or len(names - set(CARD_PATH_CONSTANTS)) > 0
    return False


def _carried_roles(value_strings: list[str], value_methods: set[str], names: set[str]) -> set[str]:
    roles = set()
    for text in value_strings:
        if is_card_url(text):
            roles.add("card-url")
        if "/" in text and text in RPC_ROLES:
            roles.add(RPC_ROLES[text])
        role = rest_role(text)
        if role:
            roles.add(role)
    roles.update(RPC_ROLES[m] for m in value_methods if m in RPC_ROLES)
    roles.update(r for text in value_strings for pattern, r in REST_READS if pattern.search(text))
    if names & set(CARD_PATH_CONSTANTS):
        roles.add("card-url")
    return roles


def _is_a2a(model: ModuleModel, configured: dict[str, tuple[str, ...]]) -> bool:
    for qualified in model.imports.values():
        if canonical(qualified) != qualified:
            return True
        if any(_configured_match(patterns, qualified) for patterns in configured.values()):
            return True
    if any("/" in s and s in RPC_ROLES for s in model.strings) or model.rpc_methods & RPC_ROLES.keys():
        return True
    return any(is_card_url(s) for s in model.strings)


def annotate(model: ModuleModel, configured: dict[str, tuple[str, ...]] | None = None) -> ApiModel:
    """Resolve types and roles for every call in ``model``."""
    configured = dict(configured or {})
    api = ApiModel(model, configured)
    model.api = api
    model.is_a2a = _is_a2a(model, configured)
    api.imports_sdk = any(q == "a2a" or q.startswith("a2a.") for q in model.imports.values())
    api.defined = {s.name for s in model.scopes if s.is_function}
    for scope in model.scopes:
        types = api.types.setdefault(id(scope), {})
        for param in scope.params:
            if param.annotation:
                qualified = api.qualify(param.annotation, scope.parent or scope)
                if qualified:
                    types[param.name] = qualified
        carried = api.carried.setdefault(id(scope), {})
        for bind in scope.binds:
            value_roles = _value_roles(api, bind.value, scope)
            for target in bind.targets:
                if value_roles:
                    carried.setdefault(target, set()).update(value_roles)
            if len(bind.targets) != 1:
                continue
            bound = _bound_type(api, scope, bind)
            if bound:
                target = bind.targets[0]
                if target.startswith("self.") and scope.class_name:
                    api.class_types.setdefault(scope.class_name, {})[target] = bound
                else:
                    types[target] = bound
    api.card_url_functions = {
        scope.name
        for scope in model.scopes
        if scope.is_function and any(e.kind == "return" and _carries_card_url(api, e.value, scope) for e in scope.exits)
    }
    for scope in model.scopes:
        for call in scope.calls:
            call.roles = roles_of(call, api)
    _mark_verifiers(model, api)
    return api


def _value_roles(api: ApiModel, value: Expr, scope: Scope) -> set[str]:
    """Roles a value carries (a card URL, a JSON-RPC method...), its names' included."""
    roles = _carried_roles(value.strings, value.rpc_methods, value.names)
    roles |= {r for name in value.names for r in api.carried_by(name, scope)}
    if any(call.method in HTTP_READS for call in value.calls):
        roles.discard("card-url")  # `response = http.get(card_url)` holds a response, not a URL
    return roles


def _carries_card_url(api: ApiModel, value: Expr, scope: Scope) -> bool:
    return "card-url" in _value_roles(api, value, scope)


_VERIFY_NAME = re.compile(r"verif\w*(signature|card)|(signature|card)\w*verif", re.IGNORECASE)


def _mark_verifiers(model: ModuleModel, api: ApiModel) -> None:
    """Signature checks: ``create_signature_verifier(...)`` and calls of what it returns,
    fetches given ``signature_verifier=``, and functions named for verifying a card's signature."""
    for scope in model.scopes:
        verifiers = {
            target
            for bind in scope.binds
            for call in bind.value.calls
            if call.qualified == "a2a:create_signature_verifier"
            for target in bind.targets
        }
        verifiers |= {k for k, v in api.env(scope).items() if v == "a2a:SignatureVerifier"}
        for call in scope.calls:
            if call.callee in verifiers or call.keyword("signature_verifier") is not None:
                call.roles.add("verify-signature")
            elif model.is_a2a and call.method and _VERIFY_NAME.search(call.method):
                call.roles.add("verify-signature")
            elif call.method in ("verify", "decode") and any(k.endswith(".signatures") for k in call.args.keys):
                call.roles.add("verify-signature")
