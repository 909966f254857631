"""``a2alint server``: the real process over stdio, driven by a small LSP client.

The client below frames JSON-RPC with ``Content-Length`` headers, reads on a
thread, matches responses to requests by id, answers the server's own requests
and keeps every notification in order, so a test can wait for the one it needs
(``publishDiagnostics`` of a given document version) with a timeout instead of
sleeping.
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
import tempfile
import textwrap
import threading
from pathlib import Path
from typing import Any, Callable

import pytest

pytest.importorskip("pygls.lsp.server", reason="the lsp extra (pygls 2) is not installed")

from a2alint.registry import load_rules  # noqa: E402
from a2alint.reporters import rule_url  # noqa: E402
from a2alint.rule import Files, Invalid  # noqa: E402
from a2alint.runner import lint_source  # noqa: E402
from conftest import DIGESTS, FIXABLE, FIXABLE_AT, cross_module_project  # noqa: E402
from conftest import FIXED as FIXED_SOURCE  # noqa: E402

TIMEOUT = 15.0
DEBOUNCE = 0.05
SERVER = [sys.executable, "-m", "a2alint", "server"]

#: The engine tests' AC107 document (an unsafe fix adds ``sort_keys=True``), in LSP terms.
FINDING, FIXED = FIXABLE, FIXED_SOURCE
LINE = FIXABLE_AT[0] - 1  # 0-based
FINDING_RANGE = {
    "start": {"line": LINE, "character": FIXABLE_AT[1] - 1},
    "end": {"line": LINE, "character": FIXABLE_AT[1] - 1 + len("json.dumps(contract)")},
}
ONLY_AC107 = {"select": ["AC107"]}


class LspClient:
    """A language client for tests: one server process, JSON-RPC over its stdin/stdout."""

    def __init__(self, cwd: Path) -> None:
        self.stderr = tempfile.TemporaryFile()
        self.process = subprocess.Popen(
            SERVER, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr
        )
        self.ids = itertools.count(1)
        self.write_lock = threading.Lock()
        self.changed = threading.Condition()
        self.responses: dict[int, dict] = {}
        self.notifications: list[dict] = []
        self.server_requests: list[dict] = []
        self.closed = False
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    # -- wire --
    def _write(self, message: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        with self.write_lock:
            self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            self.process.stdin.flush()

    def _read(self) -> None:
        stream = self.process.stdout
        while True:
            headers = {}
            while True:
                line = stream.readline()
                if not line:
                    with self.changed:
                        self.closed = True
                        self.changed.notify_all()
                    return
                if not line.strip():
                    break
                name, _, value = line.decode("ascii").partition(":")
                headers[name.strip().lower()] = value.strip()
            message = json.loads(stream.read(int(headers["content-length"])))
            if "method" in message and "id" in message:
                self.server_requests.append(message)
                self._write({"id": message["id"], "result": None})  # registerCapability and friends
                continue
            with self.changed:
                if "method" in message:
                    self.notifications.append(message)
                else:
                    self.responses[message["id"]] = message
                self.changed.notify_all()

    def _wait(self, found: Callable[[], Any], what: str, timeout: float = TIMEOUT) -> Any:
        with self.changed:
            if not self.changed.wait_for(lambda: found() is not None or self.closed, timeout):
                raise AssertionError(f"timed out waiting for {what}; stderr:\n{self.errors()}")
            value = found()
            if value is None:
                raise AssertionError(f"the server closed its output while waiting for {what}; stderr:\n{self.errors()}")
            return value

    def errors(self) -> str:
        self.stderr.seek(0)
        return self.stderr.read().decode("utf-8", "replace")

    # -- JSON-RPC --
    def request(self, method: str, params: Any = None, timeout: float = TIMEOUT) -> Any:
        number = next(self.ids)
        self._write({"id": number, "method": method, "params": params})
        response = self._wait(lambda: self.responses.get(number), f"the answer to {method}", timeout)
        assert "error" not in response, response["error"]
        return response.get("result")

    def notify(self, method: str, params: Any = None) -> None:
        self._write({"method": method, "params": params})

    def notify_all(self, messages: list[tuple[str, Any]]) -> None:
        """Several notifications in one write, so that the server reads them back to back."""
        bodies = [json.dumps({"jsonrpc": "2.0", "method": m, "params": p}).encode("utf-8") for m, p in messages]
        with self.write_lock:
            self.process.stdin.write(b"".join(b"Content-Length: %d\r\n\r\n" % len(b) + b for b in bodies))
            self.process.stdin.flush()

    def mark(self) -> int:
        """A place in the notifications: wait for what comes after it."""
        with self.changed:
            return len(self.notifications)

    def wait_for(self, method: str, since: int, where: Callable[[dict], bool] = lambda p: True) -> dict:
        def found():
            return next((m["params"] for m in self.notifications[since:] if m["method"] == method and where(m["params"])), None)

        return self._wait(found, method)

    def published(self, since: int, uri: str | None = None) -> list[dict]:
        with self.changed:
            return [
                m["params"]
                for m in self.notifications[since:]
                if m["method"] == "textDocument/publishDiagnostics" and uri in (None, m["params"]["uri"])
            ]

    # -- LSP --
    def initialize(self, root: Path, options: dict | None = None) -> dict:
        capabilities = {
            "textDocument": {
                "publishDiagnostics": {"relatedInformation": True, "versionSupport": True},
                "codeAction": {"codeActionLiteralSupport": {"codeActionKind": {"valueSet": ["quickfix", "source"]}}},
                "hover": {"contentFormat": ["markdown", "plaintext"]},
            },
            "workspace": {"didChangeWatchedFiles": {"dynamicRegistration": True}, "workspaceEdit": {"documentChanges": True}},
        }
        params = {"processId": None, "rootUri": root.as_uri(), "capabilities": capabilities, "initializationOptions": options}
        result = self.request("initialize", params)
        self.notify("initialized", {})
        return result

    def open(self, path: Path, text: str, version: int = 1) -> dict:
        """Open ``path`` with the buffer ``text``; the diagnostics published for it."""
        since = self.mark()
        document = {"uri": path.as_uri(), "languageId": "python", "version": version, "text": text}
        self.notify("textDocument/didOpen", {"textDocument": document})
        return self.diagnostics(path, version, since)

    def change(self, path: Path, version: int, text: str) -> dict:
        """Replace the buffer with ``text`` (a full-text change); the diagnostics published for it."""
        since = self.mark()
        self.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": path.as_uri(), "version": version}, "contentChanges": [{"text": text}]},
        )
        return self.diagnostics(path, version, since)

    def diagnostics(self, path: Path, version: int | None, since: int) -> dict:
        uri = path.as_uri()
        return self.wait_for(
            "textDocument/publishDiagnostics",
            since,
            lambda p: p["uri"] == uri and (version is None or p.get("version") == version),
        )

    def close(self) -> int:
        """``shutdown``, ``exit``: the process's exit code."""
        if self.process.poll() is None:
            assert self.request("shutdown") is None
            self.notify("exit")
            try:
                return self.process.wait(timeout=TIMEOUT)
            finally:
                if self.process.poll() is None:
                    self.process.kill()
        return self.process.returncode


