"""Installed plug-ins: a broken one is refused by name, a sound one's rules run by default.

Each plug-in is a distribution written into a folder on ``PYTHONPATH`` (a ``.dist-info``
with its entry points, and its module), which ``importlib.metadata`` finds as pip's would
be; the command runs in a process of its own.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conftest import INSTALLED, UNFIXABLE, Run, run_installed, write

SOUND_RULE = '''
from a2alint.rule import Rule

class FlagsFirstStatement(Rule):
    """Flags the first statement of every module (a test plug-in)."""

    code = "XY101"
    name = "flags-first-statement"
    requires_a2a = False
    {extra}

    def check(self, model):
        self.report(model.module.body[0], "first statement")
'''


def install(site: Path, module: str, source: str, entry: str = "", distribution: str = "xy-rules") -> dict:
    """Install the distribution ``distribution`` 0.1 into ``site``: ``module`` with ``source``,
    and the entry point ``entry`` (``name = module:attr``; default: the module). The
    environment a command needs to see it."""
    info = site / f"{distribution.replace('-', '_')}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {distribution}\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[a2alint.rules]\n{entry or f'{module} = {module}'}\n", encoding="utf-8")
    write(site / f"{module}.py", textwrap.dedent(source))
    return {"PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}


def sound_plugin(site: Path, extra: str = "") -> dict:
    return install(site, "xy_rules", SOUND_RULE.format(extra=extra))


BROKEN = {
    "bad code": ("xy_rules", SOUND_RULE.format(extra="").replace('"XY101"', '"xy-1"'), "", "rule code 'xy-1'"),
    "bad name": ("xy_rules", SOUND_RULE.format(extra="").replace('"flags-first-statement"', '"First Statement"'), "", "rule name 'First Statement'"),
    "fails to import": ("xy_rules", "import not_installed_anywhere\n", "", "cannot be imported: ModuleNotFoundError"),
    "no rule": ("xy_rules", "HELPER = 1\n", "helper = xy_rules:HELPER", "provides no a2alint rule"),
    "a taken code": ("xy_rules", SOUND_RULE.format(extra="").replace('"XY101"', '"AC101"'), "", "claims AC101, which is post-submission-card-fetch"),
}


def assert_refused(run: Run, why: str, entry: str) -> None:
    assert run.exit_code == 2, run.stderr
    (line,) = run.stderr.splitlines()  # one message, no traceback
    assert line.startswith("a2alint: error: plug-in xy-rules 0.1 (entry point ")
    assert f"'{entry}'" in line and why in line


@pytest.mark.parametrize("problem", BROKEN)
def test_a_broken_plugin_is_refused_by_distribution_and_entry_point(tmp_path, problem):
    module, source, entry, why = BROKEN[problem]
    env = install(tmp_path / "site", module, source, entry)
    write(tmp_path / "p.py", UNFIXABLE)
    assert_refused(run_installed("check", "p.py", cwd=tmp_path, env=env), why, entry or f"{module} = {module}")


@pytest.mark.parametrize("command", [("rule", "--all"), ("rule", "AC101"), ("server",), ("clean",), ("-m", "a2alint", "check")])
def test_every_command_that_needs_the_rules_refuses_a_broken_plugin(tmp_path, command):
    module, source, entry, why = BROKEN["fails to import"]
    env = install(tmp_path / "site", module, source, entry)
    (tmp_path / "work").mkdir()  # not the site's folder: a plug-in inside the checked code is refused for that
    assert_refused(run_installed(*command, cwd=tmp_path / "work", env=env, stdin=subprocess.DEVNULL), why, f"{module} = {module}")


def test_version_does_not_load_plugins(tmp_path):
    module, source, entry, _ = BROKEN["fails to import"]
    run = run_installed("--version", cwd=tmp_path, env=install(tmp_path / "site", module, source, entry))
    assert run.exit_code == 0 and run.stderr == ""


@pytest.mark.parametrize("command", [("check",), ("-m", "a2alint", "check"), ("clean",)])
def test_a_deleted_working_directory_is_a_clear_refusal(tmp_path, command):
    gone = tmp_path / "gone"
    gone.mkdir()
    program = [str(INSTALLED)] if command[0] != "-m" else [sys.executable]
    script = 'cd "$1" && rmdir "$1" && shift && exec "$@"'
    done = subprocess.run(["sh", "-c", script, "sh", str(gone), *program, *command], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.splitlines() == ["a2alint: error: the current directory no longer exists; cd into one that does"]


# --- the default selection (flake8's convention) -------------------------------------------------


def codes(run: Run) -> list[str]:
    assert run.exit_code in (0, 1), run.stderr
    return sorted({d["code"] for d in run.json()["diagnostics"]})


def test_an_installed_plugins_rules_run_by_default(tmp_path):
    env = sound_plugin(tmp_path / "site")
    write(tmp_path / "p.py", UNFIXABLE)
    assert codes(run_installed("check", "--no-cache", "--format", "json", "p.py", cwd=tmp_path, env=env)) == ["AC107", "XY101"]
    (tmp_path / "pyproject.toml").write_text('[tool.a2alint]\nignore = ["XY"]\n', encoding="utf-8")
    assert codes(run_installed("check", "--no-cache", "--format", "json", "p.py", cwd=tmp_path, env=env)) == ["AC107"]


@pytest.mark.parametrize("flag", ["opt_in = True", "preview = True"])
def test_a_plugin_rule_that_is_opt_in_or_preview_runs_only_when_selected(tmp_path, flag):
    env = sound_plugin(tmp_path / "site", extra=flag)
    write(tmp_path / "p.py", UNFIXABLE)
    assert codes(run_installed("check", "--no-cache", "--format", "json", "p.py", cwd=tmp_path, env=env)) == ["AC107"]
    selected = run_installed("check", "--no-cache", "--format", "json", "--extend-select", "XY101", "p.py", cwd=tmp_path, env=env)
    assert codes(selected) == ["AC107", "XY101"]


def test_rule_lists_a_plugins_rule_from_its_class(tmp_path):
    env = sound_plugin(tmp_path / "site", extra="opt_in = True")
    run = run_installed("rule", "--all", cwd=tmp_path, env=env)
    (line,) = [line for line in run.stdout.splitlines() if line.startswith("XY101")]
    assert line.split()[1:3] == ["flags-first-statement", "warning,"] and "opt-in" in line
    assert run_installed("rule", "xy101", cwd=tmp_path, env=env).stdout.startswith("# XY101 flags-first-statement (warning, opt-in)")


# --- finding plug-ins without importlib.metadata --------------------------------------------------


def test_a_check_without_plugins_does_not_import_importlib_metadata(tmp_path):
    # The prefilter's point: importlib.metadata (and what it imports) is a tenth of a
    # pre-commit run's imports.
    write(tmp_path / "p.py", UNFIXABLE)
    script = (
        "import sys\nfrom a2alint.registry import load_rules\nload_rules()\n"
        "print('importlib.metadata' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "False", done.stderr


@pytest.mark.parametrize(
    "layout",
    ["dist-info", "egg-info", "an egg's EGG-INFO", "a zip on the path", "a finder of its own", "a folder that is gone"],
)
def test_the_plugin_prefilter_says_yes_wherever_importlib_metadata_could_find_one(tmp_path, monkeypatch, layout):
    from a2alint import registry

    site = tmp_path / "site"
    site.mkdir()
    declared = "[a2alint.rules]\nxy = xy_rules\n"
    other = "[console_scripts]\nxy = xy:main\n"
    expected = True
    if layout == "dist-info":
        (site / "xy-0.1.dist-info").mkdir()
        (site / "xy-0.1.dist-info" / "entry_points.txt").write_text(declared, encoding="utf-8")
        (site / "other-0.1.dist-info").mkdir()
        (site / "other-0.1.dist-info" / "entry_points.txt").write_text(other, encoding="utf-8")
    elif layout == "egg-info":
        (site / "XY.egg-info").mkdir()
        (site / "XY.egg-info" / "entry_points.txt").write_text(declared, encoding="utf-8")
        (site / "old.egg-info").write_text("Metadata-Version: 1.0\n", encoding="utf-8")  # a file: no entry points
    elif layout == "an egg's EGG-INFO":
        site = site / "xy-0.1-py3.11.egg"
        (site / "EGG-INFO").mkdir(parents=True)
        (site / "EGG-INFO" / "entry_points.txt").write_text(declared, encoding="utf-8")
    elif layout == "a zip on the path":
        site = site / "bundle.zip"
        site.write_bytes(b"PK\x05\x06" + bytes(18))
    elif layout == "a finder of its own":
        monkeypatch.setattr(sys, "meta_path", [*sys.meta_path, type("Finder", (), {"find_distributions": staticmethod(lambda *a: iter(()))})()])
    else:
        site, expected = tmp_path / "gone", False
    monkeypatch.setattr(sys, "path", [str(site)])
    assert registry._may_declare_plugins() is expected
    if layout in ("dist-info", "egg-info"):  # the same folders without the group: no
        for info in site.iterdir():
            if (info / "entry_points.txt").is_file():
                (info / "entry_points.txt").write_text(other, encoding="utf-8")
        assert registry._may_declare_plugins() is False


@pytest.mark.parametrize(
    "body, code, said",
    [
        ("raise SystemExit(0)", 2, "internal error in XY101"),
        ("raise KeyboardInterrupt", 130, "a2alint: interrupted"),
        ("print('{\"forged\": true}')\n        self.report(model.module.body[0], 'first statement')", 1, ""),
    ],
    ids=["sys-exit", "keyboard-interrupt", "print"],
)
def test_a_plug_in_rule_cannot_pass_the_run_or_write_into_the_report(project, tmp_path, body, code, said):
    """A plug-in's sys.exit(0) in check() made the run exit 0 with no output, its
    KeyboardInterrupt exit 1 (findings), and its print() corrupted a JSON report."""
    source = SOUND_RULE.format(extra="").replace('self.report(model.module.body[0], "first statement")', body)
    assert body in source
    env = install(tmp_path / "site", "xy_rules", source)
    write(project / "peer.py", UNFIXABLE)
    run = run_installed("check", "--no-cache", "--output-format", "json", "peer.py", cwd=project, env=env)
    assert run.exit_code == code, (run.stdout, run.stderr)
    assert said in run.stderr
    if code == 1:
        assert json.loads(run.stdout)["diagnostics"] and '{"forged": true}' in run.stderr


def test_a_plug_in_that_exits_at_import_is_refused_by_name(project, tmp_path):
    env = install(tmp_path / "site", "xy_rules", "import sys\nprint('noise')\nsys.exit(0)\n")
    write(project / "peer.py", UNFIXABLE)
    run = run_installed("check", "--no-cache", "--output-format", "json", "peer.py", cwd=project, env=env)
    assert run.exit_code == 2 and "cannot be imported: SystemExit" in run.stderr
    assert run.stdout == ""


def test_a_plug_in_s_message_cannot_forge_a_report_line_or_drive_the_terminal(project, tmp_path):
    forged = "first\\n::error file=forged.py,line=1::forged\\x1b[2J"
    source = SOUND_RULE.format(extra="").replace('"first statement"', f'"{forged}"')
    env = install(tmp_path / "site", "xy_rules", source)
    write(project / "peer.py", UNFIXABLE)
    for output_format in ("github", "concise"):
        run = run_installed("check", "--no-cache", "--output-format", output_format, "peer.py", cwd=project, env=env)
        assert run.exit_code == 1
        assert not any(line.startswith("::error file=forged") for line in run.stdout.splitlines())
        assert "\x1b" not in run.stdout and "XY101 first\u240a::error" in run.stdout
