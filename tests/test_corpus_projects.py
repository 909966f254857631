"""Whole multi-module A2A client projects, each checked as a project.

``tests/corpus/projects/`` holds small programs (2 to 5 modules that import each other)
written in styles unlike the single-file corpus: other names (cards in ``meta`` and
``profile``, records in ``row`` and ``job``), dict cards over raw JSON-RPC, classes and
plain functions, sync and async, flat, package and ``src/`` layouts. The fetch, the
cache, the send, the cancel and the contract helper sit in different modules, so a
finding rests on what another module does. Every ``bad_<topic>`` project has an
``ok_<topic>`` twin (the same program, corrected) that must stay silent. Each expected
finding is marked ``# expect: CODE[, CODE]`` on the line where it starts.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_rule_examples import expected

import a2alint.runner as runner_module
from a2alint.cache import Cache
from a2alint.cli import main

PROJECTS = Path(__file__).parent / "corpus" / "projects"
DIRS = sorted(p for p in PROJECTS.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))


def run(project: Path, *args: str, stdin: bytes | None = None):
    """``a2alint ARGS`` in ``project``: the click result."""
    here = os.getcwd()
    os.chdir(project)
    try:
        result = CliRunner().invoke(main, list(args), input=stdin)
    finally:
        os.chdir(here)
    assert result.exit_code in (0, 1), result.output + result.stderr
    return result


def check(project: Path, *args: str) -> dict:
    """``a2alint check .`` in ``project`` (no cache, no config), as JSON."""
    return json.loads(run(project, "check", "--no-cache", "--isolated", "--format", "json", *args, ".").stdout)


def marked(project: Path) -> list[tuple[str, int, str]]:
    found = []
    for path in sorted(project.rglob("*.py")):
        relative = path.relative_to(project).as_posix()
        found += [(relative, line, code) for line, code in expected(path.read_text(encoding="utf-8"))]
    return sorted(found)


@pytest.mark.parametrize("project", DIRS, ids=[p.name for p in DIRS])
def test_reports_exactly_the_marked_findings(project: Path):
    report = check(project)
    found = sorted((d["path"], d["line"], d["code"]) for d in report["diagnostics"])
    assert found == marked(project), [f"{d['path']}:{d['line']} {d['code']} {d['message']}" for d in report["diagnostics"]]


@pytest.mark.parametrize("project", DIRS, ids=[p.name for p in DIRS])
def test_every_finding_says_how_to_fix_it_and_where_it_rests(project: Path):
    for diagnostic in check(project)["diagnostics"]:
        assert diagnostic["message"] and diagnostic["suggestion"], f"{diagnostic['code']} at {diagnostic['path']}:{diagnostic['line']}"
        for note in diagnostic["related"]:
            assert (project / note["path"]).is_file() and note["line"] >= 1, note


def test_the_projects_are_what_they_claim():
    names = {p.name for p in DIRS}
    assert len(DIRS) >= 12
    for project in DIRS:
        modules = sorted(project.rglob("*.py"))
        assert 2 <= len([m for m in modules if m.name != "__init__.py"]) <= 5, project.name
        codes = {code for _, _, code in marked(project)}
        assert "AC108" not in codes, f"{project.name}: AC108 is a preview rule, off by default"
        assert bool(codes) == project.name.startswith("bad_"), f"{project.name}: only bad_ projects carry findings"
        if project.name.startswith("bad_"):
            assert f"ok_{project.name[4:]}" in names, f"{project.name} has no ok_ twin"
        imports_another = any(
            other.stem in text or other.parent.name in text
            for module in modules
            for text in [module.read_text(encoding="utf-8")]
            for other in modules
            if other != module and other.name != "__init__.py"
        )
        assert imports_another, f"{project.name}: its modules do not import each other"


# --- one file of a project, named on its own ------------------------------------------------

TTL = "bad_ttl_card_cache"  # the TTL cache in remote.py, the card GET in client.py
REMOTE, CLIENT = "src/quotebot/remote.py", "src/quotebot/client.py"


@pytest.fixture
def ttl_project(tmp_path: Path) -> Path:
    """A copy of the TTL project in a git work tree of its own (its project root)."""
    project = tmp_path / TTL
    shutil.copytree(PROJECTS / TTL, project)
    (project / ".git").mkdir()
    return project


def ttl_finding(report: dict) -> dict:
    [diagnostic] = [d for d in report["diagnostics"] if d["code"] == "AC104"]
    assert diagnostic["path"] == REMOTE
    return diagnostic


def test_a_file_named_alone_is_checked_with_the_rest_of_its_project(ttl_project: Path):
    """pre-commit passes only the changed files: the fetch in client.py still counts (and
    the modules whose findings rest on remote.py are reported too, unless --only-named)."""
    report = json.loads(run(ttl_project, "check", "--no-cache", "--format", "json", "--only-named", REMOTE).stdout)
    assert report["files"] == 1
    assert CLIENT in [note["path"] for note in ttl_finding(report)["related"]]
    assert json.loads(run(ttl_project, "check", "--no-cache", "--format", "json", REMOTE).stdout)["files"] > 1


def test_a_buffer_piped_in_is_checked_with_the_rest_of_its_project(ttl_project: Path):
    data = (ttl_project / REMOTE).read_bytes()
    result = run(ttl_project, "check", "--no-cache", "--format", "json", "--stdin-filename", REMOTE, "-", stdin=data)
    assert CLIENT in [note["path"] for note in ttl_finding(json.loads(result.stdout))["related"]]


def test_with_a_warm_cache_the_rest_of_the_project_comes_from_it(ttl_project: Path, monkeypatch):
    run(ttl_project, "check", "--format", "json", ".")  # fills the cache
    (ttl_project / REMOTE).write_text((ttl_project / REMOTE).read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    parsed, cached = [], []
    prepare, get_facts = runner_module.Linter.prepare, Cache.get_facts

    def counting_prepare(self, data, display, *args, **kwargs):
        parsed.append(display)
        return prepare(self, data, display, *args, **kwargs)

    def counting_get_facts(self, key):
        found = get_facts(self, key)
        cached.append(found is not None)
        return found

    monkeypatch.setattr(runner_module.Linter, "prepare", counting_prepare)
    monkeypatch.setattr(Cache, "get_facts", counting_get_facts)
    report = json.loads(run(ttl_project, "check", "--format", "json", "--only-named", REMOTE).stdout)
    assert CLIENT in [note["path"] for note in ttl_finding(report)["related"]]
    assert any(cached), "client.py's facts are read from the cache"
    # the edited file is parsed, and client.py only to place the note that points into it
    assert sorted(parsed) == sorted([REMOTE, CLIENT]), parsed


def test_evidence_in_another_module_names_that_module_in_every_format(ttl_project: Path):
    report = json.loads(run(ttl_project, "check", "--no-cache", "--format", "json", ".").stdout)
    finding = ttl_finding(report)
    [elsewhere] = [note for note in finding["related"] if note["path"] == CLIENT]
    line = elsewhere["line"]
    assert "get(" in (ttl_project / CLIENT).read_text(encoding="utf-8").splitlines()[line - 1]

    text = run(ttl_project, "check", "--no-cache", ".").stdout
    assert f"  note: {CLIENT}:{line}:{elsewhere['column']}: {elsewhere['label']}" in text

    github = run(ttl_project, "check", "--no-cache", "--format", "github", ".").stdout
    assert f"note: {CLIENT}:{line}: " in github

    sarif = json.loads(run(ttl_project, "check", "--no-cache", "--format", "sarif", ".").stdout)
    [result] = [r for r in sarif["runs"][0]["results"] if r["ruleId"] == "AC104"]
    locations = {
        (loc["physicalLocation"]["artifactLocation"]["uri"], loc["physicalLocation"]["region"]["startLine"])
        for loc in result["relatedLocations"]
    }
    assert (CLIENT, line) in locations
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == REMOTE
