"""The project index read from files' bytes: import statements, what they resolve to, real
paths, and which files are checked as part of the A2A code."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from a2alint.config import Settings
from a2alint.paths import _RESOLVED, _resolved
from a2alint.project import _IMPORT, ModuleIndex, _import_statements, import_statements
from a2alint.registry import load_rules
from a2alint.runner import Linter, ProjectRun

TRICKY = [
    b"import os\nfrom . import (a,\n    b)\nx = 'import y'\n",
    b"from .pkg import thing  # import other\nimport a.b as c, d\n",
    b"if x:\n    from .lazy import f; import g\n\tfrom tabbed import h\n",
    b"def important():\n    return imported\nfrom_ = 1\nimport\n",
    b"s = '''\nimport inside_a_string\n'''\nfrom x import (\n  y,\n  import_z,\n)\n",
    b"",
    b"import",
    b"\r\nfrom a import b\r\nimport c\r\n",
]


@pytest.mark.parametrize("data", TRICKY)
def test_import_statements_are_the_ones_the_pattern_finds(data):
    assert [m.span() for m in _import_statements(data)] == [m.span() for m in _IMPORT.finditer(data)]


def test_import_statements_of_real_modules_are_the_ones_the_pattern_finds():
    sources = Path(__file__).resolve().parents[1].glob("*/*.py")
    for path in sources:
        data = path.read_bytes()
        assert [m.span() for m in _import_statements(data)] == [m.span() for m in _IMPORT.finditer(data)], path


def test_one_statement_resolves_per_folder(tmp_path):
    """The files of one folder share an answer; another folder's same text means its own module."""
    files = {
        "pkg/__init__.py": "from .a import x\n",
        "pkg/a.py": "x = 1\n",
        "pkg/b.py": "from .a import x\n",
        "pkg/sub/__init__.py": "",
        "pkg/sub/a.py": "x = 2\n",
        "pkg/sub/c.py": "from .a import x\nfrom .. import a\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    index = ModuleIndex(tmp_path, [tmp_path / name for name in files])
    root = tmp_path.resolve()

    def imports(name: str) -> set[str]:
        entry = index.entry(root / name)
        return {str(p.relative_to(root)) for p in index.imports_of(import_statements((root / name).read_bytes()), entry)}

    assert imports("pkg/__init__.py") == {"pkg/a.py"}
    assert imports("pkg/b.py") == {"pkg/a.py"}
    assert imports("pkg/sub/c.py") == {"pkg/sub/a.py", "pkg/a.py"}


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symbolic links")
def test_real_paths_are_what_resolve_gives(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "f.py").write_text("")
    os.symlink(tmp_path / "real", tmp_path / "link")
    os.symlink(tmp_path / "real" / "f.py", tmp_path / "real" / "g.py")
    os.symlink(tmp_path / "nowhere", tmp_path / "dangling")
    for path in [
        tmp_path / "link" / "f.py",
        tmp_path / "real" / "g.py",
        tmp_path / "link" / "g.py",
        tmp_path / "missing" / "x.py",
        tmp_path / "link" / "missing.py",
        tmp_path / "real" / ".." / "link" / "f.py",
        tmp_path / "missing" / ".." / "link" / "f.py",  # resolve takes the link after the missing folder's ..
        tmp_path.joinpath(*["deep"] * 1200, "x.py"),  # more parts than a recursion may walk
        tmp_path / "dangling",
        tmp_path / "dangling" / "x.py",
        Path(tmp_path.anchor),
    ]:
        _RESOLVED.clear()
        assert _resolved(path) == path.resolve(), path


def test_a_run_on_a2a_files_reads_no_other_files_words(tmp_path):
    """pre-commit on A2A files: whether their neighbours are checked is never asked, so
    the words of the rest of the project are not scanned."""
    (tmp_path / "client.py").write_text("from a2a.client import A2ACardResolver\nfrom helpers import tidy\n")
    (tmp_path / "helpers.py").write_text("def tidy(x):\n    return x\n")
    (tmp_path / "caller.py").write_text("from client import A2ACardResolver\n")
    settings = Settings(root=tmp_path)
    files = [("client.py", tmp_path / "client.py", settings)]
    context = [(n, tmp_path / n, settings) for n in ("helpers.py", "caller.py")]
    run = ProjectRun(Linter(load_rules()), files, context)
    assert run.settled(0) is None  # checked, as A2A code
    assert not [key for key in run.scans._found if key[0] == "words"]
    # asked of the others, the answer is the one the names give
    assert not run.checks((tmp_path / "helpers.py").resolve())  # imported, names nothing of the A2A code
    assert not run.checks((tmp_path / "caller.py").resolve())  # imports only the SDK's name


def test_a_dotted_file_name_has_a_package_of_its_own(tmp_path):
    """``pkg/conf.local.py`` counts its relative imports from ``pkg.conf``; its sibling
    ``pkg/b.py`` from ``pkg``: the same text in one folder, two answers, in either order."""
    files = {"pkg/__init__.py": "", "pkg/a.py": "", "pkg/b.py": "from . import a\n", "pkg/conf.local.py": "from . import a\n"}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    root = tmp_path.resolve()
    for order in (["pkg/b.py", "pkg/conf.local.py"], ["pkg/conf.local.py", "pkg/b.py"]):
        index = ModuleIndex(tmp_path, [tmp_path / name for name in files])
        answers = {}
        for name in order:
            found = index.imports_of(import_statements((root / name).read_bytes()), index.entry(root / name))
            answers[name] = {str(p.relative_to(root)) for p in found}
        assert answers["pkg/b.py"] == {"pkg/a.py"}, order
        assert answers["pkg/conf.local.py"] != {"pkg/a.py"}, order  # `pkg.conf` has no module `a`


def test_a_module_that_reads_a_constant_of_the_a2a_code_is_checked_with_it(tmp_path):
    """A card path, a TTL, a cache dict kept in an A2A module and imported elsewhere carry
    A2A values there: the importer is checked as A2A code (one that names none is not)."""
    (tmp_path / "endpoints.py").write_text(
        'CARD_PATH = "/.well-known/agent-card.json"\nTIMEOUT: float = 10.0\n_seen = {}\n\n\ndef card_url(base):\n    return base + CARD_PATH\n'
    )
    (tmp_path / "poller.py").write_text("import httpx\nfrom endpoints import CARD_PATH\n\n\ndef card(base):\n    return httpx.get(base + CARD_PATH).json()\n")
    (tmp_path / "cache.py").write_text("from endpoints import _seen\n\n\ndef forget():\n    _seen.clear()\n")
    (tmp_path / "report.py").write_text("import endpoints\n\n\ndef lines(rows):\n    return [str(r) for r in rows]\n")
    settings = Settings(root=tmp_path)
    names = ("endpoints.py", "poller.py", "cache.py", "report.py")
    run = ProjectRun(Linter(load_rules()), [(n, tmp_path / n, settings) for n in names])
    assert run.checks((tmp_path / "poller.py").resolve())
    assert run.checks((tmp_path / "cache.py").resolve())
    assert not run.checks((tmp_path / "report.py").resolve())  # imports it, names nothing of it


def test_a_module_that_imports_the_a2a_code_through_a_facade_is_checked_with_it(tmp_path):
    """``from service.peers import lookup`` where ``service/peers.py`` only imports it from
    the A2A module: the name is the A2A module's, as through a package's ``__init__``."""
    (tmp_path / "service").mkdir()
    (tmp_path / "service" / "__init__.py").write_text("")
    (tmp_path / "service" / "discovery.py").write_text(
        "import requests\n\n\ndef lookup(base):\n    return requests.get(base + '/.well-known/agent.json').json()\n"
    )
    (tmp_path / "service" / "peers.py").write_text("from service.discovery import lookup\n\nTIMEOUT = 5\n")
    (tmp_path / "handler.py").write_text("from service.peers import lookup\n\n\ndef name_of(base):\n    return lookup(base)['name']\n")
    (tmp_path / "settings_view.py").write_text("from service.peers import TIMEOUT\n\n\ndef show():\n    return TIMEOUT\n")
    settings = Settings(root=tmp_path)
    names = ("service/__init__.py", "service/discovery.py", "service/peers.py", "handler.py", "settings_view.py")
    run = ProjectRun(Linter(load_rules()), [(n, tmp_path / n, settings) for n in names])
    assert run.checks((tmp_path / "handler.py").resolve())
    assert not run.checks((tmp_path / "settings_view.py").resolve())  # names only the facade's own constant
