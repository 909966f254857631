"""The pre-scan that measures nesting before libcst parses reads strings, comments and
brackets as Python's tokenizer does: a deeply nested file is one ``AC000`` whatever the
spelling of the strings before its brackets (libcst's native parser would kill the whole
process with a segfault), and brackets inside strings or comments do not count. A file
libcst refuses but Python accepts says so in its ``AC000``."""

from __future__ import annotations

import os
import subprocess
import shutil
import sys
from pathlib import Path

import libcst as cst
import pytest

import a2alint.runner
from a2alint.nesting import Nesting
from a2alint.registry import load_rules
from a2alint.runner import lint_source
from conftest import run_installed, write

A2A = "from a2a.client import A2ACardResolver\n"
DEEP = "(" * 5000 + "1" + ")" * 5000
EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "host_agent.py"
PEP_701 = pytest.mark.skipif(sys.version_info < (3, 12), reason="f-strings reuse their quotes from Python 3.12 (PEP 701)")

#: name -> a statement that nests 5,000 brackets after a string spelled so that the old
#: pre-scan took the brackets for part of a string (or of a comment) and let them through.
DEEP_SPELLINGS = {
    "after_if": 'y = 0 if"." else ' + DEEP + "\n",
    "after_return": 'def f():\n    return"(" + ' + DEEP + "\n",
    "after_else": 'y = 0 if x else")" + ' + DEEP + "\n",
    "hash_after_if": 'y = 0 if"#" else ' + DEEP + "\n",
}
#: The same with f-strings that reuse their quote inside a replacement field (PEP 701).
DEEP_FSTRINGS = {
    "fstring_double_in_double": 'y = f"{"\'"}" + ' + DEEP + "\n",
    "fstring_single_in_double": 'y = f"{\'"\'}" + ' + DEEP + "\n",
    "fstring_paren_in_field": 'y = f"{"("}" + ' + DEEP + "\n",
}
TOO_DEEP = "too many nested parentheses"


def _ac000(result) -> list[str]:
    return [d.message for d in result.diagnostics if d.code == "AC000"]


# The pre-scan on its own (fast, and it cannot crash the test run before the fix).


@pytest.mark.parametrize("text", [*DEEP_SPELLINGS.values(), *DEEP_FSTRINGS.values()], ids=[*DEEP_SPELLINGS, *DEEP_FSTRINGS])
def test_the_pre_scan_finds_deep_brackets_after_any_spelling_of_a_string(text):
    """libcst reads f-strings as PEP 701 does on every Python version: so does the pre-scan."""
    refusal = Nesting.of(A2A + text).refusal
    assert refusal is not None and TOO_DEEP in refusal[2]


@pytest.mark.parametrize(
    "text",
    [
        'x = 1 if"' + "(" * 300 + '" else 2\n',
        'def f():\n    return"' + "(" * 300 + '"\n',
        'x = 1 if y else"' + "[" * 300 + '"\n',
        's = "abc\\\r\n' + "(" * 300 + '"\r\n',  # a backslash and CRLF go on with the string
        "s = b'\\\\' + r'\\'' + '" + "{" * 300 + "'\n",
        's = "((((" * 1\n' * 300,
        's = "' + "(" * 300 + '"\n',
        "s = '''\n" + "(" * 300 + "\n'''\n",
        "x = 1  # " + "(" * 300 + "\n",
        "x = [  # " + "(" * 300 + "\n    1,\n]\n",
        "# " + "(" * 300 + "\nx = 1\n",
        'x = f"{{" + f"{1:{2}}" + f"{{((((((((((((((((((((((((((((((((((((((((}}"' + "\n",
        'x = f"\\N{LEFT PARENTHESIS}' + "(" * 300 + '"\n',
    ],
    ids=[
        "after_if", "after_return", "after_else", "crlf_continuation", "escaped_quotes", "repeated",
        "string_of_300", "triple_quoted", "comment", "comment_in_brackets", "comment_line", "fstring_braces",
        "fstring_named_escape",
    ],
)
def test_brackets_in_strings_and_comments_do_not_count(text):
    source = A2A + text
    compile(source, "<test>", "exec")  # valid Python
    assert Nesting.of(source).depth < 10
    assert _ac000(lint_source(source)) == []


