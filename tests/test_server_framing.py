"""The language server reads only well-framed messages: a hostile or broken client's
framing ends the server with the reason logged, never a MemoryError or a deaf process."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

pytest.importorskip("pygls")


def _server(stdin: bytes) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "a2alint", "server"], input=stdin, capture_output=True, timeout=60
    )


def _frame(message: dict) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


INITIALIZE = _frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}})


@pytest.mark.parametrize(
    "header, reason",
    [
        (b"Content-Length: 999999999999\r\n\r\n", "a Content-Length of 999999999999"),
        (b"Content-Length: -5\r\n\r\n", "a Content-Length that is not a length"),
        (b"Content-Length: lots\r\n\r\n", "a Content-Length that is not a length"),
        (b"Content-Type: application/vscode-jsonrpc\r\n\r\n{}", "a message without a Content-Length"),
        (b"{\"jsonrpc\": \"2.0\"}\r\n", "a header line that is not one"),
    ],
)
def test_a_badly_framed_message_stops_the_server_with_the_reason(header, reason):
    done = _server(INITIALIZE + header + INITIALIZE)
    stderr = done.stderr.decode(errors="replace")
    assert reason in stderr and "Traceback" not in stderr and "MemoryError" not in stderr
    assert done.returncode == 1  # no shutdown request came: LSP's exit code for that
    assert done.stdout.count(b'"id": 1') + done.stdout.count(b'"id":1') == 1  # the first message was answered


def test_well_framed_messages_with_other_headers_are_read():
    content_type = b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n"
    shutdown = _frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
    exit_ = _frame({"jsonrpc": "2.0", "method": "exit"})
    done = _server(content_type + INITIALIZE + shutdown + exit_)
    assert done.returncode == 0, done.stderr
    assert b"capabilities" in done.stdout


def linting_a_slow_document(folder):
    """A server process with a document open whose lint takes seconds (about 8 here), and
    that lint running: ``(process, the document's URI, its text)``."""
    from a2alint.rules.ac002_too_complex import helpers_calling_helpers

    document = folder / "slow.py"
    text = helpers_calling_helpers(160, 40)
    document.write_text(text, encoding="utf-8")
    server = subprocess.Popen(
        [sys.executable, "-m", "a2alint", "server"], cwd=folder, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    opened = {"textDocument": {"uri": document.as_uri(), "languageId": "python", "version": 1, "text": text}}
    server.stdin.write(INITIALIZE + _frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
    server.stdin.write(_frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": opened}))
    server.stdin.flush()
    time.sleep(1.5)  # the lint is running
    return server, document.as_uri(), text


def test_exit_during_a_slow_lint_leaves_at_once(tmp_path):
    """An ordinary interpreter exit waited for the lint thread (19-23 s on a slow document)."""
    server, _, _ = linting_a_slow_document(tmp_path)
    started = time.monotonic()
    server.stdin.write(_frame({"jsonrpc": "2.0", "method": "exit"}))
    server.stdin.flush()
    server.wait(timeout=60)
    assert time.monotonic() - started < 3


def test_a_message_over_the_limit_is_refused_and_the_server_goes_on(tmp_path):
    """A well-framed message larger than ``MAX_MESSAGE_BYTES`` is read past (never held),
    said, and its document left unchecked; a request of that size is answered with an
    error; the messages after it are served."""
    from a2alint.server import MAX_MESSAGE_BYTES

    uri = (tmp_path / "peer.py").as_uri()
    opened = {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": "import a2a\n"}}
    huge = "x" * (MAX_MESSAGE_BYTES + 10)
    change = {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": huge}]}
    hover = {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}
    stdin = b"".join([
        _frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}, "rootUri": tmp_path.as_uri()}}),
        _frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
        _frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": opened}),
        _frame({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": change}),
        _frame({"jsonrpc": "2.0", "id": 6, "method": "textDocument/hover", "params": {**hover, "padding": huge}}),
        _frame({"jsonrpc": "2.0", "id": 7, "method": "textDocument/hover", "params": hover}),
        _frame({"jsonrpc": "2.0", "id": 8, "method": "shutdown"}),
        _frame({"jsonrpc": "2.0", "method": "exit"}),
    ])
    done = _server(stdin)
    stderr = done.stderr.decode(errors="replace")
    assert done.returncode == 0, stderr[-2000:]
    assert "refused textDocument/didChange of" in stderr and f"{uri} is not checked until it is opened again" in stderr
    answers = {}
    for line in done.stdout.split(b"\r\n\r\n")[1:]:
        message = json.loads(line.split(b"Content-Length")[0])
        answers[message.get("id")] = message
    assert "error" in answers[6] and "refused textDocument/hover" in answers[6]["error"]["message"]
    assert "result" in answers[7] and "result" in answers[8]


def _answer(stream, wanted_id: int) -> dict:
    """Read messages from the server's ``stream`` until the answer to ``wanted_id``."""
    while True:
        length = None
        while True:
            line = stream.readline()
            if not line:
                raise EOFError("the server closed its output")
            if line == b"\r\n":
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        message = json.loads(stream.read(length))
        if message.get("id") == wanted_id and "method" not in message:
            return message


def test_a_hover_during_a_slow_lint_is_answered_from_the_findings_shown(tmp_path):
    """Hover needs only what the editor shows (the last published findings): it waited for
    the lint of the document's newer text (600 s in one run)."""
    from conftest import UNFIXABLE

    server, uri, text = linting_a_slow_document(tmp_path)
    try:
        fast = (tmp_path / "fast.py").as_uri()
        opened = {"textDocument": {"uri": fast, "languageId": "python", "version": 1, "text": UNFIXABLE}}
        server.stdin.write(_frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": opened}))
        server.stdin.flush()
        deadline = time.monotonic() + 120
        hover = {"textDocument": {"uri": fast}, "position": {"line": 1, "character": 25}}
        answer = None
        while time.monotonic() < deadline:  # until fast.py's findings are published (after slow.py's lint)
            request_id = int(time.monotonic() * 1000)
            server.stdin.write(_frame({"jsonrpc": "2.0", "id": request_id, "method": "textDocument/hover", "params": hover}))
            server.stdin.flush()
            answer = _answer(server.stdout, request_id)
            if answer.get("result"):
                break
            time.sleep(0.2)
        assert answer and answer.get("result"), "fast.py was never linted"
        change = {"textDocument": {"uri": fast, "version": 2}, "contentChanges": [{"text": text}]}  # now slow to lint
        server.stdin.write(_frame({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": change}))
        started = time.monotonic()
        server.stdin.write(_frame({"jsonrpc": "2.0", "id": 99, "method": "textDocument/hover", "params": hover}))
        server.stdin.flush()
        answered = _answer(server.stdout, 99)
        assert time.monotonic() - started < 2
        assert "AC107" in answered["result"]["contents"]["value"]
    finally:
        server.kill()