def document_edits(action: dict, uri: str) -> list[dict]:
    edit = action["edit"]
    if "documentChanges" in edit:
        return [e for change in edit["documentChanges"] if change["textDocument"]["uri"] == uri for e in change["edits"]]
    return edit["changes"][uri]


def apply(text: str, edits: list[dict]) -> str:
    """Apply LSP text edits (UTF-16 positions) to ``text``, as an editor does."""
    lines = text.splitlines(keepends=True)

    def offset(position: dict) -> int:
        if position["line"] >= len(lines):
            return len(text)
        line = lines[position["line"]]
        units = index = 0
        while index < len(line) and units < position["character"]:
            units += 2 if ord(line[index]) > 0xFFFF else 1
            index += 1
        return sum(len(x) for x in lines[: position["line"]]) + index

    spans = sorted(((offset(e["range"]["start"]), offset(e["range"]["end"]), e["newText"]) for e in edits), reverse=True)
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text


def code_actions(client: LspClient, path: Path, at: dict, only: list[str] | None = None) -> list[dict]:
    context: dict = {"diagnostics": []}
    if only is not None:
        context["only"] = only
    params = {"textDocument": {"uri": path.as_uri()}, "range": at, "context": context}
    return client.request("textDocument/codeAction", params) or []


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("workspace")


