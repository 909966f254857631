"""A plug-in cannot hang the run, lose other files' findings, or be imported from the code
being checked.

Each run is a process of its own with a bound (``timeout=``): a regression fails here
instead of hanging. The time limits are lowered for the run (the defaults are 10 s a file
and 60 s an import) by a wrapper that sets them, then runs the command.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from a2alint import runner
from a2alint.registry import load_rules
from conftest import UNFIXABLE, Run, run_installed, write
from test_plugins import SOUND_RULE, install

#: The command run with both time limits set to ``sys.argv[1]`` seconds.
LIMITED = """\
import sys
from a2alint import registry, runner
runner.PLUGIN_CHECK_SECONDS = registry.PLUGIN_IMPORT_SECONDS = float(sys.argv[1])
from a2alint.cli import run
sys.argv = ["a2alint", *sys.argv[2:]]
run()
"""


def run_limited(seconds: float, *args: str, cwd: Path, env: dict, timeout: float = 60) -> Run:
    done = subprocess.run(
        [sys.executable, "-c", LIMITED, str(seconds), *args], cwd=cwd, env={**_environment(), **env},
        capture_output=True, text=True, timeout=timeout,
    )
    return Run(done.returncode, done.stdout, done.stderr)


def _environment() -> dict:
    return {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}


def plugin_checking(body: str, site: Path) -> dict:
    """A plug-in whose rule XY101 runs ``body`` (indented as check()'s) on a file named
    ``slow.py``, then reports the first statement of every file."""
    source = SOUND_RULE.format(extra="").replace(
        "    def check(self, model):\n",
        "    def check(self, model):\n        if model.path.endswith('slow.py'):\n" + body,
    )
    return install(site, "xy_rules", "import time\n" + source)


HANGS = {
    "sleeps": "            time.sleep(600)\n",
    "loops, keeping every Exception": (
        "            while True:\n                try:\n                    sum(range(100))\n"
        "                except Exception:\n                    pass\n"
    ),
}


@pytest.mark.parametrize("jobs, files", [("1", 2), ("2", 30)], ids=["in-process", "pool"])
@pytest.mark.parametrize("hang", HANGS)
def test_a_plug_in_rule_that_hangs_on_a_file_is_stopped_and_the_run_goes_on(tmp_path, hang, jobs, files):
    env = plugin_checking(HANGS[hang], tmp_path / "site")
    project = tmp_path / "repo"  # not the site's folder (a plug-in inside the checked code is refused)
    write(project / "slow.py", UNFIXABLE)
    for n in range(files - 1):
        write(project / f"peer{n}.py", UNFIXABLE)
    started = time.monotonic()
    run = run_limited(1, "check", "--no-cache", "-j", jobs, "--output-format", "json", ".", cwd=project, env=env)
    assert time.monotonic() - started < 30
    assert run.exit_code == 2, run.stderr
    (error,) = [line for line in run.stderr.splitlines() if "internal error" in line]
    assert error.startswith("a2alint: internal error in XY101 (flags-first-statement) on slow.py: ")
    assert "ran past the time limit of 1 s" in error
    found = {(d["path"], d["code"]) for d in json.loads(run.stdout)["diagnostics"]}
    assert ("slow.py", "AC107") in found and ("slow.py", "XY101") not in found  # its other rules ran
    assert {("peer0.py", "AC107"), ("peer0.py", "XY101")} <= found  # and the other files


def test_a_plug_in_that_hangs_at_import_is_refused_by_name(project, tmp_path):
    env = install(tmp_path / "site", "xy_rules", "while True:\n    pass\n")
    write(project / "peer.py", UNFIXABLE)
    run = run_limited(1, "check", "--no-cache", "peer.py", cwd=project, env=env)
    assert run.exit_code == 2 and run.stdout == ""
    (line,) = run.stderr.splitlines()
    assert line.startswith("a2alint: error: plug-in xy-rules 0.1 (entry point 'xy_rules = xy_rules'")
    assert line.endswith("cannot be imported: it ran past the time limit of 1 s for a plug-in's import, and was stopped")


class Loops(runner.Rule):
    """Loops forever (a test-only plug-in rule)."""

    code = "XY102"
    name = "loops"
    requires_a2a = False

    def check(self, model) -> None:
        while True:
            pass


def test_a_plug_in_rule_that_loops_is_stopped_in_a_thread_too(monkeypatch):
    # The language server checks documents in threads, where no SIGALRM can stop a loop.
    monkeypatch.setattr(runner, "PLUGIN_CHECK_SECONDS", 0.5)
    linter = runner.Linter({**load_rules(), Loops.code: Loops})
    settings = runner.Settings(root=Path.cwd())
    results = []
    thread = threading.Thread(
        target=lambda: results.append(linter.check_bytes(UNFIXABLE.encode(), "p.py", Path("p.py"), settings)), daemon=True
    )
    thread.start()
    thread.join(timeout=30)
    assert not thread.is_alive()
    (result,) = results
    assert [d.code for d in result.diagnostics] == ["AC107"]
    (error,) = result.errors
    assert error.startswith("internal error in XY102 (loops) on p.py: its check() ran past the time limit of 0.5 s")


def test_a_plug_in_rule_that_loops_does_not_stop_the_language_server(tmp_path, monkeypatch):
    pytest.importorskip("pygls")
    import test_server

    env = plugin_checking(HANGS["loops, keeping every Exception"], tmp_path / "site")
    monkeypatch.setenv("PYTHONPATH", env["PYTHONPATH"])
    monkeypatch.setattr(test_server, "SERVER", [sys.executable, "-c", LIMITED, "1", "server"])
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    client = test_server.LspClient(workspace)
    try:
        client.initialize(workspace, {"debounce": test_server.DEBOUNCE})
        since = client.mark()
        slow = client.open(workspace / "slow.py", UNFIXABLE)
        assert [d["code"] for d in slow["diagnostics"]] == ["AC107"]
        logged = client.wait_for("window/logMessage", since, lambda p: "internal error in XY101" in p["message"])
        assert "ran past the time limit of 1 s" in logged["message"]
        peer = client.open(workspace / "peer.py", UNFIXABLE)  # the server goes on
        assert sorted(d["code"] for d in peer["diagnostics"]) == ["AC107", "XY101"]
    finally:
        client.close()


# --- a plug-in that ends the process -------------------------------------------------------

ENDS = {"os._exit(0)": "            import os; os._exit(0)\n", "a crash": "            import os, signal; os.kill(os.getpid(), signal.SIGSEGV)\n"}


@pytest.mark.parametrize("jobs, files", [("1", 2), ("2", 30)], ids=["-j 1", "pool"])
@pytest.mark.parametrize("end", ENDS)
def test_a_plug_in_rule_that_ends_the_process_loses_no_other_finding(tmp_path, end, jobs, files):
    # os._exit(0) in a pool lost the findings of the worker's files; in-process (-j 1, or
    # fewer files than a pool takes) it made the run exit 0 with no output.
    env = plugin_checking(ENDS[end], tmp_path / "site")
    project = tmp_path / "repo"
    write(project / "slow.py", UNFIXABLE)
    for n in range(files - 1):
        write(project / f"peer{n}.py", UNFIXABLE)
    run = run_installed("check", "--no-cache", "-j", jobs, "--output-format", "json", ".", cwd=project, env=env)
    assert run.exit_code == 2, run.stderr
    (error,) = [line for line in run.stderr.splitlines() if "internal error" in line]
    how = "exit status 0" if end == "os._exit(0)" else "signal 11"
    assert error == (
        "a2alint: internal error in XY101 (flags-first-statement) on slow.py: the process checking it ended in "
        f"the rule's check() ({how}); its other rules were checked"
    )
    found = sorted((d["path"], d["code"]) for d in json.loads(run.stdout)["diagnostics"])
    peers = [(f"peer{n}.py", code) for n in range(files - 1) for code in ("AC107", "XY101")]
    assert found == sorted([*peers, ("slow.py", "AC107")])


# --- never a plug-in from the code being checked --------------------------------------------

#: A module of the checked repository named like the installed plug-in: importing it leaves a mark.
SHADOW = "from pathlib import Path\nPath('ran').write_text('the checked code ran')\n"


@pytest.mark.parametrize("how", ["PYTHONPATH=.", "a declared plug-in", "checking another folder"])
def test_a_plug_in_is_never_imported_from_the_paths_being_checked(tmp_path, how):
    project = tmp_path / "repo"
    env = install(tmp_path / "site", "xy_rules", SOUND_RULE.format(extra=""))
    write(project / "peer.py", UNFIXABLE)
    if how == "a declared plug-in":  # the repository ships the distribution's metadata too
        env = install(project, "xy_rules", SHADOW)
        env["PYTHONPATH"] = "."
    else:
        write(project / "xy_rules.py", SHADOW)
        env["PYTHONPATH"] = os.pathsep.join([".", env["PYTHONPATH"]])
    checked = "src" if how == "checking another folder" else "."  # its top folder is the repository's too
    write(project / "src" / "peer.py", UNFIXABLE)
    run = run_installed("check", "--no-cache", checked, cwd=project, env=env)
    assert run.exit_code == 2, (run.stdout, run.stderr)
    (line,) = run.stderr.splitlines()
    assert line.startswith("a2alint: error: plug-in xy-rules 0.1 (entry point 'xy_rules = xy_rules'")
    assert f"refused: its module would be imported from {project / 'xy_rules.py'}, the code being checked" in line
    assert not (project / "ran").exists()


def test_python_m_runs_the_installed_plug_in_not_the_checked_codes(tmp_path):
    # python -m takes the current directory off sys.path (a2alint's __main__)
    project = tmp_path / "repo"
    env = install(tmp_path / "site", "xy_rules", SOUND_RULE.format(extra=""))
    write(project / "xy_rules.py", SHADOW)
    write(project / "src" / "peer.py", UNFIXABLE)
    run = run_installed("-m", "a2alint", "check", "--no-cache", ".", cwd=project, env=env)
    assert run.exit_code == 1 and "XY101" in run.stdout, run.stderr
    assert not (project / "ran").exists()


def test_a_plug_in_installed_in_the_projects_own_virtual_environment_loads(tmp_path, monkeypatch):
    from a2alint import registry

    project = tmp_path / "repo"
    installed = project / ".venv" / "lib" / "site-packages"
    write(installed / "xy_rules.py", SOUND_RULE.format(extra=""))
    monkeypatch.chdir(project)
    monkeypatch.setattr(sys, "path", [str(installed), *sys.path])
    monkeypatch.setattr("site.getsitepackages", lambda: [str(installed)])
    monkeypatch.setattr(registry, "_checked", ())
    registry.refuse_plugins_from(["."])
    assert registry._checked_file("xy_rules") is None
    monkeypatch.setattr("site.getsitepackages", lambda: [])  # the same module, not installed: the checked code's
    assert registry._checked_file("xy_rules") == str(installed / "xy_rules.py")
