"""``a2alint check``: exit codes, text output, rule selection, stdin, bad files, the cache,
and the ``rule``, ``clean`` and ``--version`` commands."""

from __future__ import annotations

import json
import os
import pty

import pytest

from a2alint import __version__
from a2alint.runner import Linter
from conftest import CLEAN, FIXABLE, FIXABLE_AT, UNFIXABLE, run_installed, write

# --- exit codes and the text report -------------------------------------------------------


def test_no_findings_exits_0_with_a_summary(project, check):
    write(project / "ok.py", CLEAN)
    run = check("ok.py")
    assert run.exit_code == 0
    assert run.stdout == "All checks passed (1 file checked).\n"


def test_findings_exit_1_with_location_code_help_and_summary(project, check):
    write(project / "bad.py")
    run = check("--select", "AC107", "bad.py")
    assert run.exit_code == 1
    line, column = FIXABLE_AT
    first, help_line, summary, hint = run.stdout.splitlines()
    assert first.startswith(f"bad.py:{line}:{column}: AC107 json.dumps of Agent Card data")  # no [*]: its fix is unsafe
    assert help_line.startswith("  help: hash only the contract fields as canonical JSON")
    assert summary == "Found 1 finding in 1 file checked."
    assert hint == "No fixes available (1 hidden fix can be enabled with the --unsafe-fixes option)."


def test_exit_zero_keeps_the_report_but_exits_0(project, check):
    write(project / "bad.py")
    run = check("--exit-zero", "--select", "AC107", "bad.py")
    assert run.exit_code == 0
    assert "AC107" in run.stdout


def test_quiet_prints_findings_without_summary(project, check):
    write(project / "bad.py", UNFIXABLE)
    write(project / "ok.py", CLEAN)
    assert check("-q", "--select", "AC107", "ok.py").stdout == ""
    run = check("-q", "--select", "AC107", "bad.py")
    assert run.exit_code == 1
    assert run.stdout.splitlines()[0].startswith("bad.py:2:21: AC107 built-in hash()")
    assert "Found" not in run.stdout


def test_unknown_selector_is_a_usage_error_naming_every_unknown_code(project, check):
    write(project / "bad.py")
    run = check("--select", "AC107,AC999", "--ignore", "XY1", "bad.py")
    assert run.exit_code == 2
    assert "AC999" in run.stderr and "XY1" in run.stderr
    assert run.stdout == ""


def _tty_output(project, env: dict) -> bytes:
    """What ``a2alint check`` writes to a terminal."""
    master, slave = pty.openpty()
    try:
        run_installed("check", "--no-cache", "bad.py", cwd=project, env=env, stdout=slave)
    finally:
        os.close(slave)
    chunks = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the other side is closed and drained
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(master)
    return b"".join(chunks)


def test_colour_on_a_terminal_only_and_never_with_no_color(project):
    write(project / "bad.py")
    assert b"\x1b[" in _tty_output(project, {})
    assert b"\x1b[" not in _tty_output(project, {"NO_COLOR": "1"})
    piped = run_installed("check", "--no-cache", "bad.py", cwd=project)
    assert piped.exit_code == 1 and "AC107" in piped.stdout and "\x1b[" not in piped.stdout


# --- rule selection ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, reported",
    [
        ((), True),
        (("--select", "AC107"), True),
        (("--select", "AC1"), True),
        (("--select", "AC"), True),
        (("--select", "ALL"), True),
        (("--select", "AC000"), False),
        (("--ignore", "AC107"), False),
        (("--ignore", "AC1"), False),
        (("--ignore", "ALL", "--extend-select", "AC000"), False),
        (("--select", "AC1", "--ignore", "AC107"), False),
        (("--ignore", "AC1", "--select", "AC107"), True),  # the more specific selector wins
        (("--select", "AC000", "--extend-select", "AC107"), True),
        (("--select", "AC000,AC107"), True),
    ],
)
def test_selection_by_code_prefix_and_all(project, check, args, reported):
    write(project / "bad.py")
    run = check("--format", "json", *args, "bad.py")
    assert ("AC107" in run.codes()) is reported
    assert run.exit_code == (1 if run.codes() else 0)


