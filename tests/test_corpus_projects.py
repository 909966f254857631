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
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_rule_examples import expected

from a2alint.cli import main

PROJECTS = Path(__file__).parent / "corpus" / "projects"
DIRS = sorted(p for p in PROJECTS.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))


def check(project: Path, *args: str) -> dict:
    """``a2alint check .`` in ``project`` (no cache, no config), as JSON."""
    runner = CliRunner()
    import os

    here = os.getcwd()
    os.chdir(project)
    try:
        result = runner.invoke(main, ["check", "--no-cache", "--isolated", "--format", "json", *args, "."])
    finally:
        os.chdir(here)
    assert result.exit_code in (0, 1), result.output + result.stderr
    return json.loads(result.stdout)


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