@pytest.fixture(scope="module")
def client(workspace: Path):
    server = LspClient(workspace)
    try:
        result = server.initialize(workspace, {"debounce": DEBOUNCE, **ONLY_AC107})
        capabilities = result["capabilities"]
        assert capabilities["codeActionProvider"]["codeActionKinds"] == ["quickfix", "source.fixAll.a2alint"]
        assert capabilities["hoverProvider"] is True
        yield server
    finally:
        server.close()


@pytest.fixture
def document(workspace: Path, request: pytest.FixtureRequest) -> Path:
    """A fresh path per test, so each test has its own document."""
    return workspace / f"{request.node.name.replace('[', '_').replace(']', '')}.py"


def test_without_pygls_the_command_says_what_to_install():
    blocked = "import sys; sys.modules['pygls'] = None; from a2alint.cli import main; main(['server'], prog_name='a2alint')"
    done = subprocess.run([sys.executable, "-c", blocked], capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode == 2
    assert "pip install 'a2alint[lsp]'" in done.stderr
    assert done.stdout == ""


def test_open_publishes_the_finding_of_the_unsaved_buffer(client: LspClient, document: Path):
    document.write_text("import a2a\n")  # on disk: nothing to report; the buffer is what counts
    published = client.open(document, FINDING)
    assert published["version"] == 1
    [diagnostic] = published["diagnostics"]
    assert diagnostic["code"] == "AC107"
    assert diagnostic["source"] == "a2alint"
    assert diagnostic["severity"] == 1  # error
    assert diagnostic["range"] == FINDING_RANGE
    first, help_line = diagnostic["message"].split("\n", 1)
    assert first == "json.dumps of Agent Card data without sort_keys=True feeds a hash; key order varies between peers"
    assert help_line.startswith("help: hash only the contract fields as canonical JSON")
    assert diagnostic["codeDescription"]["href"] == rule_url("AC107")
    assert diagnostic["data"]["fix"]["applicability"] == "unsafe"  # it changes the digest's value


def test_editing_the_buffer_to_fix_it_clears_the_diagnostics(client: LspClient, document: Path):
    client.open(document, FINDING)
    since = client.mark()
    line = FINDING.splitlines()[LINE]
    at = line.index("json.dumps(contract)") + len("json.dumps(contract")
    change = {"range": {"start": {"line": LINE, "character": at}, "end": {"line": LINE, "character": at}}, "text": ", sort_keys=True"}
    client.notify("textDocument/didChange", {"textDocument": {"uri": document.as_uri(), "version": 2}, "contentChanges": [change]})
    assert client.diagnostics(document, 2, since)["diagnostics"] == []
    assert client.change(document, 3, FINDING)["diagnostics"][0]["code"] == "AC107"  # and back


def test_a_burst_of_edits_is_linted_once_for_the_last_version(client: LspClient, document: Path):
    client.open(document, FIXED)
    since = client.mark()
    client.notify_all(
        [
            ("textDocument/didChange", {"textDocument": {"uri": document.as_uri(), "version": v}, "contentChanges": [{"text": text}]})
            for v, text in ((2, FINDING), (3, FIXED), (4, FINDING))
        ]
    )
    assert len(client.diagnostics(document, 4, since)["diagnostics"]) == 1
    assert [p["version"] for p in client.published(since, document.as_uri())] == [4]


def test_quick_fix_applies_the_rules_fix(client: LspClient, document: Path):
    [diagnostic] = client.open(document, FINDING)["diagnostics"]
    actions = code_actions(client, document, diagnostic["range"])
    [fix] = [a for a in actions if "Add sort_keys" in a["title"]]
    assert fix["kind"] == "quickfix" and not fix.get("isPreferred")
    assert fix["title"] == "a2alint (AC107): Add sort_keys=True (unsafe)"
    assert fix["diagnostics"][0]["code"] == "AC107"
    assert fix["edit"]["documentChanges"][0]["textDocument"]["version"] == 1
    fixed = apply(FINDING, document_edits(fix, document.as_uri()))
    assert fixed == FIXED
    assert client.change(document, 2, fixed)["diagnostics"] == []


UNFROZEN_SEND = """\
import httpx


def ask(base, text):
    card = httpx.get(base + "/.well-known/agent-card.json").json()
    body = {"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": {"message": {"parts": [{"kind": "text", "text": text}]}}}
    return httpx.post(card["url"], json=body).json()
"""


def test_the_contract_freezing_fix_is_offered_and_marked_unsafe(client: LspClient, workspace: Path):
    document = workspace / "unfrozen.py"
    client.notify("workspace/didChangeConfiguration", {"settings": {"a2alint": {"select": ["AC103"]}}})
    try:
        [diagnostic] = client.open(document, UNFROZEN_SEND)["diagnostics"]
        actions = code_actions(client, document, diagnostic["range"], only=["quickfix"])
        [fix] = [a for a in actions if a["title"].startswith("a2alint (AC103): Attach")]
        assert fix["title"].endswith("(unsafe)")
        fixed = apply(UNFROZEN_SEND, document_edits(fix, document.as_uri()))
        assert "json=a2a_with_contract_hash(body, card)" in fixed and "def a2a_contract_hash(card)" in fixed
        assert client.change(document, 2, fixed)["diagnostics"] == []
    finally:
        client.notify("workspace/didChangeConfiguration", {"settings": {"a2alint": {}}})


def test_no_actions_away_from_findings(client: LspClient, document: Path):
    client.open(document, FINDING)
    first_line = {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 3}}
    assert code_actions(client, document, first_line, only=["quickfix"]) == []


