"""What the README, docs/editors.md and action.yml tell users to run works as shown:
every ``a2alint check`` they show parses, the editor recipes read one finding a line,
and the GitHub Action is a composite action that runs the check."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import click
import pytest

from a2alint.cli import check as check_command
from a2alint.reporters import FORMATS
from conftest import UNFIXABLE, write

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
EDITORS = (ROOT / "docs" / "editors.md").read_text(encoding="utf-8")
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


@pytest.mark.parametrize("name, text", [("README.md", README), ("docs/editors.md", EDITORS)])
def test_every_check_the_docs_show_parses(name, text):
    commands = _shown_checks(text)
    assert len(commands) >= 5, f"{name}: the pattern finds too few commands to prove anything"
    for args in commands:
        try:
            check_command.make_context("check", list(args))
        except click.UsageError as error:
            pytest.fail(f"{name}: a2alint check {shlex.join(args)}: {error.format_message()}")


def test_the_docs_use_the_option_names_ruff_users_know():
    for text in (README, EDITORS):
        assert not re.search(r"check[^`\n]* --format ", text)
    formats = "\\|".join(FORMATS)
    assert f"`--output-format {formats}`" in README
    assert "`--color auto\\|always\\|never`" in README


def test_what_does_not_install_yet_is_marked_so():
    for shown in ("`pip install a2alint`", "`rev: v0.1.0`"):
        (paragraph,) = [p for p in README.split("\n\n") if shown in p]
        assert "does not yet" in paragraph
    assert "pip install git+https://github.com/a2alint/a2alint" in README
    assert "rev: v0.1.0" not in README.replace("`rev: v0.1.0`", "")


def _editor_commands() -> list[list[str]]:
    """The efm-langserver and ALE commands, filled in for ``src/peer.py``."""
    efm = re.search(r"lint-command: '(a2alint check [^']*)'", EDITORS)[1]
    ale = re.search(r"'command': '(%e check [^']*)'", EDITORS)[1]
    return [_shown_checks(efm)[0], _shown_checks(ale)[0]]


def test_the_editor_recipes_read_one_finding_a_line(project, check):
    source = (ROOT / "examples" / "host_agent.py").read_text(encoding="utf-8")
    findings = check("--output-format", "json", "--stdin-filename", "src/peer.py", "-", input=source).json()["diagnostics"]
    assert any(d["related"] for d in findings)  # text output would add note: lines
    for args in _editor_commands():
        run = check(*args, input=source)
        assert run.exit_code == 1
        errorformat = [re.match(r"^([^:]+):(\d+):(\d+): (.*)$", line) for line in run.stdout.splitlines()]
        assert [(m[1], int(m[2]), int(m[3]), m[4].split()[0]) for m in errorformat] == [
            ("src/peer.py", d["line"], d["column"], d["code"]) for d in findings
        ]


def test_the_readme_full_sample_is_what_full_prints(project, check):
    sample = README.split("- `full`:", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    lines = [line.removeprefix("  ") for line in sample.rstrip().splitlines()]
    shutil.copytree(ROOT / "examples", project / "examples")
    output = check("--output-format", "full", "examples/contract_digest.py").stdout.splitlines()
    start = output.index(lines[0])
    assert output[start : start + len(lines) - 1] == lines[:-1]
    assert output[start + len(lines) - 1].startswith(lines[-1].removesuffix("..."))


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