@pytest.mark.parametrize(
    "args, runs",
    [
        ((), False),
        (("--select", "ALL"), False),
        (("--select", "AC9,AC107"), False),  # alone, it would leave no rule: an error
        (("--select", "AC990"), True),
        (("--extend-select", "AC990"), True),
        (("--preview",), True),
        (("--select", "ALL", "--preview"), True),
        (("--preview", "--ignore", "AC990"), False),
    ],
)
def test_preview_rule_runs_only_when_named_or_with_preview(project, check, plugin_rule, args, runs):
    write(project / "p.py", "import a2a\nprint('hi')\n")
    run = check("--no-cache", "--format", "json", *args, "p.py")
    assert (plugin_rule.code in run.codes()) is runs


def test_opt_in_unused_noqa_rule_needs_its_code(project, check):
    write(project / "n.py", "import a2a\nx = 1  # noqa: AC107\n")
    assert check("--select", "ALL", "--format", "json", "n.py").codes() == []
    assert check("--extend-select", "AC001", "--format", "json", "n.py").codes() == ["AC001"]


# --- stdin -----------------------------------------------------------------------------------


def test_stdin_is_checked_under_its_stdin_filename(project, check):
    run = check("--select", "AC107", "--stdin-filename", "pkg/agent.py", "-", input=FIXABLE)
    assert run.exit_code == 1
    assert run.stdout.startswith("pkg/agent.py:6:27: AC107")


def test_stdin_without_a_name_is_reported_as_dash(project, check):
    run = check("--select", "AC107", "-", input=UNFIXABLE)
    assert run.exit_code == 1
    assert run.stdout.startswith("-:2:21: AC107")


def test_stdin_filename_alone_reads_stdin(project, check):
    write(project / "other.py", UNFIXABLE)  # must not be checked: the source comes from stdin
    run = check("--stdin-filename", "agent.py", "--format", "json", input=CLEAN)
    assert run.exit_code == 0
    assert run.json()["files"] == 1


def test_stdin_uses_the_config_found_from_its_filename(project, check):
    write(project / "pkg" / "pyproject.toml", '[tool.a2alint]\nignore = ["AC107"]\n')
    assert check("--format", "json", "--stdin-filename", "pkg/agent.py", "-", input=FIXABLE).paths() == []
    assert check("--format", "json", "--stdin-filename", "agent.py", "-", input=FIXABLE).paths() == ["agent.py"]


def test_stdin_fix_prints_the_fixed_source(project, check):
    run = check("--select", "AC107", "--fix", "--unsafe-fixes", "-", input=FIXABLE)
    assert run.exit_code == 0
    assert run.stdout == FIXABLE.replace("json.dumps(contract)", "json.dumps(contract, sort_keys=True)")
    assert "Fixed 1 finding." in run.stderr


def test_stdin_fix_writes_the_source_back_in_its_declared_encoding(check):
    source = ("# -*- coding: latin-1 -*-\n" + FIXABLE + "OWNER = 'Zoë'\n").encode("latin-1")
    run = check("--fix", "--unsafe-fixes", "-", input=source)
    assert run.stdout_bytes == source.replace(b"json.dumps(contract)", b"json.dumps(contract, sort_keys=True)")


@pytest.mark.parametrize("source", [b"import a2a\nx = 'caf\xe9'\r\n", b"import a2a\nx = 1\r\n"])
def test_stdin_fix_echoes_a_source_it_cannot_fix_unchanged(check, source):
    run = check("--fix", "--unsafe-fixes", "-", input=source)
    assert run.stdout_bytes == source


# --- files that cannot be analysed: AC000 -------------------------------------------------------


def test_syntax_error_is_an_ac000_at_its_line_and_the_run_goes_on(project, check):
    write(project / "a_broken.py", "import a2a\n\ndef send(client, message)\n    return client\n")
    write(project / "b_bad.py", UNFIXABLE)
    run = check("--format", "json", ".")
    found = [(d["path"], d["line"], d["code"]) for d in run.json()["diagnostics"]]
    assert ("a_broken.py", 3, "AC000") in found
    assert ("b_bad.py", 2, "AC107") in found
    assert run.exit_code == 1