@pytest.mark.parametrize(
    "text",
    [
        'x = f"{"' + "(" * 300 + '"}"\n',
        "x = f'{f\"{f'{\"" + "(" * 300 + "\"}'}\"}'\n",
        'x = f"""{\n    "a"  # ' + "(" * 300 + '\n}"""\n',
    ],
    ids=["nested_string", "nested_fstrings", "comment_in_field"],
)
def test_brackets_in_strings_nested_in_fstrings_do_not_count(text):
    """libcst reads these on every Python version (Python itself from 3.12)."""
    source = A2A + text
    if sys.version_info >= (3, 12):
        compile(source, "<test>", "exec")
    assert Nesting.of(source).depth < 10
    assert _ac000(lint_source(source)) == []


def test_brackets_in_a_replacement_field_count():
    refusal = Nesting.of(A2A + 'x = f"{' + DEEP + '}"\n').refusal
    assert refusal is not None and TOO_DEEP in refusal[2]
    assert Nesting.of(A2A + 'x = f"{a:{b}>{(c)}}" + f"{d!r:>10}" + f"{[e][0]=}"\n').refusal is None


# The installed program: a deep file is one AC000, and the process lives on to check the others.


def _check_installed(tmp_path: Path, deep: dict[str, str]):
    shutil.copy(EXAMPLE, tmp_path / "host_agent.py")
    alone = run_installed("-m", "a2alint", "check", "--no-cache", "--format", "json", "host_agent.py", cwd=tmp_path)
    expected = [(d["code"], d["line"]) for d in alone.json()["diagnostics"]]
    assert alone.exit_code == 1 and expected
    for name, text in deep.items():
        write(tmp_path / f"{name}.py", A2A + text)
    run = run_installed("-m", "a2alint", "check", "--no-cache", "--format", "json", ".", cwd=tmp_path)
    assert run.exit_code == 1, (run.exit_code, run.stderr[-2000:])  # not a crash (-11, 139)
    diagnostics = run.json()["diagnostics"]
    for name in deep:
        found = [d for d in diagnostics if d["path"] == f"{name}.py"]
        assert [d["code"] for d in found] == ["AC000"], name
        assert TOO_DEEP in found[0]["message"]
    assert [(d["code"], d["line"]) for d in diagnostics if d["path"] == "host_agent.py"] == expected


def test_a_deep_file_after_if_and_a_string_is_one_ac000_and_the_others_are_still_checked(tmp_path):
    _check_installed(tmp_path, {"deep": DEEP_SPELLINGS["after_if"]})


def test_every_spelling_of_a_deep_file_is_one_ac000(tmp_path):
    _check_installed(tmp_path, DEEP_SPELLINGS)


@PEP_701
def test_deep_files_after_fstrings_that_reuse_their_quotes_are_one_ac000(tmp_path):
    _check_installed(tmp_path, DEEP_FSTRINGS)


# Files libcst refuses: a syntax error when Python refuses them too, libcst's limit otherwise.

TABS = A2A + "def f(x):\n\tif x:\n        \tpass\n"  # Python accepts this indentation, libcst does not


def test_a_valid_file_libcst_cannot_parse_is_said_to_be_valid():
    with pytest.raises(cst.ParserSyntaxError):
        cst.parse_module(TABS)
    compile(TABS, "<test>", "exec")
    [message] = _ac000(lint_source(TABS))
    assert message.startswith("cannot parse: Python accepts this file but a2alint's parser does not (")
    assert "syntax error" not in message


def test_a_file_python_refuses_is_a_syntax_error():
    [diagnostic] = [d for d in lint_source(A2A + "x = (1,\n").diagnostics if d.code == "AC000"]
    assert diagnostic.message == "syntax error: '(' was never closed"
    assert diagnostic.line == 2


