"""A run over a big project holds the trees of the modules it is checking, not of every
module it checked (issue 28): a checked module keeps its facts only, and what is reported
stays the same."""

from __future__ import annotations

import gc
import pickle
from pathlib import Path

import libcst as cst
import pytest

from a2alint import runner
from a2alint.config import Settings
from a2alint.model import build_model
from a2alint.registry import load_rules

ROOT = Path(__file__).parent
PROJECTS = sorted(p for p in (ROOT / "corpus" / "projects").iterdir() if p.is_dir() and p.name.startswith("bad_"))


def _nodes_reachable(start) -> int:
    seen, stack, nodes = set(), [start], 0
    while stack:
        item = stack.pop()
        if id(item) in seen or isinstance(item, (str, bytes, int, float, type)):
            continue
        seen.add(id(item))
        if isinstance(item, cst.CSTNode):
            nodes += 1
            continue
        stack.extend(gc.get_referents(item))
    return nodes


@pytest.mark.parametrize("source", sorted((ROOT / "corpus").glob("bad_*.py"))[:12], ids=lambda p: p.name)
def test_a_module_that_keeps_its_facts_is_what_the_cache_keeps_and_holds_no_node(source):
    model = build_model(cst.parse_module(source.read_text(encoding="utf-8")), source.name)
    cached = pickle.dumps(model)
    assert _nodes_reachable(model) > 0
    model.keep_facts()
    assert pickle.dumps(model) == cached
    assert _nodes_reachable(model) == 0


def _check(project: Path, monkeypatch, at_once: int):
    runs = []
    init = runner.ProjectRun.__init__

    def keeping(self, *args, **kwargs):
        init(self, *args, **kwargs)
        runs.append(self)

    monkeypatch.setattr(runner.ProjectRun, "__init__", keeping)
    monkeypatch.setattr(runner, "PREPARED_AT_ONCE", at_once)
    settings = Settings(root=project)
    work = [(str(p.relative_to(project)), p, settings) for p in sorted(project.rglob("*.py"))]
    results = runner.check_files(runner.Linter(load_rules()), work, jobs=1)
    return [(r.display, r.diagnostics) for r in results], runs[0]


@pytest.mark.parametrize("project", PROJECTS, ids=lambda p: p.name)
def test_a_project_checked_a_module_at_a_time_reports_what_a_whole_batch_reports(project, monkeypatch):
    """The notes that point into a module already checked place it by parsing it again."""
    alone, run = _check(project, monkeypatch, 1)
    together, _ = _check(project, monkeypatch, 10**6)
    assert alone == together
    assert all(p.model is None or p.model.module is None for p in run.prepared.values())