@pytest.mark.parametrize(
    "source, line, column",
    [
        ("import a2a\nx = (1,\ny = 2\n", 2, 5),
        ("import a2a\ndef f(:\n    pass\n", 2, 7),
        ("import a2a\nx = 1\nx = 'unterminated\n", 3, 5),
    ],
)
def test_syntax_error_position_is_where_python_reports_it(project, check, source, line, column):
    write(project / "broken.py", source)
    (diagnostic,) = check("--format", "json", "broken.py").json()["diagnostics"]
    assert (diagnostic["code"], diagnostic["line"], diagnostic["column"]) == ("AC000", line, column)
    assert diagnostic["message"].startswith("syntax error: ")


def test_non_utf8_file_is_one_clear_ac000(project, check):
    write(project / "latin.py", b"import a2a\nname = 'caf\xe9'\n")
    run = check("latin.py")
    assert run.exit_code == 1
    (diagnostic,) = check("--format", "json", "latin.py").json()["diagnostics"]
    assert diagnostic["code"] == "AC000"
    assert "decode" in diagnostic["message"] and "encoding" in diagnostic["message"]


def test_bad_files_print_no_traceback(project):
    write(project / "broken.py", "import a2a\ndef f(:\n")
    write(project / "latin.py", b"import a2a\nname = 'caf\xe9'\n")
    run = run_installed("check", "--no-cache", ".", cwd=project)
    assert run.exit_code == 1
    assert "Traceback" not in run.stderr + run.stdout
    assert run.stdout.count("AC000") == 2


def test_a_crashing_rule_is_an_internal_error_and_the_run_goes_on(project, check, plugin_rule):
    write(project / "bad.py")
    run = check("--no-cache", "--select", "AC107,AC991", "bad.py")
    assert run.exit_code == 2
    assert "internal error in AC991 (crashes) on bad.py: RuntimeError: boom" in run.stderr
    assert "please report this as a bug" in run.stderr and "Traceback" not in run.stderr
    assert run.stdout.startswith("bad.py:6:27: AC107")


# --- the cache ---------------------------------------------------------------------------------


def _cache_entries(project):
    """The findings entries of the cache (each module's facts sit beside them)."""
    return [p for p in (project / ".a2alint_cache").rglob("*.json")]


def test_cache_is_created_with_a_gitignore_and_serves_the_second_run(project, check, monkeypatch):
    write(project / "bad.py")
    first = check("--format", "json", "--select", "AC107", "bad.py")
    assert (project / ".a2alint_cache" / ".gitignore").read_text().strip().endswith("*")
    assert len(_cache_entries(project)) == 1

    def never(*args, **kwargs):
        raise AssertionError("a cached file was parsed again")

    monkeypatch.setattr(Linter, "prepare", never)
    second = check("--format", "json", "--select", "AC107", "bad.py")
    assert second.json()["diagnostics"] == first.json()["diagnostics"]
    assert first.exit_code == second.exit_code == 1


def test_a_cache_entry_edited_by_hand_is_never_served(project, check):
    """Entries are signed with a key kept outside the checked tree: a committed or forged
    entry (an empty list of findings, or invented ones) is a miss."""
    write(project / "bad.py")
    check("--select", "AC107", "bad.py")
    (entry,) = _cache_entries(project)
    raw = entry.read_bytes()
    entry.write_bytes(raw[:32] + b'{"depends": "", "diagnostics": []}')
    assert check("--select", "AC107", "--format", "json", "bad.py").codes() == ["AC107"]
    entry.write_bytes(b"\0" * 32 + raw[32:].replace(b"json.dumps", b"forged"))
    run = check("--select", "AC107", "--format", "json", "bad.py")
    assert [d["message"] for d in run.json()["diagnostics"]] == [d["message"] for d in check("--no-cache", "--select", "AC107", "--format", "json", "bad.py").json()["diagnostics"]]


def test_cache_misses_when_the_settings_change(project, check):
    write(project / "bad.py")
    check("--select", "AC107", "bad.py")
    assert check("--select", "AC000", "bad.py").exit_code == 0
    assert len(_cache_entries(project)) == 2


@pytest.mark.parametrize("corrupt", ["{not json", "[[]]", "null", '[{"path": "bad.py"}]', "{}"])
def test_corrupt_cache_entry_is_a_miss(project, check, corrupt):
    write(project / "bad.py")
    check("--select", "AC107", "bad.py")
    (entry,) = _cache_entries(project)
    entry.write_bytes(entry.read_bytes()[:32] + corrupt.encode())
    run = check("--select", "AC107", "--format", "json", "bad.py")
    assert run.codes() == ["AC107"]


