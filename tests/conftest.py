"""Shared fixtures for the engine tests: a project folder, the command in-process and installed.

Most tests drive ``a2alint`` in-process through click's runner (fast); the ones that
need a real process (a terminal, ``python -m``, a traceback check, pre-commit) run the
installed ``a2alint`` executable that sits next to ``sys.executable``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import libcst as cst
import pytest
from click.testing import CliRunner

import a2alint.cli as cli_module
from a2alint.cli import main
from a2alint.fixes import write_atomically
from a2alint.registry import load_rules
from a2alint.rule import Replace, Rule

#: One AC107 finding with an unsafe fix (``json.dumps`` without ``sort_keys=True`` feeding a
#: hash: adding it changes the digest's value), applied with ``--fix --unsafe-fixes``.
FIXABLE = textwrap.dedent(
    """\
    import hashlib, json
    from a2a.client import A2ACardResolver
    async def digest(resolver):
        card = await resolver.get_agent_card()
        contract = {"protocolVersion": card.protocol_version}
        return hashlib.sha256(json.dumps(contract).encode()).hexdigest()
    """
)
#: FIXABLE after its fix.
FIXED = FIXABLE.replace("json.dumps(contract)", "json.dumps(contract, sort_keys=True)")
#: Where FIXABLE's finding is (1-based line and column of the ``json.dumps`` call).
FIXABLE_AT = (6, 27)
#: One AC107 finding without a fix (the built-in, salted ``hash()``).
UNFIXABLE = "import a2a\ndef f(card): return hash(card.model_dump_json())\n"
#: A2A client code with nothing to report.
CLEAN = "import a2a\n\nx = 1\n"

#: ``digests.py`` alone is no A2A code: its hash is of card data only because ``client.py``
#: hands it a card's fields (AC107 at line 6, with a safe fix:
#: ``sort_keys=True``).
DIGESTS = '''\
import hashlib
import json


def contract_digest(terms):
    return hashlib.sha256(json.dumps(terms).encode()).hexdigest()
'''
CLIENT = '''\
import httpx
from a2a.client import A2ACardResolver

from digests import contract_digest


async def pin(base_url):
    async with httpx.AsyncClient() as http:
        card = await A2ACardResolver(http, base_url).get_agent_card()
    return contract_digest({"protocolVersion": card.protocol_version, "security": card.security})
'''


def cross_module_project(folder: Path) -> Path:
    """``client.py`` and ``digests.py`` in ``folder``; the path of ``digests.py``, where the finding is."""
    write(folder / "client.py", CLIENT)
    return write(folder / "digests.py", DIGESTS)


INSTALLED = Path(sys.executable).with_name("a2alint")


@dataclass
class Run:
    exit_code: int
    stdout: str
    stderr: str
    stdout_bytes: bytes = b""

    def json(self):
        return json.loads(self.stdout)

    def codes(self) -> list[str]:
        return [d["code"] for d in self.json()["diagnostics"]]

    def paths(self, code: str = "AC107") -> list[str]:
        """The paths ``code`` is reported in (other rules' findings left aside)."""
        return [d["path"] for d in self.json()["diagnostics"] if d["code"] == code]


def write(path: Path, text: str | bytes = FIXABLE) -> Path:
    """Write ``text`` to ``path`` (making its folders); the path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(autouse=True, scope="session")
def _cache_key_home(tmp_path_factory: pytest.TempPathFactory):
    """The caches' signing key goes to the user's cache folder: a folder of the test run's."""
    previous = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("user-cache"))
    yield
    if previous is None:
        os.environ.pop("XDG_CACHE_HOME", None)
    else:
        os.environ["XDG_CACHE_HOME"] = previous


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty folder that is the current directory."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    return tmp_path


@pytest.fixture
def a2alint(project: Path):
    """``a2alint(*args, input=None)``: the command run in-process in ``project``."""

    def run(*args: str, input: str | bytes | None = None) -> Run:
        result = CliRunner().invoke(main, list(args), input=input, catch_exceptions=True)
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception  # an internal crash must fail the test with its traceback
        return Run(result.exit_code, result.stdout, result.stderr, result.stdout_bytes)

    return run


@pytest.fixture
def check(a2alint):
    """``check(*args)``: ``a2alint check *args``."""
    return lambda *args, **kwargs: a2alint("check", *args, **kwargs)


def run_installed(*args: str, cwd: Path, input: bytes | None = None, env: dict | None = None, **kwargs) -> Run:
    """Run the installed ``a2alint`` executable (or, with ``args[0] == '-m'``, ``python -m``)."""
    command = [sys.executable, *args] if args and args[0] == "-m" else [str(INSTALLED), *args]
    environment = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    environment.update(env or {})
    streams = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, **kwargs}
    done = subprocess.run(command, cwd=cwd, input=input, env=environment, timeout=120, **streams)
    return Run(done.returncode, (done.stdout or b"").decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace"))


@pytest.fixture
def edited_meanwhile(monkeypatch: pytest.MonkeyPatch):
    """``edited_meanwhile(text)``: each file the command writes is changed to ``text`` just
    before it is written, as by an editor saving while a2alint runs."""

    def arm(text: str) -> None:
        real = write_atomically

        def edit_first(target, *arguments):
            target.write_text(text)
            return real(target, *arguments)

        monkeypatch.setattr("a2alint.fixes.write_atomically", edit_first)  # the command imports it when it writes

    return arm


# --- a test-only plug-in rule --------------------------------------------------------------


class PrintIsPreview(Rule):
    """Flags every call of ``print`` (a test-only preview rule with an unsafe fix)."""

    code = "AC990"
    name = "print-is-preview"
    severity = "warning"
    preview = True
    requires_a2a = False
    #: The name its fix calls instead.
    replacement = "log"

    def check(self, model) -> None:
        rule = self

        class Visitor(cst.CSTVisitor):
            def visit_Call(self, node: cst.Call) -> None:
                if isinstance(node.func, cst.Name) and node.func.value == "print":
                    fix = Replace(node.func, cst.Name(rule.replacement), "unsafe", "call log instead")
                    rule.report(node, "print called", suggestion="call log", fix=fix)

        model.module.visit(Visitor())


class Crashes(Rule):
    """Raises on every file (a test-only rule that runs only when selected by its code)."""

    code = "AC991"
    name = "crashes"
    opt_in = True
    requires_a2a = False

    def check(self, model) -> None:
        raise RuntimeError("boom")


@pytest.fixture
def plugin_rule(monkeypatch: pytest.MonkeyPatch) -> type[Rule]:
    """Register :class:`PrintIsPreview` and :class:`Crashes` next to the real rules for
    in-process runs; the preview rule."""
    registry = {**load_rules(), PrintIsPreview.code: PrintIsPreview, Crashes.code: Crashes}
    monkeypatch.setattr(cli_module, "load_rules", lambda: registry)
    monkeypatch.setattr(cli_module, "rule_pages", lambda: registry)  # ``a2alint rule`` shows classes too
    return PrintIsPreview
