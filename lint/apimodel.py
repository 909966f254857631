"""The A2A API model: which calls fetch a card, send, poll, cancel, subscribe, verify.

One table, shared by the value analysis (:mod:`a2alint.values`, which resolves what
each call names through imports and the types of the values it is made on, so that
``resolver = A2ACardResolver(...)`` makes ``resolver.get_agent_card()`` a card fetch)
and by the prefilter. A method whose receiver is unknown matches by name only inside
A2A client code, and never when the receiver is known to be something else or the
module defines that method itself.

Names come from the real packages: a2a-sdk 0.2.16, 0.3.x and 1.x, google-adk,
python-a2a, fasta2a and crewai (see the rule docs for the versions covered).
"""

from __future__ import annotations

import fnmatch
import functools
import hashlib
import re
from typing import TYPE_CHECKING, Iterable

if TYPE_CHECKING:
    from a2alint.model import ModuleModel

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
#: HTTP client libraries, by top-level module.
HTTP_PACKAGES = ("httpx", "requests", "aiohttp", "urllib", "urllib3", "httpx_sse")
#: Top-level names of the packages the API model knows: a folder of the project with one
#: of these names is that package only when imported by its path from the project root.
MODELLED_PACKAGES = frozenset({name.split(".")[0] for name in A2A_PACKAGES} | set(HTTP_PACKAGES))
_FUNCTIONS = {
    "create_client", "create_signature_verifier", "fetch_agent_card", "afetch_agent_card",
    "send_message", "minimal_agent_card", "verify_agent_card_signature", "parse_agent_card",
}

#: a2a-sdk types that carry a message to send (0.2/0.3 pydantic, 1.x protobuf): what a
#: value is when it comes from their constructors or is annotated as one.
MESSAGE_TYPES = frozenset({"Message", "MessageSendParams", "SendMessageRequest", "SendStreamingMessageRequest"})

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
        "a2a:A2AClient.send_task",  # the tasks/send era (early a2a, the samples' common.client)
        "a2a:A2AClient.send_task_streaming",
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
    "verify-signature": ("crewai:verify_agent_card_signature", "a2a:SignatureVerifier.__call__"),
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
SDK_ONLY_METHODS = frozenset({"get_agent_card"})
#: A call of one of those methods in a file's bytes (what ``--verbose`` points at in a
#: module the prefilter rules out: see ``Analysis.unread_by_name`` for a parsed one).
_METHOD_CALL = re.compile(
    rb"\.(" + b"|".join(sorted(m.encode() for m in METHOD_ROLES if m not in SDK_ONLY_METHODS)) + rb")\s*\("
)


def method_call_in(data: bytes) -> tuple[int, int, str] | None:
    """``(line, column, method)`` of the first ``.send_message(``-like call in ``data``."""
    found = _METHOD_CALL.search(data)
    if found is None:
        return None
    start = data.rfind(b"\n", 0, found.start()) + 1
    return data.count(b"\n", 0, found.start()) + 1, len(data[start : found.start()].decode("utf-8", "replace")) + 2, found.group(1).decode()

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
RPC_HELPER = re.compile(r"rpc|call|request|invoke|post|send", re.IGNORECASE)
CARD_PATHS = (
    "/.well-known/agent.json",
    "/.well-known/agent-card.json",
    "/agent/authenticatedExtendedCard",
    "/extendedAgentCard",
    "/v1/card",
)
#: ``CARD_PATHS`` relative to the agent's base: those that are still a path, not one word.
RELATIVE_CARD_PATHS = tuple(path[1:] for path in CARD_PATHS if "/" in path[1:])
CARD_PATH_CONSTANTS = ("AGENT_CARD_WELL_KNOWN_PATH", "PREV_AGENT_CARD_WELL_KNOWN_PATH", "EXTENDED_AGENT_CARD_PATH")
HTTP_READS = {"get", "request", "urlopen", "stream", "head", "connect_sse", "aconnect_sse"}
HTTP_WRITES = {"post", "request", "stream", "put", "send", "connect_sse", "aconnect_sse"}
#: Calls that cancel the coroutine they are given once a timeout passes (a ``timeout`` of
#: ``None`` waits for good): ``asyncio.wait_for(coro, timeout)``.
DEADLINE_CALLS = frozenset({"asyncio.wait_for"})
#: HTTP calls given the request's method as an argument: the positions of the method and
#: the URL. httpx's ``client.request(method, url)`` and ``client.stream(method, url)``;
#: httpx-sse's ``connect_sse(client, method, url, **kwargs)`` / ``aconnect_sse``, which
#: make the client's ``client.stream(method, url, **kwargs)``.
HTTP_VERB_ARGUMENTS = {"request": (0, 1), "stream": (0, 1), "connect_sse": (1, 2), "aconnect_sse": (1, 2)}

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
    """``text`` names a card's URL: holds one of ``CARD_PATHS``, or starts with one made
    relative to the agent's base (``urljoin(base, ".well-known/agent-card.json")``)."""
    return any(path in text for path in CARD_PATHS) or text.startswith(RELATIVE_CARD_PATHS)