def test_no_cache_writes_nothing(project, check):
    write(project / "bad.py")
    assert check("--no-cache", "bad.py").exit_code == 1
    assert not (project / ".a2alint_cache").exists()


def test_clean_removes_the_cache(project, check, a2alint):
    write(project / "bad.py")
    check("bad.py")
    assert (project / ".a2alint_cache").is_dir()
    assert a2alint("clean").stdout == "Removed .a2alint_cache/\n"
    assert not (project / ".a2alint_cache").exists()
    assert a2alint("clean").stdout == "No .a2alint_cache/ here\n"


# --- other commands ----------------------------------------------------------------------------


def test_rule_prints_the_documentation(a2alint):
    run = a2alint("rule", "AC107")
    assert run.exit_code == 0
    assert run.stdout.startswith("# AC107 unstable-contract-hash (error)")
    for section in ("## What it does", "## Why is this bad?", "## Example", "## Use instead", "## Covers"):
        assert section in run.stdout


def test_rule_all_lists_every_code_with_name_and_severity(a2alint):
    from a2alint.registry import load_rules

    lines = a2alint("rule", "--all").stdout.splitlines()
    assert [line.split()[0] for line in lines] == list(load_rules())
    assert any(line.split()[:3] == ["AC107", "unstable-contract-hash", "error"] for line in lines)


def test_rule_all_marks_preview_rules(a2alint, plugin_rule):
    (line,) = [line for line in a2alint("rule", "--all").stdout.splitlines() if line.startswith(plugin_rule.code)]
    assert "warning, preview" in line


def test_rule_with_unknown_code_is_a_usage_error(a2alint):
    run = a2alint("rule", "AC999")
    assert run.exit_code == 2
    assert "AC999" in run.stderr


@pytest.mark.parametrize("command", [("--version",), ("-m", "a2alint", "--version")])
def test_version(project, command):
    run = run_installed(*command, cwd=project)
    assert run.exit_code == 0
    assert run.stdout == f"a2alint {__version__}\n"


@pytest.mark.parametrize("how", [(), ("-m", "a2alint")])
def test_the_program_exits_with_the_commands_code_and_all_of_its_output(project, how):
    """The program leaves without tearing down the run: what it printed still arrives
    whole, and its exit code is the command's (1 findings, 2 usage, 0 clean)."""
    write(project / "bad.py", UNFIXABLE)
    write(project / "good.py", CLEAN)
    found = run_installed(*how, "check", "--format", "json", "bad.py", cwd=project)
    assert found.exit_code == 1
    assert json.loads(found.stdout)["diagnostics"]
    assert run_installed(*how, "check", "good.py", cwd=project).exit_code == 0
    missing = run_installed(*how, "check", "nope.py", cwd=project)
    assert missing.exit_code == 2
    assert "nope.py" in missing.stderr


def test_python_m_does_not_import_the_checked_projects_modules(project):
    """A project's own click.py must not shadow a2alint's click under ``python -m``."""
    (project / "click.py").write_text("raise SystemExit('the project module was imported')\n", encoding="utf-8")
    run = run_installed("-m", "a2alint", "--version", cwd=project)
    assert run.exit_code == 0, run.stderr
    assert run.stdout == f"a2alint {__version__}\n"


def test_a_cached_run_reports_exactly_what_a_fresh_run_reports(project, check):
    write(project / "bad.py")
    fresh = check("--format", "sarif", "bad.py")
    assert _cache_entries(project)
    assert check("--format", "sarif", "bad.py").stdout == fresh.stdout


def test_a_crash_is_exit_2_with_its_traceback_never_1(monkeypatch, capsys):
    """Exit 1 means findings: an internal error must not look like them to CI."""
    from a2alint import cli

    def crash(**_):
        raise RuntimeError("boom")

    monkeypatch.setattr(cli, "main", crash)
    with pytest.raises(SystemExit) as leaving:
        cli.run(hard_exit=False)
    assert leaving.value.code == 2
    err = capsys.readouterr().err
    assert "RuntimeError: boom" in err and "internal error" in err
