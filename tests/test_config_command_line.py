"""Settings on the command line: ``--config KEY=VALUE`` beside ``--config FILE``, and
``--show-settings``, which says what the settings of a path are and where they come from."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import libcst as cst
import pytest

import a2alint.cli as cli_module
from a2alint.registry import load_rules
from a2alint.rule import Rule
from conftest import UNFIXABLE, write


class Labelled(Rule):
    """Flags every call of ``print``, saying its ``label`` option (a test-only rule with options)."""

    code = "AC993"
    name = "labelled-print"
    requires_a2a = False
    opt_in = True
    options = {"label": "default", "limit": 0}

    def check(self, model) -> None:
        rule = self

        class Visitor(cst.CSTVisitor):
            def visit_Call(self, node: cst.Call) -> None:
                if isinstance(node.func, cst.Name) and node.func.value == "print":
                    rule.report(node, f"print called ({rule.config['label']}, limit {rule.config['limit']})")

        model.module.visit(Visitor())


@pytest.fixture
def labelled(monkeypatch: pytest.MonkeyPatch) -> type[Rule]:
    registry = {**load_rules(), Labelled.code: Labelled}
    monkeypatch.setattr(cli_module, "load_rules", lambda: registry)
    return Labelled


def _messages(run) -> list[str]:
    return [d["message"] for d in run.json()["diagnostics"]]


# --- --config KEY=VALUE ----------------------------------------------------------------------


def test_a_setting_on_the_command_line_wins_over_the_config_file(project, check):
    write(project / "a2alint.toml", 'select = ["AC101", "AC107"]\n')
    write(project / "bad.py", UNFIXABLE)
    assert check("--no-cache", "bad.py").exit_code == 1
    assert check("--no-cache", "--config", 'ignore=["AC107"]', "bad.py").exit_code == 0
    assert check("--no-cache", "--config", 'select = ["AC101"]', "bad.py").exit_code == 0


def test_settings_apply_without_a_config_file_and_with_isolated(project, check):
    write(project / "pyproject.toml", '[tool.a2alint]\nselect = ["AC101"]\n')
    write(project / "bad.py", UNFIXABLE)
    assert check("--no-cache", "--isolated", "--config", 'ignore=["AC107"]', "bad.py").exit_code == 0
    (project / "pyproject.toml").unlink()
    assert check("--no-cache", "--config", 'ignore=["AC107"]', "bad.py").exit_code == 0


def test_the_command_line_options_win_over_its_settings(project, check):
    write(project / "bad.py", UNFIXABLE)
    assert check("--no-cache", "--config", 'ignore=["AC107"]', "--extend-select", "AC107", "bad.py").exit_code == 1


def test_settings_are_given_beside_a_config_file_and_several_at_once(project, check, labelled):
    write(project / "elsewhere.toml", '[rules.AC993]\nlimit = 3\n')
    write(project / "p.py", "import a2a\nprint(1)\n")
    run = check(
        "--no-cache", "--format", "json", "--config", "elsewhere.toml",
        "--config", 'select=["AC993"]', "--config", 'rules.AC993.label="mine"', "p.py",
    )
    assert _messages(run) == ["print called (mine, limit 3)"]  # the file's option stays beside the setting's


def test_two_config_files_are_exit_2(project, check):
    write(project / "a.toml", "")
    write(project / "b.toml", "")
    write(project / "bad.py", UNFIXABLE)
    run = check("--config", "a.toml", "--config", "b.toml", "bad.py")
    assert run.exit_code == 2
    assert "one config file at most" in run.stderr and "a.toml" in run.stderr and "b.toml" in run.stderr


@pytest.mark.parametrize(
    "setting, expected",
    [
        ('select=["AC1"', ["not valid TOML"]),
        ("select=AC1", ["not valid TOML"]),
        ('selct=["AC1"]', ["unknown key 'selct'", "expected one of"]),
        ("rules.AC107.some-option=3", ["key 'rules.AC107.some-option'", "unknown option"]),
        ("rules.AC999.x=3", ["key 'rules.AC999'", "unknown rule code"]),
        ('select=["AC9"]', ["key 'select'", "unknown rule selector"]),
        ("preview=1", ["key 'preview'", "expected true or false"]),
        ('extend="base.toml"', ["key 'extend'", "config file"]),
        ("x = " + "[" * 5000 + "]" * 5000, ["nested too deeply"]),
    ],
)
def test_a_bad_setting_is_exit_2_naming_it(project, check, setting, expected):
    write(project / "bad.py", UNFIXABLE)
    run = check("--config", setting, "bad.py")
    assert run.exit_code == 2
    assert run.stdout == ""
    assert run.stderr.startswith(f"a2alint: error: --config {shlex.quote(setting)}: "), run.stderr[:200]
    for text in expected:
        assert text in run.stderr


def test_a_file_whose_name_has_an_equals_sign_is_a_config_file(project, check):
    write(project / "a=b.toml", 'ignore = ["AC107"]\n')
    write(project / "bad.py", UNFIXABLE)
    assert check("--no-cache", "--config", "a=b.toml", "bad.py").exit_code == 0


# --- --show-settings -------------------------------------------------------------------------


def _shown(run) -> dict[str, str]:
    """The ``key = value`` lines of ``--show-settings``."""
    assert run.exit_code == 0, run.stderr
    return dict(re.findall(r"^([\w-]+) = (.*)$", run.stdout, re.MULTILINE))


def test_show_settings_prints_the_resolved_settings_of_the_first_path_and_their_sources(project, check, labelled):
    write(project / "pyproject.toml", '[tool.a2alint]\nextend-exclude = ["gen/*"]\n')
    write(project / "sub" / "a2alint.toml", 'extend = "../pyproject.toml"\nselect = ["AC201"]\n[rules.AC993]\nlimit = 3\n')
    write(project / "sub" / "bad.py", UNFIXABLE)
    run = check(
        "--show-settings", "--config", 'rules.AC993.label="mine"', "--extend-select", "AC107,AC993", "sub/bad.py", "other.py"
    )
    pyproject, config = project / "pyproject.toml", project / "sub" / "a2alint.toml"
    assert run.stdout.startswith(
        "Settings for sub/bad.py\n"
        "Read from, each over the ones before it:\n"
        f"  {pyproject}\n"
        f"  {config}, which extends {pyproject}\n"
        "  --config 'rules.AC993.label=\"mine\"'\n"
        "  command line: --extend-select AC107,AC993\n"
    )
    shown = _shown(run)
    assert shown["root"] == f'"{project / "sub"}"'
    assert shown["enabled"] == '["AC107", "AC201", "AC993"]'
    assert shown["extend-exclude"] == f'["{(project / "gen/*").as_posix()}"]'  # still the base's folder
    assert shown["rules"] == '{"AC993": {"limit": 3, "label": "mine"}}'
    assert shown["preview"] == "false"


def test_show_settings_without_a_config_file_says_so_and_checks_nothing(project, check):
    write(project / "bad.py", UNFIXABLE)
    run = check("--show-settings")
    assert run.stdout.startswith("Settings for .\nRead from: no config file (the defaults)\n")
    assert _shown(run)["root"] == f'"{project}"'
    assert "AC107" not in run.stdout.split("enabled = ", 1)[0]


def test_show_settings_of_the_stdin_source_is_that_of_its_name(project, check):
    write(project / "pkg" / "a2alint.toml", 'select = ["AC107"]\n')
    run = check("--show-settings", "--stdin-filename", "pkg/peer.py", "-", input=UNFIXABLE)
    assert run.stdout.startswith(f"Settings for pkg/peer.py\nRead from, each over the ones before it:\n  {project / 'pkg' / 'a2alint.toml'}\n")
    assert _shown(run)["enabled"] == '["AC107"]'


def test_show_settings_with_a_bad_config_is_exit_2(project, check):
    write(project / "a2alint.toml", "select = 3\n")
    run = check("--show-settings", ".")
    assert run.exit_code == 2 and "key 'select'" in run.stderr


def test_check_help_lists_the_config_options(a2alint):
    text = a2alint("check", "--help").stdout
    assert "--config FILE|KEY=VALUE" in text
    assert "--show-settings" in text


def test_the_readme_shows_every_config_key_and_the_config_options(project, check):
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    configuration = readme.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    keys = check("--config", "unknown-key=1").stderr.rsplit("expected one of: ", 1)[1].strip().split(", ")
    assert "required-version" in keys
    for key in keys:
        assert f"\n{key} = " in configuration or f"[tool.a2alint.{key}" in configuration, key
    for option in ("--config KEY=VALUE", "--show-settings"):
        assert f"`{option}`" in readme