def test_suppress_action_adds_a_noqa_comment(client: LspClient, document: Path):
    [diagnostic] = client.open(document, FINDING)["diagnostics"]
    actions = code_actions(client, document, diagnostic["range"], only=["quickfix"])
    [suppress] = [a for a in actions if a["title"] == "a2alint (AC107): Suppress AC107 on this line"]
    suppressed = apply(FINDING, document_edits(suppress, document.as_uri()))
    assert suppressed.splitlines()[LINE] == FINDING.splitlines()[LINE] + "  # noqa: AC107"
    assert client.change(document, 2, suppressed)["diagnostics"] == []


def test_suppress_action_extends_an_existing_noqa(client: LspClient, document: Path):
    text = FINDING.replace(".hexdigest()\n", ".hexdigest()  # noqa: E501\n")
    [diagnostic] = client.open(document, text)["diagnostics"]
    actions = code_actions(client, document, diagnostic["range"], only=["quickfix"])
    [suppress] = [a for a in actions if a["title"].endswith("Suppress AC107 on this line")]
    suppressed = apply(text, document_edits(suppress, document.as_uri()))
    assert suppressed.splitlines()[LINE].endswith(".hexdigest()  # noqa: E501, AC107")
    assert client.change(document, 2, suppressed)["diagnostics"] == []