def _libcst_refuses(monkeypatch, message: str) -> None:
    """libcst's nodes refuse what its native parser made of the file (as its validation does)."""

    def refuse(source, *args, **kwargs):
        raise cst.CSTValidationError(message)

    monkeypatch.setattr(a2alint.runner.cst, "parse_module", refuse)


def test_a_validation_error_on_a_valid_file_names_libcst_s_complaint(monkeypatch):
    _libcst_refuses(monkeypatch, "Must have at least one space around comparison operator.")
    [message] = _ac000(lint_source(A2A + "x = 1if True else 2\n"))
    assert message == (
        "cannot parse: Python accepts this file but a2alint's parser does not "
        "(Must have at least one space around comparison operator.); please report this as a bug"
    )


def test_a_validation_error_on_an_invalid_file_is_python_s_syntax_error(monkeypatch):
    _libcst_refuses(monkeypatch, "Must have at least one space around comparison operator.")
    [diagnostic] = [d for d in lint_source(A2A + "x = (1,\n").diagnostics if d.code == "AC000"]
    assert diagnostic.message == "syntax error: '(' was never closed"
    assert (diagnostic.line, diagnostic.column) == (2, 5)


def _deep_valid_file(tmp_path):
    path = tmp_path / "deep.py"
    path.write_text("from a2a.client import A2ACardResolver\n\nx = " + "(" * 150 + "1" + ")" * 150 + "\n", encoding="utf-8")
    return path


def test_a_crash_of_the_native_parser_takes_only_its_own_file(tmp_path, monkeypatch):
    """Native code that dies cannot be caught: a deep file is parsed first in a forked
    child, so if the parser crashes only that child dies, and the file is one AC000."""
    import signal

    from a2alint import runner
    from a2alint.config import Settings

    deep = _deep_valid_file(tmp_path)
    monkeypatch.setattr(runner, "PARSE", lambda text: os.kill(os.getpid(), signal.SIGSEGV))
    linter = runner.Linter(load_rules())
    result = runner.read_and_check(linter, "deep.py", deep, Settings(root=tmp_path))
    assert [d.code for d in result.diagnostics] == ["AC000"]
    assert "crashed" in result.diagnostics[0].message


def test_a_deep_file_the_parser_reads_is_checked_as_usual(tmp_path):
    from a2alint import runner
    from a2alint.config import Settings

    result = runner.read_and_check(runner.Linter(load_rules()), "deep.py", _deep_valid_file(tmp_path), Settings(root=tmp_path))
    assert [d.code for d in result.diagnostics if d.code == "AC000"] == []


def _elif_chain(count: int, indent: str = "    ") -> str:
    lines = ["def route(x):", f"{indent}if x == 0:", f"{indent}    return 0"]
    for i in range(1, count):
        lines += [f"{indent}elif x == {i}:", f"{indent}    return {i}"]
    return "\n".join(lines) + f"\n{indent}else:\n{indent}    return -1\n"


def test_an_elif_chain_weighs_as_nesting_and_separate_chains_do_not_add_up():
    from a2alint.nesting import ELIFS_PER_LEVEL, ROOMY

    assert Nesting.of(A2A + _elif_chain(1001)).depth >= 1000 // ELIFS_PER_LEVEL > ROOMY  # (1,000 elifs after the if)
    separate = "\n\n".join(_elif_chain(300).replace("def route", f"def route_{n}") for n in range(10))
    assert Nesting.of(A2A + separate).depth <= 300 // ELIFS_PER_LEVEL


def test_a_chain_of_9000_elifs_is_parsed_on_the_roomy_thread_not_a_crash(tmp_path):
    """Each ``elif`` is an ``if`` inside the one before to the native parser: about 8,500 in
    a chain overflowed the main thread's stack (a segfault, no output)."""
    path = write(tmp_path / "router.py", A2A + _elif_chain(9000))
    script = (
        "import sys, libcst\nfrom a2alint.nesting import Nesting\n"
        "text = open(sys.argv[1]).read()\nNesting.of(text).run(libcst.parse_module, text)\nprint('parsed')\n"
    )
    done = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True, text=True, timeout=300)
    assert (done.returncode, done.stdout) == (0, "parsed\n"), done.stderr[-500:]
