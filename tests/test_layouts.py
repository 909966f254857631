"""A check finds the same things wherever in a repository it is started.

``tests/layouts/`` holds small repositories laid out as real ones are: a uv workspace
(``lib/<pkg>/src/<pkg>`` beside ``services/<svc>/src/<svc>``), Poetry path
dependencies (``libs/<pkg>/<pkg>``, ``apps/<app>/<app>``), a ``packages/`` folder of
packages, samples each run from their own folder, a ``src/`` namespace package with
scripts beside it, a service folder without ``__init__.py`` reached by absolute and
relative imports, a root only the config's ``src`` names, and components nested as
``<group>/<component>/py/<package>`` whose packages import each other (a helper's caller
reaching it through a package ``__init__``). In each, a finding rests on what a module
of another package or folder is; each expected finding is marked ``# expect: CODE``
where it starts. Each is copied into a repository (``.git``), and those with a top
``pyproject.toml`` also outside any, and checked from its root, from a package's root
and from a folder below, both in that folder and from the root naming it: every start
reports exactly the marked findings of the files below it.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from test_corpus_projects import run
from test_rule_examples import expected

LAYOUTS = Path(__file__).parent / "layouts"

#: Where a check of each layout is started: the repository root, then deeper.
STARTS = {
    "uv_workspace": [".", "services/intake", "services/intake/src/intake", "lib/relaykit/src"],
    "poetry_libs": [".", "apps/courier", "apps/courier/courier", "libs/cardshop"],
    "packages_dir": [".", "packages", "packages/billing"],
    "samples": [".", "samples", "samples/travel_desk", "samples/travel_desk/app", "samples/weather_bot"],
    "src_namespace": [".", "src", "src/shipments", "scripts"],
    "pep420_service": [".", "services", "services/claims", "services/claims/adjudicate"],
    "declared_src": [".", "backend", "backend/handlers", "platform_code"],
    "nested_packages": [".", "components/agentlink", "components/agentlink/py/agentlink", "apps/settlement/py"],
}


def test_every_layout_is_started_from_several_folders():
    assert sorted(STARTS) == sorted(p.name for p in LAYOUTS.iterdir() if p.is_dir())
    for layout, starts in STARTS.items():
        assert all((LAYOUTS / layout / start).is_dir() for start in starts), layout
        assert any(expected(p.read_text(encoding="utf-8")) for p in (LAYOUTS / layout).rglob("*.py")), layout


#: A workspace with no git work tree around it is one project by its top ``pyproject.toml``.
UNVERSIONED = [layout for layout in sorted(STARTS) if (LAYOUTS / layout / "pyproject.toml").is_file()]


@pytest.mark.parametrize(
    "layout, versioned",
    [*((layout, True) for layout in sorted(STARTS)), *((layout, False) for layout in UNVERSIONED)],
)
def test_a_check_reports_the_same_findings_from_every_start(layout: str, versioned: bool, tmp_path: Path):
    repository = tmp_path / layout
    shutil.copytree(LAYOUTS / layout, repository)
    if versioned:
        (repository / ".git").mkdir()
    repository = repository.resolve()
    marked = {
        (path, line, code)
        for path in repository.rglob("*.py")
        for line, code in expected(path.read_text(encoding="utf-8"))
    }
    for start in STARTS[layout]:
        folder = repository / start
        below = {finding for finding in marked if folder in finding[0].parents}
        for cwd, argument in ((folder, "."), (repository, start)):
            report = json.loads(run(cwd, "check", "--no-cache", "--format", "json", argument).stdout)
            found = {((cwd / d["path"]).resolve(), d["line"], d["code"]) for d in report["diagnostics"]}
            assert found == below, f"check {argument} in {cwd.relative_to(repository)}: " + ", ".join(
                f"{path.relative_to(repository)}:{line} {code}" for path, line, code in sorted(found ^ below)
            )
