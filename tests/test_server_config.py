"""The language server and config files it cannot read: the document is linted with
the defaults and the problem is shown, as for any bad config file."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pygls.lsp.server", reason="the lsp extra (pygls 2) is not installed")

# the server test's own client and workspace: one server, started for this module
from test_server import FINDING, LspClient, client, workspace  # noqa: E402, F401


@pytest.mark.parametrize(
    "name, data",
    [
        ("pyproject.toml", ('[tool.a2alint]\nignore = ["AC107"]\nx = ' + "[" * 5000 + "]" * 5000).encode()),  # (in a2alint's own table)
        ("pyproject.toml", '[tool]\na2alint = { ignore = ["AC107"] }\nname = "caf\xe9"\n'.encode("latin-1")),
        ("a2alint.toml", ("x = " + "{ a = " * 5000 + "1" + " }" * 5000).encode()),
    ],
    ids=["nested-pyproject", "latin-1-pyproject", "nested-a2alint-toml"],
)
def test_a_config_file_that_is_not_toml_is_shown_and_defaults_apply(client: LspClient, workspace: Path, name, data):
    project = workspace / f"{name}-{len(data)}"
    project.mkdir()
    (project / name).write_bytes(data)
    since = client.mark()
    path = project / "client.py"
    [diagnostic] = client.open(path, FINDING)["diagnostics"]
    assert diagnostic["code"] == "AC107"
    shown = client.wait_for("window/showMessage", since)
    assert shown["type"] == 1 and str(project / name) in shown["message"]
    client.notify("textDocument/didClose", {"textDocument": {"uri": path.as_uri()}})
    assert "Traceback" not in client.errors() and "RecursionError" not in client.errors()
