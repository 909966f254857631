"""``--fix``, ``--unsafe-fixes`` and ``--diff``: what is written, and how."""

from __future__ import annotations

import os
import stat

import pytest

import libcst as cst

import a2alint.cli as cli_module
import a2alint.fixes
from a2alint.registry import load_rules
from a2alint.rule import Replace
from conftest import DIGESTS, FIXABLE, FIXED, UNFIXABLE, PrintIsPreview, cross_module_project, write

LATIN1 = "# -*- coding: latin-1 -*-\n" + FIXABLE + "OWNER = 'Zoë Müller'\n"


def test_fix_applies_the_fix_and_exits_0_when_nothing_remains(project, check):
    path = write(project / "bad.py")
    run = check("--select", "AC107", "--fix", "--unsafe-fixes", "bad.py")
    assert run.exit_code == 0
    assert run.stdout == "Fixed 1 finding.\nAll checks passed (1 file checked).\n"
    assert path.read_text() == FIXED


def test_fix_exits_1_for_the_findings_it_cannot_fix(project, check):
    write(project / "a.py", UNFIXABLE)
    write(project / "b.py")
    run = check("--select", "AC107", "--fix", "--unsafe-fixes", ".")
    assert run.exit_code == 1
    assert "Fixed 1 finding." in run.stdout
    assert run.stdout.count("AC107") == 1 and "a.py:2:21: AC107" in run.stdout
    assert (project / "a.py").read_text() == UNFIXABLE


def test_fix_twice_changes_nothing_the_second_time(project, check):
    path = write(project / "bad.py")
    check("--fix", "--unsafe-fixes", "bad.py")
    once = path.read_bytes()
    run = check("--fix", "--unsafe-fixes", "bad.py")
    assert path.read_bytes() == once
    assert "Fixed" not in run.stdout


def test_fix_keeps_crlf_line_endings(project, check):
    path = write(project / "bad.py", FIXABLE.replace("\n", "\r\n").encode())
    check("--fix", "--unsafe-fixes", "bad.py")
    assert path.read_bytes() == FIXED.replace("\n", "\r\n").encode()


def test_fix_keeps_a_declared_latin1_encoding(project, check):
    path = write(project / "bad.py", LATIN1.encode("latin-1"))
    assert check("--fix", "--unsafe-fixes", "bad.py").exit_code == 0
    assert path.read_bytes() == LATIN1.replace("json.dumps(contract)", "json.dumps(contract, sort_keys=True)").encode("latin-1")


def test_fix_keeps_a_utf8_bom(project, check):
    path = write(project / "bad.py", b"\xef\xbb\xbf" + FIXABLE.encode())
    check("--fix", "--unsafe-fixes", "bad.py")
    assert path.read_bytes() == b"\xef\xbb\xbf" + FIXED.encode()


def test_fix_keeps_the_file_mode(project, check):
    path = write(project / "bad.py")
    path.chmod(0o751)
    check("--fix", "--unsafe-fixes", "bad.py")
    assert stat.S_IMODE(path.stat().st_mode) == 0o751
    assert path.read_text() == FIXED


def test_fix_replaces_the_file_atomically_and_leaves_no_temporary_file(project, check):
    path = write(project / "bad.py")
    before = path.stat().st_ino
    check("--fix", "--unsafe-fixes", "bad.py")
    assert path.stat().st_ino != before  # a new file renamed over the old one
    assert sorted(p.name for p in project.iterdir() if p.name != ".a2alint_cache") == ["bad.py"]


def refuse_writes(monkeypatch) -> None:
    """Every fixed file's write fails, as in a folder the user may not write to."""

    def refuse(source, target):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(a2alint.fixes.os, "replace", refuse)


def test_failed_write_leaves_the_original_intact(project, check, monkeypatch):
    path = write(project / "bad.py")
    refuse_writes(monkeypatch)
    run = check("--fix", "--unsafe-fixes", "bad.py")
    assert path.read_text() == FIXABLE
    assert "bad.py: not fixed: Permission denied" in run.stderr
    assert [p.name for p in project.iterdir() if p.suffix != ""] == ["bad.py"]
    assert run.exit_code == 1


