"""What the README, docs/editors.md and action.yml tell users to run works as shown:
every ``a2alint check`` they show parses, the editor recipes read one finding a line,
and the GitHub Action is a composite action that runs the check."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
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


#: A stand-in for the installed a2alint: it records its arguments, one per NUL-ended field.
RECORDER = '#!/bin/sh\nfor a in "$@"; do printf "%s\\0" "$a"; done > "$RUNNER_TEMP/argv"\n'


@pytest.mark.parametrize("step", ["Write the SARIF report", "a2alint check"])
def test_the_actions_steps_pass_each_line_as_one_argument_unsplit_and_unglobbed(project, check, step):
    """``args`` and ``paths`` reach ``a2alint check`` one argument a line, as written: a TOML
    setting with quotes and brackets, and globs, even where files match them."""
    yaml = pytest.importorskip("yaml")
    (script,) = [s["run"] for s in yaml.safe_load(ACTION)["runs"]["steps"] if s["name"] == step]
    write(project / "gen" / "made.py", UNFIXABLE)
    write(project / "src" / "bad.py", UNFIXABLE)
    recorder = write(project / "temp" / "a2alint" / "bin" / "a2alint", RECORDER)
    recorder.chmod(0o755)
    inputs = {"ARGS": '--config\nselect = ["AC1"]\n  --extend-exclude\ngen/*  \n\n', "PATHS": "src\ng*\n", "RUNNER_TEMP": str(project / "temp")}
    done = subprocess.run(["bash", "-eo", "pipefail", "-c", script], cwd=project, env={**os.environ, **inputs}, timeout=60)
    assert done.returncode == 0
    argv = (project / "temp" / "argv").read_text().split("\0")[:-1]
    given = ["--config", 'select = ["AC1"]', "--extend-exclude", "gen/*"]
    assert argv[argv.index("--config") : argv.index("--config") + 4] == given
    assert argv[-3:] == ["--", "src", "g*"]
    assert argv[0] == "check"
    run = check(*argv[1:-1])  # (not g*: no such path)
    assert run.exit_code == (0 if "--exit-zero" in argv else 1), run.stderr  # the setting read as one: split, exit 2


def test_the_action_annotates_even_when_the_upload_fails():
    """A fork's pull request cannot upload SARIF: that must not skip the annotations."""
    yaml = pytest.importorskip("yaml")
    steps = {step["name"]: step for step in yaml.safe_load(ACTION)["runs"]["steps"]}
    upload = steps["Upload it to code scanning"]
    assert upload["continue-on-error"] is True
    assert re.fullmatch(r"github/codeql-action/upload-sarif@[0-9a-f]{40}", upload["uses"])  # pinned by commit
    assert re.search(r"upload-sarif@[0-9a-f]{40} # v3\.\d+\.\d+$", ACTION, re.M)
    assert steps["a2alint check"]["if"] == "${{ !cancelled() }}"
