"""AC103's fix, on every AC103 case there is: the rule's examples and the corpus.

Each finding either has a fix, or says why it has none. A fixed module parses, has no
AC103 left but the ones without a fix, changes nothing when fixed again, and is the
original once the fix's own text is taken out again: nothing else in it changed.
"""

from __future__ import annotations

import hashlib
import json
import textwrap
from collections import Counter
from pathlib import Path

import libcst as cst
import pytest

from a2alint.freeze import HASH_HELPER, WRAP_HELPER, helper_source
from a2alint.registry import load_rules
from a2alint.rule import Files, Invalid
from a2alint.runner import lint_project

CORPUS = Path(__file__).parent / "corpus"
KEY = "a2a_contract_hash"
NO_FIX = "(no automatic fix: "


def _cases():
    for index, example in enumerate(load_rules()["AC103"].INVALID):
        if isinstance(example, Files):
            sources = {path: textwrap.dedent(text) for path, text in example.files.items()}
        else:
            sources = {"example.py": textwrap.dedent(example.source if isinstance(example, Invalid) else example)}
        yield pytest.param(sources, id=f"example-{index}")
    for path in sorted(CORPUS.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        if "AC103" in text:
            yield pytest.param({path.name: text}, id=path.stem)
    for project in sorted(p for p in (CORPUS / "projects").iterdir() if p.is_dir()):
        sources = {str(p.relative_to(project)): p.read_text(encoding="utf-8") for p in sorted(project.rglob("*.py"))}
        if any("AC103" in text for text in sources.values()):
            yield pytest.param(sources, id=project.name)


CASES = list(_cases())


class _Unwrap(cst.CSTTransformer):
    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if isinstance(updated.func, cst.Name) and updated.func.value == WRAP_HELPER:
            return updated.args[0].value
        return updated


def unfrozen(text: str) -> str:
    """``text`` with what the fix adds taken out: the helpers, and each
    ``a2a_with_contract_hash(x, card)`` back to ``x``."""
    for block in (helper_source(KEY), helper_source(KEY, with_hash=False)):
        added = "\n\n\n" + block.rstrip("\n")
        if added in text:
            text = text.replace(added, "", 1)
            break
    return cst.parse_module(text).visit(_Unwrap()).code


@pytest.mark.parametrize("sources", CASES)
def test_every_ac103_has_a_fix_or_says_why_not(sources):
    results = lint_project(sources, select=("AC103",))
    found = [d for result in results.values() for d in result.diagnostics if d.code == "AC103"]
    assert found
    for diagnostic in found:
        assert (diagnostic.fix is not None) != (NO_FIX in diagnostic.suggestion), diagnostic.suggestion
        if diagnostic.fix is not None:
            assert diagnostic.fix.applicability == "unsafe"


@pytest.mark.parametrize("sources", CASES)
def test_a_fixed_module_parses_is_silent_is_stable_and_changed_only_where_fixed(sources):
    before = lint_project(sources, select=("AC103",))
    unfixable = {path: sum(1 for d in r.diagnostics if d.code == "AC103" and d.fix is None) for path, r in before.items()}
    fixed = lint_project(sources, select=("AC103",), fix="unsafe")
    after = {path: result.fixed if result.fixed is not None else sources[path] for path, result in fixed.items()}
    for path, text in after.items():
        cst.parse_module(text)
        assert unfrozen(text) == sources[path], path
    again = lint_project(after, select=("AC103",))
    for path, result in again.items():
        assert sum(1 for d in result.diagnostics if d.code == "AC103") == unfixable[path], path
    assert all(r.fixed is None for r in lint_project(after, select=("AC103",), fix="unsafe").values())


@pytest.mark.parametrize("sources", CASES)
def test_the_fix_changes_no_other_rules_findings(sources):
    """Freezing the contract leaves what the other rules see as it was: the wrapped message
    still continues its task, the card still decides what it decided."""
    def codes(texts):
        return Counter(d.code for r in lint_project(texts).values() for d in r.diagnostics if d.code != "AC103")

    fixed = lint_project(sources, select=("AC103",), fix="unsafe")
    after = {path: result.fixed if result.fixed is not None else sources[path] for path, result in fixed.items()}
    assert codes(after) == codes(sources)


#: Cases whose card is in hand where the message is sent, one per shape: each must get a fix.
FIXABLE = {
    "example-3": "0.3/1.x client made from a card the object keeps",
    "bad_turn_by_turn_peer": "a2a-sdk client per turn",
    "bad_llm_router_tool": "an LLM tool sending through a connection that keeps its card",
    "bad_envelope_wrapper": "MessageSendParams through a wrapper that keeps its card",
    "bad_raw_transports": "raw JSON-RPC body",
    "bad_registry_resume": "0.2 A2AClient streaming request, card from a registry",
    "bad_multiturn_conductor": "multi-turn continuation",
}


@pytest.mark.parametrize("case", sorted(FIXABLE))
def test_a_send_whose_card_is_in_hand_gets_a_fix(case):
    (sources,) = [p.values[0] for p in CASES if p.id == case]
    found = [d for r in lint_project(sources, select=("AC103",)).values() for d in r.diagnostics]
    assert any(d.fix is not None for d in found), [d.suggestion for d in found]


# --- the helper the fix adds, run --------------------------------------------------------------


def helpers() -> dict:
    namespace = {"hashlib": hashlib, "json": json}
    exec(compile(helper_source(KEY), "<a2alint helper>", "exec"), namespace)  # the code the fix inserts
    return namespace


RAW_V03 = {
    "name": "Travel agent",
    "description": "Books trips",
    "url": "https://travel.example/a2a",
    "protocolVersion": "0.3.0",
    "version": "1.4.0",
    "capabilities": {"streaming": True},
    "securitySchemes": {"oauth": {"type": "oauth2", "flows": {"clientCredentials": {"tokenUrl": "https://id.example/t", "scopes": {}}}}},
    "security": [{"oauth": ["trips:write"]}],
    "defaultInputModes": ["text/plain"],
    "defaultOutputModes": ["text/plain"],
    "skills": [{"id": "book", "name": "Book", "description": "Book a trip", "tags": []}],
}

RAW_V1 = {
    "name": "Travel agent",
    "description": "Books trips",
    "supportedInterfaces": [{"url": "https://travel.example/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
    "version": "1.4.0",
    "securitySchemes": {"oauth": {"oauth2SecurityScheme": {"flows": {}}}},
    "securityRequirements": [{"schemes": {"oauth": {"list": ["trips:write"]}}}],
    "skills": [{"id": "book", "name": "Book"}],
}


def _reordered(value):
    if isinstance(value, dict):
        return {k: _reordered(value[k]) for k in reversed(list(value))}
    if isinstance(value, list):
        return [_reordered(v) for v in value]
    return value


@pytest.mark.parametrize("card", [RAW_V03, RAW_V1], ids=["v0.3-json", "v1-json"])
def test_the_helper_hashes_only_the_contract(card):
    digest = helpers()[HASH_HELPER]
    assert digest(_reordered(card)) == digest(card)  # key order does not matter
    assert digest({**card, "skills": [], "description": "Now also hotels"}) == digest(card)
    for field in ("securitySchemes", "security", "securityRequirements", "protocolVersion"):
        if field in card:
            assert digest({**card, field: "changed"}) != digest(card), field
    if "supportedInterfaces" in card:
        moved = [{**card["supportedInterfaces"][0], "protocolVersion": "1.1"}]
        assert digest({**card, "supportedInterfaces": moved}) != digest(card)


def test_the_helper_attaches_the_hash_where_each_shape_carries_metadata():
    found = helpers()
    wrap, digest = found[WRAP_HELPER], found[HASH_HELPER](RAW_V03)
    body = {"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": {"message": {"parts": []}, "metadata": {"a": 1}}}
    assert wrap(body, RAW_V03)["params"]["metadata"] == {"a": 1, KEY: digest}

    class Message:  # the attributes a 0.2/0.3 pydantic message has
        metadata = None

    class Params:
        def __init__(self):
            self.message = Message()

    class Request:
        def __init__(self):
            self.params = Params()

    request = wrap(Request(), RAW_V03)
    assert request.params.message.metadata == {KEY: digest}
    alone = wrap(Message(), RAW_V03)
    assert alone.metadata == {KEY: digest}


def test_the_key_is_an_option():
    source = textwrap.dedent(
        """
        import httpx

        def ask(base, text):
            card = httpx.get(base + "/.well-known/agent-card.json").json()
            body = {"jsonrpc": "2.0", "id": 1, "method": "message/send",
                    "params": {"message": {"role": "user", "parts": [{"kind": "text", "text": text}], "messageId": "m"}}}
            return httpx.post(card["url"], json=body).json()
        """
    )
    from a2alint.config import Settings
    from a2alint.runner import lint_source

    settings = Settings(root=Path.cwd(), rule_options={"AC103": {"metadata-key": "contract_sha256"}})
    result = lint_source(source, select=("AC103",), fix="unsafe", settings=settings)
    assert '"contract_sha256": a2a_contract_hash(card)' in result.fixed
    assert "json=a2a_with_contract_hash(body, card)" in result.fixed


def test_the_text_a_wrapper_builds_its_message_from_is_not_wrapped():
    """The helper puts the digest in a message's metadata: given the text a wrapper turns
    into a message, it would fail at run time, so there is no fix, and the finding says where."""
    source = textwrap.dedent(
        """
        from uuid import uuid4
        from a2a.client import A2AClient
        from a2a.types import AgentCard, Message, MessageSendParams, Part, SendMessageRequest, TextPart


        class Peer:
            def __init__(self, http, card: AgentCard):
                self._agent_card = card
                self.client = A2AClient(http, agent_card=card)

            async def send_message(self, message: Message):
                return await self.client.send_message(SendMessageRequest(id="1", params=MessageSendParams(message=message)))

            async def send_text(self, text: str):
                message = Message(role="user", message_id=uuid4().hex, parts=[Part(root=TextPart(text=text))])
                return await self.send_message(message)


        async def tool(peer: Peer, question: str):
            return await peer.send_text(question)

        async def direct(peer: Peer, message: Message):
            return await peer.send_message(message)
        """
    )
    results = lint_project({"peer.py": source}, select=("AC103",))
    found = {d.line: d for d in results["peer.py"].diagnostics}
    assert found[21].fix is None and "send_text() builds it" in found[21].suggestion
    assert found[24].fix is not None  # a message, sent through the same wrapper: wrapped, with the card the peer keeps
    fixed = lint_project({"peer.py": source}, select=("AC103",), fix="unsafe")["peer.py"].fixed
    assert "peer.send_message(a2a_with_contract_hash(message, peer._agent_card))" in fixed


def test_a_message_written_over_several_lines_inside_a_block_keeps_its_lines():
    """The wrapped argument is written where it stands: its continuation lines keep the
    indentation of the block they are in (libcst writes them relative to it)."""
    source = textwrap.dedent(
        """
        import httpx


        class Peer:
            def ask(self, base, text):
                card = httpx.get(base + "/.well-known/agent-card.json").json()
                if text:
                    return httpx.post(
                        card["url"],
                        json={
                            "jsonrpc": "2.0",
                            "id": 1,
                            "method": "message/send",
                            "params": {"message": {"parts": [{"kind": "text", "text": text}]}},
                        },
                    ).json()
        """
    )
    fixed = lint_project({"peer.py": source}, select=("AC103",), fix="unsafe")["peer.py"].fixed
    assert '                json=a2a_with_contract_hash({\n                    "jsonrpc": "2.0",\n' in fixed
    assert "                }, card),\n" in fixed
    assert unfrozen(fixed) == source


def test_in_a_module_without_imports_the_helpers_go_after_its_docstring():
    source = textwrap.dedent(
        '''
        """A peer with no imports of its own."""


        def ask(http, base, text):
            card = http.get(base + "/.well-known/agent-card.json").json()
            body = {"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": {"message": {"parts": []}}}
            return http.post(card["url"], json=body).json()
        '''
    ).lstrip("\n")
    fixed = lint_project({"peer.py": source}, select=("AC103",), fix="unsafe")["peer.py"].fixed
    assert fixed.startswith('"""A peer with no imports of its own."""\n\n\ndef a2a_contract_hash(')
    assert unfrozen(fixed) == source


#: A send whose card is in hand, after the module's imports (``{head}``: its import lines).
PEER = '''{head}


def ask(http, base, text):
    card = http.get(base + "/.well-known/agent-card.json", timeout=TIMEOUT).json()
    body = {{"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": {{"message": {{"parts": []}}}}}}
    return http.post(card["url"], json=body).json()
'''


def _fixed(source: str) -> str:
    return lint_project({"peer.py": source}, select=("AC103",), fix="unsafe")["peer.py"].fixed


def test_the_helpers_go_after_the_whole_last_import_line():
    """``import x; TIMEOUT = 5``: inserted after the import statement, the helper would end
    up before ``TIMEOUT = 5``, which would then run after the helper's ``return``."""
    source = PEER.format(head="import json\nimport httpx; TIMEOUT = 5  # seconds")
    fixed = _fixed(source)
    assert "import httpx; TIMEOUT = 5  # seconds\n\n\ndef a2a_contract_hash(" in fixed
    assert unfrozen(fixed) == source


@pytest.mark.parametrize(
    "head",
    [
        "import ujson as json\nimport httpx\nTIMEOUT = 5",
        "try:\n    import orjson as json\nexcept ImportError:\n    import json\nimport httpx\nTIMEOUT = 5",
        "import httpx\nhashlib = None  # not the standard library's\nTIMEOUT = 5",
    ],
)
def test_the_module_s_own_names_keep_their_meaning(head):
    """The helper imports the standard library inside itself: no ``import json`` is added
    beside (or above) a module's own ``json``, which would rebind it for the code after."""
    fixed = _fixed(PEER.format(head=head))
    top_level = [line for line in fixed.splitlines() if line.startswith(("import ", "from "))]
    assert top_level == [line for line in head.splitlines() if line.startswith(("import ", "from "))]
    namespace: dict = {}
    exec(compile(helper_source(KEY), "helper", "exec"), namespace)  # the helper alone works
    assert len(namespace[HASH_HELPER]({"protocolVersion": "0.3.0"})) == 64


def test_no_fix_beside_a_binding_of_a_helper_s_name(check, project):
    write_peer = PEER.format(head="import httpx\nTIMEOUT = 5\na2a_contract_hash = None")
    (project / "peer.py").write_text(write_peer)
    finding = check("--no-cache", "--select", "AC103", "--output-format", "json").json()["diagnostics"][0]
    assert finding["fix"] is None
    assert "binds a2a_contract_hash to something else" in finding["suggestion"]


@pytest.mark.parametrize("newline", ["\r\n", "\r"])
def test_every_inserted_line_takes_the_file_s_line_ending(newline):
    source = PEER.format(head="import httpx\nTIMEOUT = 5").replace("\n", newline)
    fixed = _fixed(source)
    assert "def a2a_contract_hash(" in fixed
    others = {"\r\n": ("\r", "\n"), "\r": ("\n",)}[newline]
    assert not any(ending in fixed.replace(newline, "") for ending in others)


def test_an_import_on_the_last_line_without_a_line_end():
    source = 'def ask(http, base, text):\n    card = http.get(base + "/.well-known/agent-card.json").json()\n    return http.post(card["url"], json={"method": "message/send", "params": {"message": {}}}).json()\nimport httpx'
    fixed = _fixed(source)
    assert fixed.endswith("import httpx\n\n\n" + helper_source(KEY).rstrip("\n") + "\n") or "import httpx\n\n\ndef a2a_contract_hash(" in fixed
    cst.parse_module(fixed)