def test_file_changed_on_disk_while_checking_is_not_overwritten(project, check, edited_meanwhile):
    path = write(project / "bad.py")
    edited_meanwhile(FIXABLE + "# edited meanwhile\n")
    run = check("--fix", "--unsafe-fixes", "bad.py")
    assert path.read_text() == FIXABLE + "# edited meanwhile\n"
    assert "bad.py: not fixed: changed on disk while checking" in run.stderr
    assert run.exit_code == 1 and "bad.py:6:27: AC107" in run.stdout


# --- --diff -----------------------------------------------------------------------------------


def test_diff_prints_a_unified_diff_writes_nothing_and_exits_1(project, check):
    path = write(project / "bad.py")
    run = check("--diff", "--unsafe-fixes", "bad.py")
    assert run.exit_code == 1
    assert path.read_text() == FIXABLE
    lines = run.stdout.splitlines()
    assert lines[:2] == ["--- a/bad.py", "+++ b/bad.py"]
    assert "-    return hashlib.sha256(json.dumps(contract).encode()).hexdigest()" in lines
    assert "+    return hashlib.sha256(json.dumps(contract, sort_keys=True).encode()).hexdigest()" in lines


@pytest.mark.parametrize("output_format", ["json", "sarif", "github"])
def test_diff_is_the_whole_output_in_any_format(project, check, output_format):
    write(project / "bad.py")
    run = check("--diff", "--unsafe-fixes", "--format", output_format, "bad.py")
    assert run.stdout.startswith("--- a/bad.py\n+++ b/bad.py\n")
    assert all(line[:1] in " +-@" for line in run.stdout.splitlines())


def test_diff_without_fixes_prints_nothing_and_exits_0(project, check):
    write(project / "bad.py", UNFIXABLE)
    run = check("--diff", "--unsafe-fixes", "bad.py")
    assert (run.exit_code, run.stdout) == (0, "")


def test_diff_with_exit_zero_exits_0(project, check):
    write(project / "bad.py")
    assert check("--diff", "--unsafe-fixes", "--exit-zero", "bad.py").exit_code == 0


# --- unsafe fixes (with the test-only rule, whose fix is unsafe) --------------------------------

PRINTS = "import a2a\nprint('hi')\n"


@pytest.mark.parametrize(
    "args, fixed",
    [
        (("--fix",), False),
        (("--fix", "--unsafe-fixes"), True),
    ],
)
def test_unsafe_fixes_only_with_unsafe_fixes(project, check, plugin_rule, args, fixed):
    path = write(project / "p.py", PRINTS)
    run = check("--preview", *args, "p.py")
    assert path.read_text() == (PRINTS.replace("print", "log") if fixed else PRINTS)
    assert run.exit_code == (0 if fixed else 1)


def test_unsafe_fix_is_not_marked_fixable_in_text(project, check, plugin_rule):
    write(project / "p.py", PRINTS)
    run = check("--preview", "--select", plugin_rule.code, "p.py")
    assert "AC990 print called" in run.stdout and "[*]" not in run.stdout
    assert "fixable" not in run.stdout


def test_diff_with_unsafe_fixes_shows_them(project, check, plugin_rule):
    write(project / "p.py", PRINTS)
    assert check("--preview", "--diff", "p.py").stdout == ""
    run = check("--preview", "--diff", "--unsafe-fixes", "p.py")
    assert "-print('hi')\n+log('hi')\n" in run.stdout
    assert (project / "p.py").read_text() == PRINTS


def test_fix_that_would_not_parse_is_not_written(project, check, monkeypatch):
    path = write(project / "bad.py")
    monkeypatch.setattr("a2alint.runner.parsed", lambda source: None)
    run = check("--fix", "--unsafe-fixes", "bad.py")
    assert path.read_text() == FIXABLE
    assert run.exit_code == 1
    assert "Fixed" not in run.stdout


def test_fix_keeps_other_file_bytes_unchanged(project, check):
    source = FIXABLE.replace("import hashlib, json\n", "import hashlib, json\t# tabs\x0c and form feeds  \n")
    path = write(project / "bad.py", source)
    check("--fix", "--unsafe-fixes", "bad.py")
    assert path.read_text() == source.replace("json.dumps(contract)", "json.dumps(contract, sort_keys=True)")