def rest_role(text: str) -> str | None:
    for pattern, role in REST_ROLES:
        if pattern.search(text):
            return role
    return None


# --- the prefilter ---------------------------------------------------------------------


#: The field a registry's or a directory's record keeps a card's JSON in
#: (``item["AgentCard"]``), as keys are read (snake case); and the literal keys that
#: spell it, which the prefilter looks for.
CARD_FIELD = "agent_card"
CARD_FIELD_NAMES = frozenset({"AgentCard", "agentCard", "agent_card"})
CARD_FIELD_LITERALS = tuple(f"{quote}{name}{quote}" for name in sorted(CARD_FIELD_NAMES) for quote in "\"'")

#: An import of an A2A package spells the last part of its name as a whole word
#: (``from a2a.client import``, ``from google.adk import a2a``); each contains "a2a".
PACKAGE_WORDS = sorted({name.rsplit(".", 1)[-1] for name in A2A_PACKAGES})
_PACKAGE_WORD = re.compile(rb"\b(?:%s)\b" % b"|".join(re.escape(word.encode()) for word in PACKAGE_WORDS))


class NamePatterns:
    """Qualified-name patterns (fnmatch's syntax) matched in one step: names without a
    wildcard by a set lookup, the others by one regular expression. A declared API may
    list thousands, and every call of every module is matched against them."""

    def __init__(self, patterns: Iterable[str]) -> None:
        patterns = tuple(patterns)
        self.exact = frozenset(p for p in patterns if not _WILDCARD.search(p))
        wild = [fnmatch.translate(p) for p in patterns if p not in self.exact]
        self.wild = re.compile("|".join(wild)) if wild else None

    def match(self, *names: str | None) -> bool:
        """Whether one of ``names`` (a None left aside) matches one of the patterns."""
        wild = self.wild
        return any(n and (n in self.exact or (wild is not None and wild.match(n) is not None)) for n in names)


#: A wildcard of fnmatch's: ``*``, ``?`` or a bracketed class.
_WILDCARD = re.compile(r"\*|\?|\[[^\]]*\]?")


@functools.lru_cache(maxsize=64)
def name_patterns(patterns: tuple[str, ...]) -> NamePatterns:
    """``patterns`` compiled (once per process: a role's patterns are one tuple of the settings)."""
    return NamePatterns(patterns)


class Prefilter:
    """Whether a file's bytes can yield a finding, for a declared API: one of the tables'
    byte strings in them, or a declared function's name as a word (a set of words, not a
    search per name: an API may declare thousands)."""

    def __init__(self, api: dict[str, tuple[str, ...]]) -> None:
        substrings = {name.encode() for name in RPC_ROLES}
        substrings.update(path.encode() for path in (*CARD_PATHS, *RELATIVE_CARD_PATHS))
        substrings.update(name.encode() for name in CARD_PATH_CONSTANTS)
        substrings.update(literal.encode() for literal in CARD_FIELD_LITERALS)
        words: set[bytes] = set()
        for patterns in api.values():
            for pattern in patterns:
                last = pattern.rsplit(".", 1)[-1]
                if last.isidentifier():  # `submit` is in the file as a word wherever it is called
                    words.add(last.encode())
                else:  # `*card*`, `load_?`: its longest literal piece, somewhere in a word
                    piece = max(_WILDCARD.split(last), key=len)
                    if piece:
                        substrings.add(piece.encode())
        self.substrings, self.words = tuple(sorted(substrings)), frozenset(words)

    def admits(self, data: bytes) -> bool:
        # A substring search per token beats one regex; "a2a" is in many a data table (an
        # escaped "\u2a2a"), so the package names are looked for as words only where it is.
        if any(token in data for token in self.substrings):
            return True
        if b"a2a" in data and _PACKAGE_WORD.search(data) is not None:
            return True
        return bool(self.words) and not self.words.isdisjoint(_WORD.findall(data))


_WORD = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
#: The prefilter and key of each declared API in use, by the identity of its table (kept with it).
_PREFILTERS: dict[int, tuple[dict, Prefilter, str]] = {}
#: The last answer: a file's bytes are asked about by the pool's dispatcher, the cache and
#: the checker in turn, and a large tree is mostly files that cannot matter.
_last: tuple[bytes, object, bool] | None = None


def may_matter(data: bytes, settings: object) -> bool:
    """Whether ``data`` can yield a finding: decided on bytes, before parsing."""
    global _last
    if _last is not None and _last[0] is data and _last[1] is settings:
        return _last[2]
    answer = _declared(settings)[1].admits(data)
    _last = (data, settings, answer)
    return answer


def api_key(settings: object) -> str:
    """The part of ``settings`` :func:`may_matter` reads (the declared API), as a key that
    is the same in every process (a digest: records of files keep it)."""
    return _declared(settings)[2]