def test_fix_all_returns_one_whole_document_edit_of_the_safe_fixes(client: LspClient, document: Path):
    text = FINDING + "x = 1  # noqa: AC107\ny = 2  # noqa: AC107\n"  # two unused noqa: safe fixes
    client.notify("workspace/didChangeConfiguration", {"settings": {"a2alint": {"reportUnusedNoqa": True}}})
    try:
        assert sorted(codes(client.open(document, text))) == ["AC001", "AC001", "AC107"]
        actions = code_actions(client, document, {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, only=["source.fixAll"])
        [fix_all] = actions
        assert fix_all["kind"] == "source.fixAll.a2alint"
        [edit] = document_edits(fix_all, document.as_uri())
        assert edit["range"]["start"] == {"line": 0, "character": 0}
        fixed = apply(text, [edit])
        assert fixed == FINDING + "x = 1\ny = 2\n"  # AC107's fix is unsafe: not part of fix-all
        assert codes(client.change(document, 2, fixed)) == ["AC107"]
    finally:
        client.notify("workspace/didChangeConfiguration", {"settings": {"a2alint": {}}})


def test_hover_shows_the_rule_documentation(client: LspClient, document: Path):
    client.open(document, FINDING)
    params = {"textDocument": {"uri": document.as_uri()}, "position": {"line": LINE, "character": 30}}
    hover = client.request("textDocument/hover", params)
    assert hover["contents"]["kind"] == "markdown"
    assert load_rules()["AC107"].documentation() in hover["contents"]["value"]
    assert hover["range"] == FINDING_RANGE
    params["position"] = {"line": 0, "character": 0}
    assert client.request("textDocument/hover", params) is None


def test_positions_count_utf16_code_units(client: LspClient, document: Path):
    text = FINDING.replace("    return hashlib", '    return "\U0001f680" and hashlib')
    [diagnostic] = client.open(document, text)["diagnostics"]
    # '"🚀" and ' is 8 code points but 9 UTF-16 units: the rocket takes two.
    assert diagnostic["range"]["start"] == {"line": LINE, "character": FIXABLE_AT[1] - 1 + 9}
    [fix] = [a for a in code_actions(client, document, diagnostic["range"]) if "Add sort_keys" in a["title"]]
    assert "sort_keys=True" in apply(text, document_edits(fix, document.as_uri())).splitlines()[LINE]


def test_a_syntax_error_is_one_ac000_and_the_server_keeps_answering(client: LspClient, document: Path):
    broken = FINDING.replace("async def digest(resolver):", "async def digest(resolver)")
    client.notify("workspace/didChangeConfiguration", {"settings": {"a2alint": {"select": ["AC000", "AC107"]}}})
    try:
        [diagnostic] = client.open(document, broken)["diagnostics"]
        assert diagnostic["code"] == "AC000"
        assert diagnostic["range"]["start"]["line"] == FINDING.splitlines().index("async def digest(resolver):")
        params = {"textDocument": {"uri": document.as_uri()}, "position": diagnostic["range"]["start"]}
        assert "AC000" in client.request("textDocument/hover", params)["contents"]["value"]
        assert client.change(document, 2, FINDING)["diagnostics"][0]["code"] == "AC107"
    finally:
        client.notify("workspace/didChangeConfiguration", {"settings": {"a2alint": {}}})


def test_related_locations_become_related_information(client: LspClient, workspace: Path):
    registry = load_rules()
    for code, rule in registry.items():
        for example in rule.INVALID:
            source = textwrap.dedent(example.source if isinstance(example, Invalid) else example)
            found = [d for d in lint_source(source, select=(code,)).diagnostics if d.related]
            if found:
                break
        else:
            continue
        break
    else:
        pytest.skip("no rule reports related locations")
    path = workspace / f"related_{code.lower()}.py"
    client.notify("workspace/didChangeConfiguration", {"settings": {"a2alint": {"select": [code]}}})
    try:
        published = client.open(path, source)["diagnostics"]
    finally:
        client.notify("workspace/didChangeConfiguration", {"settings": {"a2alint": {}}})
    diagnostic = next(d for d in published if d["range"]["start"]["line"] == found[0].line - 1)
    expected = [
        {"location": {"uri": path.as_uri(), "range": {"start": at, "end": at}}, "message": note.label}
        for note in found[0].related
        for at in [{"line": note.line - 1, "character": note.column - 1}]
    ]
    assert diagnostic["relatedInformation"] == expected


def codes(published: dict) -> list[str]:
    return [d["code"] for d in published["diagnostics"]]


def test_config_files_are_found_per_document_and_reloaded(client: LspClient, workspace: Path):
    project = workspace / "project"
    (project / "pkg").mkdir(parents=True)
    pyproject = project / "pyproject.toml"
    pyproject.write_text('[tool.a2alint]\nignore = ["AC107"]\n')
    path = project / "pkg" / "client.py"
    # null unsets the fixture's select, which (like --select) would override the file's ignore
    client.notify("workspace/didChangeConfiguration", {"settings": {"a2alint": {"select": None}}})
    try:
        assert "AC107" not in codes(client.open(path, FINDING))
        pyproject.write_text("[tool.a2alint]\npreview = false\n")
        since = client.mark()
        client.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": pyproject.as_uri(), "type": 2}]})
        assert "AC107" in codes(client.diagnostics(path, 1, since))
    finally:
        client.notify("workspace/didChangeConfiguration", {"settings": {"a2alint": {}}})
    assert any(r["method"] == "client/registerCapability" for r in client.server_requests)


def test_a_bad_config_file_is_shown_and_defaults_apply(client: LspClient, workspace: Path):
    project = workspace / "broken"
    project.mkdir()
    (project / "a2alint.toml").write_text("select = 3\n")
    since = client.mark()
    path = project / "client.py"
    [diagnostic] = client.open(path, FINDING)["diagnostics"]
    assert diagnostic["code"] == "AC107"
    shown = client.wait_for("window/showMessage", since)
    assert shown["type"] == 1 and "a2alint.toml" in shown["message"] and "'select'" in shown["message"]
    client.notify("textDocument/didClose", {"textDocument": {"uri": path.as_uri()}})


def test_editor_settings_select_and_ignore(client: LspClient, document: Path):
    client.open(document, FINDING)
    since = client.mark()
    # (AC000 stays: a selection that leaves no rule is an error, dropped as a bad setting is)
    client.notify("workspace/didChangeConfiguration", {"settings": {"a2alint": {"select": ["AC000", "AC107"], "ignore": ["AC107"]}}})
    try:
        assert client.diagnostics(document, 1, since)["diagnostics"] == []
        since = client.mark()
        client.notify("workspace/didChangeConfiguration", {"settings": {"a2alint": {"select": ["NOPE9"]}}})
        shown = client.wait_for("window/showMessage", since, lambda p: "NOPE9" in p["message"])
        assert shown["type"] == 1 and "unknown rule selector" in shown["message"]
        published = client.diagnostics(document, 1, since)  # the bad setting is dropped, not fatal
        assert "AC107" in codes(published)
    finally:
        client.notify("workspace/didChangeConfiguration", {"settings": {"a2alint": {}}})


def test_close_clears_the_diagnostics(client: LspClient, document: Path):
    client.open(document, FINDING)
    since = client.mark()
    client.notify("textDocument/didClose", {"textDocument": {"uri": document.as_uri()}})
    assert client.diagnostics(document, None, since)["diagnostics"] == []


def test_other_files_are_not_linted(client: LspClient, workspace: Path):
    since = client.mark()
    notes = {"uri": (workspace / "notes.md").as_uri(), "languageId": "markdown", "version": 1, "text": FINDING}
    client.notify("textDocument/didOpen", {"textDocument": notes})
    client.open(workspace / "after_notes.py", FINDING)  # answered, so the markdown file came first
    assert notes["uri"] not in {p["uri"] for p in client.published(since)}


def test_shutdown_and_exit_cleanly(client: LspClient):
    assert client.close() == 0


# --- the project around a document --------------------------------------------------------


def ttl_cache_project() -> dict[str, str]:
    """AC104's two-module example: the GET in ``client.py``, the TTL cache in ``remote.py``."""
    example = next(e for e in load_rules()["AC104"].INVALID if isinstance(e, Files))
    return {name: textwrap.dedent(text) for name, text in example.files.items()}


def test_a_document_is_checked_with_its_project_and_its_dependents_follow_an_edit(tmp_path: Path):
    sources = ttl_cache_project()
    for name, text in sources.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    remote, client_module = tmp_path / "remote.py", tmp_path / "client.py"
    server = LspClient(tmp_path)
    try:
        server.initialize(tmp_path, {"debounce": DEBOUNCE, "select": ["AC104"]})
        published = server.open(remote, sources["remote.py"])["diagnostics"]
        assert [d["code"] for d in published] == ["AC104"]
        related = {item["location"]["uri"]: item for item in published[0]["relatedInformation"]}
        assert set(related) == {remote.as_uri(), client_module.as_uri()}, "the fetch is shown where it is, in client.py"
        fetch_line = next(i for i, line in enumerate(sources["client.py"].splitlines()) if ".json()" in line)
        assert related[client_module.as_uri()]["location"]["range"]["start"]["line"] == fetch_line

        server.open(client_module, sources["client.py"])
        since = server.mark()
        pinned = sources["client.py"].replace(
            'return self.http.get(f"{self.base_url}/.well-known/agent-card.json").json()',
            'return {"name": "pinned", "url": self.base_url}',
        )
        server.change(client_module, 2, pinned)
        # remote.py was not edited: its finding goes because the unsaved client.py no longer fetches
        assert server.diagnostics(remote, 1, since)["diagnostics"] == []
    finally:
        server.close()


def test_the_server_collects_garbage_after_each_lint_and_the_whole_heap_now_and_then(monkeypatch):
    """Not inside a lint (its automatic collection is off): once a lint is done, the young
    generations unless another lint still runs; every ``full_every`` lints, everything."""
    import gc

    from a2alint.server import Collector

    collected = []
    monkeypatch.setattr(gc, "collect", lambda generation=2: collected.append(generation))

    class Loop:
        def call_soon(self, callback, *args):
            callback(*args)

    collector = Collector(full_every=3)
    for busy in (False, True, False, False, True, True):
        collector.linted(Loop(), lambda busy=busy: busy)
    assert collected == [1, 2, 1, 2]  # the 2nd and 5th ran beside another lint: no young collection


def test_the_quick_fix_of_a_finding_that_rests_on_another_module_applies(tmp_path: Path):
    """(AC107's fix is unsafe, so fix-all leaves it: its quick fix is the one to apply.)"""
    digests = cross_module_project(tmp_path)  # client.py stays closed: read from disk
    server = LspClient(tmp_path)
    try:
        server.initialize(tmp_path, {"debounce": DEBOUNCE, **ONLY_AC107})
        [diagnostic] = server.open(digests, DIGESTS)["diagnostics"]
        assert diagnostic["code"] == "AC107"
        [fix] = [a for a in code_actions(server, digests, diagnostic["range"], only=["quickfix"]) if a["title"].endswith("(unsafe)")]
        fixed = apply(DIGESTS, document_edits(fix, digests.as_uri()))
        assert fixed == DIGESTS.replace("json.dumps(terms)", "json.dumps(terms, sort_keys=True)")
        assert server.change(digests, 2, fixed)["diagnostics"] == []
    finally:
        server.close()