def test_fix_ignores_its_cache_and_rewrites_after_a_cached_run(project, check):
    path = write(project / "bad.py")
    check("bad.py")  # fills the cache
    check("--fix", "--unsafe-fixes", "bad.py")
    assert path.read_text() == FIXED
    assert os.listdir(project / ".a2alint_cache")


# --- overlapping fixes and line endings ------------------------------------------------------


class WrapsCalls(PrintIsPreview):
    """Replaces every whole ``print(...)`` call (a safe fix): nested calls overlap."""

    code = "AC993"
    name = "wraps-calls"

    def check(self, model) -> None:
        rule = self

        class Visitor(cst.CSTVisitor):
            def visit_Call(self, node: cst.Call) -> None:
                if isinstance(node.func, cst.Name) and node.func.value == "print":
                    rule.report(node, "print called", fix=Replace(node, node.with_changes(func=cst.Name("log")), "safe"))

        model.module.visit(Visitor())


def test_overlapping_fixes_are_applied_in_passes_until_nothing_is_left(project, check, monkeypatch):
    registry = {**load_rules(), WrapsCalls.code: WrapsCalls}
    monkeypatch.setattr(cli_module, "load_rules", lambda: registry)
    path = write(project / "p.py", "import a2a\nprint(print(print(1)))\n")
    run = check("--select", "AC993", "--fix", "p.py")
    assert path.read_text() == "import a2a\nlog(log(log(1)))\n"
    assert (run.exit_code, run.stdout.splitlines()[0]) == (0, "Fixed 3 findings.")


def test_fix_passes_are_bounded(project, check, monkeypatch):
    registry = {**load_rules(), WrapsCalls.code: WrapsCalls}
    monkeypatch.setattr(cli_module, "load_rules", lambda: registry)
    monkeypatch.setattr("a2alint.runner.MAX_FIX_PASSES", 2)
    path = write(project / "p.py", "import a2a\nprint(print(print(1)))\n")
    run = check("--select", "AC993", "--fix", "p.py")
    assert path.read_text() == "import a2a\nlog(log(print(1)))\n"  # two whole passes, and the rest reported
    assert run.exit_code == 1 and "p.py:2:9: AC993" in run.stdout


def test_fix_keeps_cr_line_endings(project, check):
    path = write(project / "bad.py", FIXABLE.replace("\n", "\r").encode())
    assert check("--fix", "--unsafe-fixes", "bad.py").exit_code == 0
    assert path.read_bytes() == FIXED.replace("\n", "\r").encode()


# --- a fix whose finding rests on another module ------------------------------------------


def test_a_fix_of_a_finding_that_rests_on_another_module_is_applied_to_the_file_named(project, check):
    write(project / "pyproject.toml", "[tool.a2alint]\n")  # a project root: client.py is read for digests.py
    digests = cross_module_project(project)
    run = check("--fix", "--unsafe-fixes", "digests.py")
    assert (run.exit_code, run.stdout) == (0, "Fixed 1 finding.\nAll checks passed (2 files checked).\n")  # with client.py
    assert digests.read_text() == DIGESTS.replace("json.dumps(terms)", "json.dumps(terms, sort_keys=True)")


def test_a_fix_that_cannot_be_written_keeps_the_finding_the_project_gave(project, check, monkeypatch):
    digests = cross_module_project(project)
    refuse_writes(monkeypatch)
    run = check("--fix", "--unsafe-fixes", ".")
    assert digests.read_text() == DIGESTS
    assert "digests.py: not fixed: Permission denied" in run.stderr
    assert run.exit_code == 1 and "digests.py:6:27: AC107" in run.stdout


def test_each_fixed_file_s_check_again_frees_its_analysis(project, check, monkeypatch):
    """A fixed file is checked again against the project with its new text, in an analysis
    of its own; kept until the run's end (the collector is off), those made --fix of 1,500
    files take 4.5 GB. Each is released as soon as its findings are out."""
    from a2alint.values import Analysis

    released = []
    real = Analysis.release
    monkeypatch.setattr(Analysis, "release", lambda self: released.append(1) or real(self))
    for index in range(3):
        write(project / f"peer_{index}.py")
    assert check("--fix", "--unsafe-fixes", "--no-cache", ".").exit_code == 0
    assert len(released) >= 3  # one for each file checked again (at least)
