"""What the README and action.yml tell users to run works as shown: what does not
install yet says so, the CI recipes run, and the GitHub Action is a composite action
that runs the check."""

from __future__ import annotations

import json
import re
import shlex
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from a2alint.cli import check as check_command
from conftest import UNFIXABLE, write

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
ACTION = (ROOT / "action.yml").read_text(encoding="utf-8")
#: ``a2alint check ...`` as the docs show it (``%e`` is ALE's executable), up to the end of
#: its code span, a comment or a redirection.
SHOWN_CHECK = re.compile(r"(?:a2alint|%e) check(?![\w-])([^`'\"\n#<]*)")
#: What the editor recipes fill in, and usage notation.
PLACEHOLDERS = {"${INPUT}": "src/peer.py", "%s": "src/peer.py", "[PATHS]...": ""}


def _shown_checks(text: str) -> list[list[str]]:
    commands = []
    for match in SHOWN_CHECK.finditer(text):
        args = match[1]
        for placeholder, value in PLACEHOLDERS.items():
            args = args.replace(placeholder, value)
        commands.append(shlex.split(args))
    return commands


def test_what_does_not_install_yet_is_marked_so():
    for shown in ("`pip install a2alint`", "`rev: v0.1.0`"):
        (paragraph,) = [p for p in README.split("\n\n") if shown in p]
        assert "does not yet" in paragraph
    assert "pip install git+https://github.com/a2alint/a2alint" in README
    assert "rev: v0.1.0" not in README.replace("`rev: v0.1.0`", "")


def test_the_gitlab_ci_job_writes_both_reports(project, check):
    write(project / "bad.py", UNFIXABLE)
    job = README.split("## GitLab CI", 1)[1].split("```yaml\n", 1)[1].split("```", 1)[0]
    gitlab, junit = [args for args in _shown_checks(job)]
    assert check(*gitlab).exit_code == 0
    assert check(*junit).exit_code == 1
    reports = re.search(r"codequality: (\S+)\n\s+junit: (\S+)", job)
    assert json.loads((project / reports[1]).read_text(encoding="utf-8"))[0]["check_name"] == "AC107"
    assert ElementTree.parse(project / reports[2]).getroot().find("testsuite").get("failures") == "1"


# --- the GitHub Action --------------------------------------------------------------------------

INPUTS = ("version", "source", "paths", "args", "upload-sarif")


def test_the_action_is_composite_and_runs_the_check():
    assert re.search(r"^runs:\n  using: composite$", ACTION, re.M)
    assert "a2alint/bin/a2alint\" check" in ACTION
    assert "uses: github/codeql-action/upload-sarif@" in ACTION
    for name in INPUTS:
        assert re.search(rf"^  {re.escape(name)}:$", ACTION, re.M), name


def test_the_action_takes_its_inputs_as_data_not_as_script():
    """An input spliced into a script (``${{ inputs.args }}`` in ``run:``) would run as shell."""
    for script in re.findall(r"^      run: (?:[|>]-?\n(?:        .*\n)+|.*\n)", ACTION, re.M):
        assert "${{" not in script


def test_the_action_as_yaml_declares_what_it_and_the_readme_use():
    yaml = pytest.importorskip("yaml")  # pre-commit's dependency: there when the test extras are
    action = yaml.safe_load(ACTION)
    assert action["runs"]["using"] == "composite"
    assert set(action["inputs"]) == set(INPUTS)
    for step in action["runs"]["steps"]:
        assert "uses" in step or step["shell"] == "bash"
    used = set(re.findall(r"inputs\.([\w-]+)", ACTION))
    assert used <= set(action["inputs"])
    workflow = README.split("## GitHub Actions", 1)[1].split("```yaml\n", 1)[1].split("```", 1)[0]
    (step,) = [s for s in yaml.safe_load(workflow)["jobs"]["a2alint"]["steps"] if s["uses"].startswith("a2alint/a2alint@")]
    assert set(step["with"]) <= set(action["inputs"])


def test_the_actions_checks_parse(project):
    """Its ``a2alint check`` lines, with the inputs filled in, are commands check takes."""
    filled = ACTION.replace("$ARGS", "--select AC1").replace("$PATHS", "src").replace('"$RUNNER_TEMP/a2alint.sarif"', "a.sarif")
    commands = [shlex.split(line) for line in re.findall(r'a2alint/bin/a2alint" check ([^\n\']*(?:\n        [^\n"]*)?)', filled)]
    assert len(commands) == 2
    for args in commands:
        check_command.make_context("check", args)