def _declared(settings: object) -> tuple[dict, Prefilter, str]:
    api = getattr(settings, "api", None) or {}
    known = _PREFILTERS.get(id(api))
    if known is None or known[0] is not api:
        if len(_PREFILTERS) >= 64:  # (a language server whose settings keep changing)
            _PREFILTERS.clear()
        text = repr(tuple(sorted((role, tuple(patterns)) for role, patterns in api.items())))
        known = _PREFILTERS[id(api)] = (api, Prefilter(api), hashlib.sha256(text.encode()).hexdigest()[:16])
    return known


#: Bytes read at a time from a file too large to check, and how much of one chunk is
#: read again with the next: more than the longest name the prefilter looks for.
_CHUNK, _OVERLAP = 1 << 20, 256


def file_may_matter(path, data: bytes, settings: object) -> bool:
    """:func:`may_matter` for a file whose first bytes are ``data``, reading the rest of
    it from ``path`` in bounded chunks (never whole): a file too large to check is
    skipped when nothing in it can matter, and is an ``AC000`` otherwise."""
    if may_matter(data, settings):
        return True
    try:
        with open(path, "rb") as stream:
            stream.seek(max(0, len(data) - _OVERLAP))
            while chunk := stream.read(_CHUNK):
                if may_matter(chunk, settings):
                    return True
                if len(chunk) < _CHUNK:
                    return False
                stream.seek(-_OVERLAP, 1)
    except (OSError, ValueError):  # not a file on disk (standard input): its first bytes decide
        pass
    return False


# --- what the value analysis needs of the tables -------------------------------------------

#: QUALIFIED_ROLES compiled: one regular expression per role.
QUALIFIED_PATTERNS = {
    role: re.compile("|".join(fnmatch.translate(p) for p in patterns))
    for role, patterns in QUALIFIED_ROLES.items()
    if patterns
}
CARD_TYPES = frozenset({"a2a:AgentCard", "python_a2a:AgentCard", "fasta2a:AgentCard"})
TASK_EVENT_TYPES = frozenset(
    {"a2a:Task", "a2a:TaskStatusUpdateEvent", "a2a:TaskArtifactUpdateEvent", "a2a:StreamResponse", "a2a:ClientEvent"}
)
#: Signature checks of the JOSE libraries cards are signed with (PyJWT 2.x, jwcrypto 1.x,
#: python-jose 3.x),
#: by canonical name: where the token checked is passed (position, keyword), and where
#: the key is when the call verifies only if given one (jwcrypto parses without it).
#: A method of a token object (``JWS.verify``) checks what was loaded into it. Whose
#: token it is, a card's or a push notification's, the analysis says (``signature_check``).
JWS_CHECKS: dict[str, tuple[tuple[int, str] | None, tuple[int, str] | None]] = {
    "jwt.decode": ((0, "jwt"), None),
    "jwt.decode_complete": ((0, "jwt"), None),
    "jwt.*.decode": ((0, "jwt"), None),  # jwt.api_jws.PyJWS().decode, jwt.PyJWT().decode
    "jwt.*.decode_complete": ((0, "jwt"), None),
    "jwcrypto.jws.JWS.deserialize": ((0, "raw_jws"), (1, "key")),
    "jwcrypto.jwt.JWT.deserialize": ((0, "jwt"), (1, "key")),
    "jwcrypto.jwt.JWT": ((2, "jwt"), (3, "key")),
    "jwcrypto.jws.JWS.verify": ((2, "detached_payload"), None),
    "jwcrypto.jwt.JWT.validate": (None, None),
    "jose.jws.verify": ((0, "token"), None),
    "jose.jwt.decode": ((0, "token"), None),
}
#: A method named for verifying a card's signature (``verify_card_signature``, ``card_verify``).
VERIFY_NAME = re.compile(r"verif\w*(signature|card)|(signature|card)\w*verif", re.IGNORECASE)


def _is_a2a(model: ModuleModel, configured: dict[str, tuple[str, ...]]) -> bool:
    for qualified in model.imports.values():
        if canonical(qualified) != qualified:
            return True
        if any(name_patterns(tuple(patterns)).match(qualified) for patterns in configured.values()):
            return True
    if any("/" in s and s in RPC_ROLES for s in model.strings) or model.rpc_methods & RPC_ROLES.keys():
        return True
    return any(is_card_url(s) for s in model.strings)


def annotate(model: ModuleModel, configured: dict[str, tuple[str, ...]] | None = None) -> None:
    """What the module itself says about A2A: whether it is A2A client code, whether it
    imports a2a-sdk. What its calls mean is for the value analysis to say."""
    configured = dict(configured or {})
    model.is_a2a = _is_a2a(model, configured)
    model.imports_sdk = any(q == "a2a" or q.startswith("a2a.") for q in model.imports.values())
