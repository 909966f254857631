"""The process around a run: standard streams that are closed or cannot hold a file's
name, a pool that is no larger than the work, and workers that end with the run."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from a2alint import runner
from conftest import INSTALLED, UNFIXABLE, run_installed, write

CORPUS = Path(__file__).resolve().parent / "corpus"


@pytest.mark.parametrize("output_format", ["text", "concise", "github", "junit", "grouped", "pylint"])
def test_a_file_name_the_output_encoding_lacks_is_escaped_not_a_crash(project, output_format):
    write(project / "café.py", UNFIXABLE)
    result = run_installed("check", "--no-cache", "--output-format", output_format, cwd=project, env={"PYTHONIOENCODING": "ascii"})
    assert result.exit_code == 1, result.stderr
    assert "internal error" not in result.stderr and "AC107" in result.stdout


def test_a_closed_standard_output_is_a_report_not_written(project):
    write(project / "peer.py", UNFIXABLE)
    done = subprocess.run([str(INSTALLED), "check", "--no-cache", "."], cwd=project, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          preexec_fn=lambda: os.close(1), timeout=60)
    assert done.returncode == 2
    assert b"cannot write the report" in done.stderr and b"Traceback" not in done.stderr
    report = project / "report.txt"  # the report has somewhere else to go: stdout is not needed
    done = subprocess.run([str(INSTALLED), "check", "--no-cache", "-o", str(report), "."], cwd=project,
                          stderr=subprocess.PIPE, preexec_fn=lambda: os.close(1), timeout=60)
    assert done.returncode == 1 and "AC107" in report.read_text()


def test_jobs_are_capped_by_the_cpus_and_the_files(project, monkeypatch):
    started: list[int] = []
    monkeypatch.setattr(runner, "_check_in_pool", lambda run, pending, jobs: started.append(jobs) or [(i, run.check(i)) for i in pending])
    for index in range(runner.MIN_FILES_PER_POOL + 1):
        write(project / f"peer_{index}.py", UNFIXABLE)
    from a2alint.cli import check
    from click.testing import CliRunner

    assert CliRunner().invoke(check, ["--no-cache", "-j", "1000", "."]).exit_code == 1
    assert started == [min(runner.MOST_JOBS_PER_CPU * runner.available_cpus(), runner.MIN_FILES_PER_POOL + 1)]


def _children(pid: int) -> set[int]:
    try:
        return {int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()}
    except OSError:
        return set()


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] not in ("Z", "X")
    except OSError:
        return False


#: A plug-in rule that keeps a worker busy for a minute (a hung rule).
SPINNING_RULE = """
import time
from a2alint.rule import Rule

class Spins(Rule):
    \"\"\"Spins (a test plug-in).\"\"\"

    code = "XY901"
    name = "spins"

    def check(self, model):
        end = time.monotonic() + 60
        while time.monotonic() < end:
            pass
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc; PR_SET_PDEATHSIG is Linux's")
def test_pool_workers_die_when_the_run_is_killed(project, tmp_path_factory):
    from test_plugins import install

    site = tmp_path_factory.mktemp("site")  # outside the checked folder, where a plug-in is refused
    environment = {**os.environ, **install(site, "xy_spins", SPINNING_RULE)}
    for copy in range(2):  # enough A2A modules for a pool
        for source in sorted(CORPUS.glob("*.py")):
            shutil.copy(source, project / f"{source.stem}_{copy}.py")
    run = subprocess.Popen([str(INSTALLED), "check", "--no-cache", "--exit-zero", "-q", "-j", "2", "."], cwd=project,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=environment)
    try:
        deadline = time.monotonic() + 30
        workers: set[int] = set()
        while len(workers) < 2 and time.monotonic() < deadline and run.poll() is None:
            workers = _children(run.pid)
            time.sleep(0.01)
        assert len(workers) == 2, "the pool was not seen"
        time.sleep(3)  # the workers are in the spinning rule by now
        run.send_signal(signal.SIGKILL)
        run.wait(timeout=10)
        deadline = time.monotonic() + 10
        while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(_alive(pid) for pid in workers)
    finally:
        if run.poll() is None:
            run.kill()
