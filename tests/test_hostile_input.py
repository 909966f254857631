"""Hostile and odd input: every file gives at most one clear diagnostic or message, every
other file is still checked, and no traceback reaches the user.

What each kind of file gives (the decisions, in one place):

- cannot be parsed (Python 2, invented syntax, truncated), binary or NUL bytes, not
  decodable, over 1 MiB, more than 200 nested brackets, unreadable: one ``AC000``;
- valid but odd (every Python version's new syntax, a declared Latin-1 encoding, a BOM,
  CRLF or CR line endings, tabs and form feeds, 1,000-deep operator chains, names with
  spaces, non-ASCII or undecodable bytes): checked like any file, its findings where
  they are;
- not a file to check (empty, a broken or looping symbolic link, a pipe, a link out of
  the tree, a directory that vanishes): nothing, or one message on stderr.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import sys

import libcst as cst
import pytest

import a2alint.cli as cli_module
import a2alint.discovery
import a2alint.runner
from a2alint.registry import load_rules
from conftest import FIXABLE, FIXED, UNFIXABLE, Crashes, run_installed, write

#: Makes a file reach the parser (files without A2A code are settled on their bytes).
A2A = "from a2a.client import A2ACardResolver\n"
#: A finding at line 2, column 21 of UNFIXABLE.
FINDING = ("AC107", 2, 21)


def _generated_module() -> bytes:
    """A generated module of about 5 MB that also imports the A2A SDK."""
    rows = "".join(f"ROW_{i} = {{'id': {i}, 'next': [{i + 1}, {i + 2}], 'name': 'row {i}'}}\n" for i in range(90_000))
    return (A2A + rows).encode()


#: name -> (bytes, what it gives: "finding", "nothing", or a phrase of its one AC000 message)
CASES = {
    "python2.py": ((A2A + "print 'hello'\n").encode(), "Missing parentheses"),
    "invented_syntax.py": ((A2A + "x = a ?? b\n").encode(), "syntax error"),
    "truncated.py": ((A2A + "def f(x):\n    return (x +\n").encode(), "was never closed"),
    "nul.py": (A2A.encode() + b"x = 1\x00\n", "NUL bytes"),
    "binary.py": (bytes(range(256)) * 8, "NUL bytes"),
    "latin1.py": (A2A.encode() + b"x = 'caf\xe9'\n", "cannot decode"),
    "latin1_declared.py": (b"# -*- coding: latin-1 -*-\n" + UNFIXABLE.encode() + b"OWNER = 'Zo\xeb'\n", ("AC107", 3, 21)),
    "bom.py": (b"\xef\xbb\xbf" + UNFIXABLE.encode(), FINDING),
    "crlf.py": (UNFIXABLE.replace("\n", "\r\n").encode(), FINDING),
    "cr.py": (UNFIXABLE.replace("\n", "\r").encode(), FINDING),
    "cr_noqa.py": (UNFIXABLE.replace("\n", "  # noqa: AC107\r").encode(), "nothing"),
    "tabs_form_feeds.py": (("\x0c" + UNFIXABLE + "if True:\n\tx = 1\n\x0c\n").encode(), FINDING),
    "empty.py": (b"", "nothing"),
    "generated_5mb.py": (_generated_module(), "too large"),
    "deep_parens.py": ((A2A + "x = " + "(" * 1000 + "1" + ")" * 1000 + "\n").encode(), "too many nested parentheses"),
    "deep_lists.py": ((A2A + "x = " + "[" * 1000 + "]" * 1000 + "\n").encode(), "too many nested parentheses"),
    "deep_sum.py": ((UNFIXABLE + "x = " + " + ".join(["a"] * 1000) + "\n").encode(), FINDING),
    "deep_sum_over_the_limit.py": ((A2A + "x = " + " + ".join(["a"] * 1200) + "\n").encode(), "nested too deeply"),
    "deep_lambdas.py": ((A2A + "x = " + "lambda: " * 5000 + "1\n").encode(), "nested too deeply"),  # was a segfault
    "many_strings.py": ((UNFIXABLE + "x = (" + "\n".join(["'line'"] * 900) + ")\n").encode(), FINDING),
    "with space.py": (UNFIXABLE.encode(), FINDING),
    "ünïcødé_名前.py": (UNFIXABLE.encode(), FINDING),
}

#: Each Python version's new syntax, after a finding: read (the finding) or, by a libcst
#: that cannot, one AC000.
NEW_SYNTAX = {
    "3.8": "def g(a, /, b):\n    if (n := a) > b:\n        return n\n",
    "3.9": "@buttons[0].clicked.connect\ndef h(): pass\n",
    "3.10": "match command:\n    case [x, *rest] if x:\n        pass\n    case {'k': v}:\n        pass\n",
    "3.10-with": "with (open('a') as a,\n      open('b') as b):\n    pass\n",
    "3.11": "try:\n    pass\nexcept* ValueError:\n    pass\n",
    "3.12-generics": "def first[T](xs: list[T]) -> T:\n    return xs[0]\nclass Box[T]: pass\n",
    "3.12-type": "type Point = tuple[float, float]\n",
    "3.12-fstring": "name = {'a': 1}\nx = f\"{name[\"a\"]}\"\n",
    "3.13": "def g[T = int](x: T) -> T:\n    return x\n",
    "3.14-tstring": "name = 'x'\nx = t'hello {name}'\n",
    "3.14-except": "try:\n    pass\nexcept ValueError, TypeError:\n    pass\n",
}


def _report(check, *args: str):
    run = check("--no-cache", "--format", "json", *args)
    assert run.exit_code in (0, 1), run.stderr
    assert "Traceback" not in run.stderr
    return run, run.json()["diagnostics"]


@pytest.mark.parametrize("name", list(CASES))
def test_each_hostile_file_gives_one_clear_result(project, check, name):
    data, expected = CASES[name]
    write(project / name, data)
    write(project / "client.py", UNFIXABLE)  # another file, still checked
    run, diagnostics = _report(check, "--select", "AC000,AC107", ".")
    mine = [d for d in diagnostics if d["path"] == name]
    assert [d["path"] for d in diagnostics if d["path"] != name] == ["client.py"]
    if expected == "nothing":
        assert mine == []
    elif isinstance(expected, tuple):
        assert [(d["code"], d["line"], d["column"]) for d in mine] == [expected]
    else:
        (diagnostic,) = mine
        assert diagnostic["code"] == "AC000" and expected in diagnostic["message"], diagnostic["message"]
    assert run.exit_code == 1


@pytest.mark.parametrize("version", list(NEW_SYNTAX))
def test_every_python_versions_syntax_is_read_or_one_ac000(project, check, version):
    write(project / "new.py", UNFIXABLE + NEW_SYNTAX[version])
    _, diagnostics = _report(check, "--select", "AC000,AC107", "new.py")
    (diagnostic,) = diagnostics
    assert (diagnostic["code"], diagnostic["line"]) in (("AC107", 2), ("AC000", diagnostic["line"]))


def test_a_huge_file_is_not_read_whole(project, check, monkeypatch):
    big = write(project / "big.py", A2A.encode() + b"#" * (3 * 1024 * 1024) + b"\n")
    sizes = []
    real = a2alint.runner.read_source

    def spy(path, *limit):
        data = real(path, *limit)
        sizes.append(len(data))
        return data

    monkeypatch.setattr(a2alint.runner, "read_source", spy)
    _, diagnostics = _report(check, "big.py")
    assert [d["code"] for d in diagnostics] == ["AC000"]
    assert sizes and max(sizes) <= a2alint.runner.MAX_BYTES + 1 < big.stat().st_size


def test_unreadable_file_is_one_ac000(project, check, monkeypatch):
    path = write(project / "secret.py", UNFIXABLE)
    write(project / "client.py", UNFIXABLE)
    path.chmod(0)
    if os.geteuid() == 0:  # root reads anything: refuse it the way the kernel would
        real = a2alint.runner.read_source

        def refuse(target, *limit):
            if target.name == "secret.py":
                raise PermissionError(13, "Permission denied")
            return real(target, *limit)

        monkeypatch.setattr(a2alint.runner, "read_source", refuse)
    try:
        _, diagnostics = _report(check, "--select", "AC000,AC107", ".")
    finally:
        path.chmod(0o644)
    found = [(d["path"], d["code"], d["message"]) for d in diagnostics]
    assert found == [
        ("client.py", "AC107", found[0][2]),
        ("secret.py", "AC000", "cannot read the file: Permission denied"),
    ]


def test_broken_and_looping_symlinks_are_one_message_each(project, check):
    write(project / "client.py", UNFIXABLE)
    (project / "broken.py").symlink_to(project / "nowhere.py")
    (project / "loop.py").symlink_to(project / "loop.py")
    (project / "loop_dir").symlink_to(project / "loop_dir")
    write(project / "pkg" / "mod.py", UNFIXABLE)
    (project / "pkg" / "up").symlink_to("..")  # a directory loop
    run, diagnostics = _report(check, "--select", "AC107", ".")
    assert sorted(d["path"] for d in diagnostics) == ["client.py", "pkg/mod.py"]
    assert sorted(run.stderr.splitlines()) == ["a2alint: broken.py: broken symbolic link", "a2alint: loop.py: broken symbolic link"]
    assert run.exit_code == 1
    named = check("--no-cache", "broken.py", "client.py")
    assert named.stderr == "a2alint: broken.py: broken symbolic link\n" and named.exit_code == 1


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_pipe_named_py_is_not_read(project, check):
    os.mkfifo(project / "pipe.py")
    write(project / "client.py", UNFIXABLE)
    run, diagnostics = _report(check, "--select", "AC107", "pipe.py", "client.py", ".")
    assert [d["path"] for d in diagnostics] == ["client.py"]
    assert run.stderr == "a2alint: pipe.py: not a regular file\n"


@pytest.mark.skipif(sys.platform == "darwin", reason="macOS file systems refuse names that are not UTF-8")
def test_a_file_name_that_is_not_utf8_is_reported_in_every_format_and_fixed(project, check):
    name = os.fsdecode(b"caf\xe9.py")
    write(project / name, FIXABLE)
    for output_format in ("text", "json", "sarif", "github"):
        run = check("--no-cache", "--format", output_format, "-o", f"report.{output_format}", ".")
        assert run.exit_code == 1 and "Traceback" not in run.stderr
        report = (project / f"report.{output_format}").read_text(encoding="utf-8")
        if output_format == "json":
            assert json.loads(report)["diagnostics"][0]["path"] == "caf\\xe9.py"
        else:
            assert ("caf%E9.py" if output_format == "sarif" else "caf\\xe9.py") in report  # SARIF: the real name
        assert check("--format", output_format, ".").exit_code == 1  # through the cache too
    assert check("--fix", "--unsafe-fixes", ".").exit_code == 0
    assert (project / name).read_text() == FIXED


def test_a_directory_that_vanishes_during_the_walk_is_one_message(project, check, monkeypatch):
    write(project / "client.py", UNFIXABLE)
    write(project / "gone" / "a.py", UNFIXABLE)
    real = os.scandir

    def vanishing(path):
        if isinstance(path, (str, os.PathLike)) and os.path.basename(path) == "gone":  # not shutil's own calls
            shutil.rmtree(path)
        return real(path)

    monkeypatch.setattr(a2alint.discovery.os, "scandir", vanishing)
    run, diagnostics = _report(check, "--select", "AC107", ".")
    assert [d["path"] for d in diagnostics] == ["client.py"]
    assert run.stderr == "a2alint: gone: cannot read directory: No such file or directory\n"


def test_a_file_that_vanishes_before_it_is_read_is_one_ac000(project, check, monkeypatch):
    write(project / "client.py", UNFIXABLE)
    write(project / "gone.py", UNFIXABLE)
    real = cli_module.discover

    def then_delete(*args, **kwargs):
        found = real(*args, **kwargs)
        (project / "gone.py").unlink()
        return found

    monkeypatch.setattr(cli_module, "discover", then_delete)
    _, diagnostics = _report(check, "--select", "AC000,AC107", ".")
    assert [(d["path"], d["code"]) for d in diagnostics] == [("client.py", "AC107"), ("gone.py", "AC000")]
    assert "No such file or directory" in diagnostics[1]["message"]


# --- internal errors ------------------------------------------------------------------------


class CrashesOnMarker(Crashes):
    """Raises on the files that say ``CRASH_HERE`` only."""

    code = "AC992"
    name = "crashes-on-marker"

    def check(self, model) -> None:
        if "CRASH_HERE" in model.module.code:
            raise KeyError("no such node")


@pytest.fixture
def crashing_rule(monkeypatch):
    registry = {**load_rules(), CrashesOnMarker.code: CrashesOnMarker}
    monkeypatch.setattr(cli_module, "load_rules", lambda: registry)


def test_a_rule_crashing_on_one_file_is_reported_and_everything_else_runs(project, check, crashing_rule):
    write(project / "a_crash.py", UNFIXABLE + "CRASH_HERE = 1\n")
    write(project / "b_fine.py", UNFIXABLE)
    run = check("--no-cache", "--format", "json", "--select", "AC107,AC992", ".")
    assert run.exit_code == 2
    assert sorted(d["path"] for d in run.json()["diagnostics"]) == ["a_crash.py", "b_fine.py"]  # AC107 still ran on both
    (line, request) = run.stderr.splitlines()
    assert line == "a2alint: internal error in AC992 (crashes-on-marker) on a_crash.py: KeyError: 'no such node'"
    assert request == "  please report this as a bug, with the file if you can share it"


def test_an_engine_crash_on_one_file_is_reported_without_a_traceback(project, check, monkeypatch):
    write(project / "a_crash.py", UNFIXABLE)
    write(project / "b_fine.py", UNFIXABLE)
    real = a2alint.runner.build_model

    def build(module: cst.Module, display: str):
        if display == "a_crash.py":
            raise AttributeError("'NoneType' object has no attribute 'body'")
        return real(module, display)

    monkeypatch.setattr(a2alint.runner, "build_model", build)
    run = check("--no-cache", "--format", "json", "--select", "AC107", ".")
    assert run.exit_code == 2
    assert [d["path"] for d in run.json()["diagnostics"]] == ["b_fine.py"]
    assert run.stderr.startswith("a2alint: internal error on a_crash.py: AttributeError: 'NoneType' object")
    assert "please report this as a bug" in run.stderr and "Traceback" not in run.stderr
    verbose = check("--no-cache", "--verbose", "--select", "AC107", ".")
    assert "Traceback (most recent call last)" in verbose.stderr


def test_a_fix_that_fails_half_way_writes_nothing(project, check, monkeypatch):
    path = write(project / "bad.py", FIXABLE)

    def overlapping(edited, edits):
        raise ValueError("overlapping edits")

    monkeypatch.setattr(a2alint.runner.EditedText, "edited", overlapping)
    run = check("--no-cache", "--fix", "--unsafe-fixes", "bad.py")
    assert path.read_text() == FIXABLE
    assert run.exit_code == 2 and "internal error on bad.py: ValueError: overlapping edits" in run.stderr
    assert "Fixed" not in run.stdout


# --- the whole directory, through the installed command ------------------------------------------


def _hostile_tree(root) -> dict[str, str]:
    """One of each hostile file under ``root`` plus a valid client with a known finding; the
    display path of each file that must give one message -> where ("AC000" or "stderr")."""
    expected = {}
    for name, (data, outcome) in CASES.items():
        write(root / name, data)
        if isinstance(outcome, str) and outcome != "nothing":
            expected[name] = "AC000"
    for version, body in NEW_SYNTAX.items():
        write(root / "syntax" / f"py{version.replace('.', '').replace('-', '_')}.py", UNFIXABLE + body)
    write(root / "client.py", UNFIXABLE)
    write(root / "unreadable.py", UNFIXABLE)
    (root / "unreadable.py").chmod(0)
    if os.geteuid() != 0:  # root reads it anyway
        expected["unreadable.py"] = "AC000"
    (root / "broken.py").symlink_to(root / "nowhere.py")
    (root / "loop.py").symlink_to(root / "loop.py")
    (root / "syntax" / "up").symlink_to("..")
    expected["broken.py"] = expected["loop.py"] = "stderr"
    if hasattr(os, "mkfifo"):
        os.mkfifo(root / "pipe.py")  # skipped in a walk: it is not a file
    return expected


def test_a_tree_of_hostile_files_reports_the_finding_and_one_message_per_bad_file(project):
    """In this process and in a pool of workers (over 24 files reach the parser), alike."""
    expected = _hostile_tree(project)
    try:
        runs = [run_installed("check", "--no-cache", "--jobs", jobs, "--format", "json", ".", cwd=project) for jobs in ("1", "4")]
    finally:
        (project / "unreadable.py").chmod(stat.S_IRUSR | stat.S_IWUSR)
    assert runs[0].stdout == runs[1].stdout and runs[0].stderr == runs[1].stderr
    run = runs[0]
    assert run.exit_code == 1, run.stderr
    assert "Traceback" not in run.stdout + run.stderr
    diagnostics = json.loads(run.stdout)["diagnostics"]
    assert ("client.py", 2, 21, "AC107") in [(d["path"], d["line"], d["column"], d["code"]) for d in diagnostics]
    ac000 = sorted(d["path"] for d in diagnostics if d["code"] == "AC000")
    stderr = sorted(line.split(": ")[1] for line in run.stderr.splitlines())
    assert ac000 == sorted(p for p, where in expected.items() if where == "AC000")
    assert stderr == sorted(p for p, where in expected.items() if where == "stderr")
