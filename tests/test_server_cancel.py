"""A newer edit stops the lint of an older version: its diagnostics do not wait for it."""

from __future__ import annotations

import json
import threading
import time

import pytest

pytest.importorskip("pygls")

from test_server_framing import _frame, linting_a_slow_document  # noqa: E402


def _published(stream, found: dict, arrived: threading.Event) -> None:
    """Read the server's frames; note when each version's diagnostics were published."""
    while True:
        length = None
        while (header := stream.readline()) not in (b"\r\n", b""):
            if header.lower().startswith(b"content-length:"):
                length = int(header.split(b":")[1])
        if not header or length is None:
            return
        message = json.loads(stream.read(length))
        if message.get("method") == "textDocument/publishDiagnostics":
            found[message["params"].get("version")] = time.monotonic()
            arrived.set()


def test_an_edit_stops_the_lint_of_the_version_before(tmp_path):
    server, uri, _ = linting_a_slow_document(tmp_path)
    found: dict = {}
    arrived = threading.Event()
    threading.Thread(target=_published, args=(server.stdout, found, arrived), daemon=True).start()
    try:
        small = "import a2a\n\ndef f(card):\n    return hash(card.model_dump_json())\n"
        changed = {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": small}]}
        sent = time.monotonic()
        server.stdin.write(_frame({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": changed}))
        server.stdin.flush()
        deadline = sent + 60
        while 2 not in found and time.monotonic() < deadline:
            arrived.wait(0.5)
            arrived.clear()
        assert 2 in found, "version 2 was never published"
        assert found[2] - sent < 4, f"{found[2] - sent:.1f} s: the old lint ran to its end first"
        assert 1 not in found  # the stopped lint publishes nothing
    finally:
        server.kill()
        server.wait()
