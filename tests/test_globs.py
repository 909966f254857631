"""Path patterns: one gitignore-style matcher for ``exclude``, ``extend-exclude`` (the config's
and ``--extend-exclude``), ``extend-include`` and ``per-file-ignores``, with ruff's ``{a,b}``
alternatives and leading ``./``; checked against the cases ruff's documentation gives."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from a2alint.globs import Patterns, expand_braces, matched
from conftest import UNFIXABLE, write
from test_discovery import _checked

#: Every file holds one AC107 finding.
TREE = (
    "__init__.py",
    "pkg/__init__.py",
    "pkg/mod.py",
    "tests/test_a.py",
    "pkg/tests/test_b.py",
    "pkg/tests/sub/test_c.py",
    "docs/conf.py",
    "tools/gen.py",
    "path/to/file.py",
    "other/path/to/file.py",
    "src/app.py",
    "src/pkg/deep.py",
    ".mypy_cache/stale.py",
    "pkg/.mypy_cache/stale.py",
)


@pytest.fixture
def tree(project: Path) -> Path:
    for name in TREE:
        write(project / name, UNFIXABLE)
    return project


def _toml_list(patterns: tuple[str, ...]) -> str:
    return json.dumps(list(patterns))  # a JSON list of strings is a TOML array of strings


def _all_but(*names: str) -> list[str]:
    return sorted(set(TREE) - set(names) - {".mypy_cache/stale.py", "pkg/.mypy_cache/stale.py"})


# --- per-file-ignores, as ruff documents it --------------------------------------------------


@pytest.mark.parametrize(
    "pattern, ignored",
    [
        ("__init__.py", ["__init__.py", "pkg/__init__.py"]),
        (
            "**/{tests,docs,tools}/*",
            ["docs/conf.py", "pkg/tests/sub/test_c.py", "pkg/tests/test_b.py", "tests/test_a.py", "tools/gen.py"],
        ),
        ("path/to/file.py", ["path/to/file.py"]),
        ("./path/to/file.py", ["path/to/file.py"]),
        ("tests", ["pkg/tests/sub/test_c.py", "pkg/tests/test_b.py", "tests/test_a.py"]),
        ("pkg/*.py", ["pkg/__init__.py", "pkg/mod.py"]),
        ("src/**/*.py", ["src/app.py", "src/pkg/deep.py"]),
    ],
)
def test_per_file_ignores_match_as_ruff_documents(tree, check, pattern, ignored):
    write(tree / "a2alint.toml", f'[per-file-ignores]\n{json.dumps(pattern)} = ["AC107"]\n')
    assert _checked(check) == _all_but(*ignored)


def test_a_per_file_ignore_with_a_bang_applies_to_every_file_but_those(tree, check):
    """ruff: ``"!src/**.py" = ["D"]`` ignores D everywhere except in src/."""
    write(tree / "a2alint.toml", '[per-file-ignores]\n"!src/**/*.py" = ["AC107"]\n')
    assert _checked(check) == ["src/app.py", "src/pkg/deep.py"]
    write(tree / "a2alint.toml", '[per-file-ignores]\n"!{src,docs}/" = ["AC107"]\n')
    assert _checked(check) == ["docs/conf.py", "src/app.py", "src/pkg/deep.py"]


def test_per_file_ignores_are_relative_to_the_folder_of_their_config(tree, check):
    write(tree / "other" / "a2alint.toml", '[per-file-ignores]\n"./path/to/file.py" = ["AC107"]\n')
    assert "other/path/to/file.py" not in _checked(check)
    assert "path/to/file.py" in _checked(check)


# --- exclude and extend-exclude ------------------------------------------------------------------


@pytest.mark.parametrize(
    "patterns, excluded",
    [
        ((".mypy_cache",), [".mypy_cache/stale.py", "pkg/.mypy_cache/stale.py"]),  # a folder by name, anywhere
        (("__init__.py", "tools"), ["__init__.py", "pkg/__init__.py", "tools/gen.py"]),
        (("**/tests/*",), ["pkg/tests/sub/test_c.py", "pkg/tests/test_b.py", "tests/test_a.py"]),
        (("{docs,tools}", "src/{app,nothing}.py"), ["docs/conf.py", "src/app.py", "tools/gen.py"]),
        (("./path",), ["path/to/file.py"]),
        (("path/to/file.py",), ["path/to/file.py"]),
        (
            ("pkg/*", "!pkg/mod.py"),
            ["pkg/__init__.py", "pkg/tests/sub/test_c.py", "pkg/tests/test_b.py", "pkg/.mypy_cache/stale.py"],
        ),
        (("gen.py/",), []),  # a trailing slash: folders only
    ],
)
def test_exclude_patterns_match_as_gitignore_and_ruff_do(tree, check, patterns, excluded):
    write(tree / "a2alint.toml", f"exclude = {_toml_list(patterns)}\n")
    assert _checked(check) == sorted(set(TREE) - set(excluded))


def test_extend_exclude_adds_to_the_default_excludes_and_may_take_one_back(tree, check):
    write(tree / "a2alint.toml", 'extend-exclude = ["{src,docs}/", "!.mypy_cache"]\n')
    assert _checked(check) == sorted(set(TREE) - {"docs/conf.py", "src/app.py", "src/pkg/deep.py"})


def test_command_line_extend_exclude_is_relative_to_the_current_directory(tree, check, monkeypatch):
    """The config sits in the project's root; the command line is given in ``pkg/``."""
    write(tree / "a2alint.toml", "preview = false\n")
    monkeypatch.chdir(tree / "pkg")
    assert _checked(check, "--extend-exclude", "tests/sub/,./mod.py") == ["__init__.py", "tests/test_b.py"]
    assert _checked(check, "--extend-exclude", "./tests/*/") == ["__init__.py", "mod.py", "tests/test_b.py"]


def test_force_exclude_applies_the_same_patterns_to_named_files(tree, check):
    write(tree / "a2alint.toml", 'extend-exclude = ["**/{tests,docs}/*"]\n')
    named = ("tests/test_a.py", "pkg/tests/sub/test_c.py", "docs/conf.py", "pkg/mod.py")
    run = check("--no-cache", "--format", "json", "--select", "AC107", "--force-exclude", *named)
    assert run.paths() == ["pkg/mod.py"]


def test_an_extended_config_keeps_its_patterns_and_their_negations(tree, check):
    write(tree / "a2alint.toml", 'extend-exclude = ["pkg/tests/", "pkg/*.py", "!pkg/mod.py"]\n')
    write(tree / "pkg" / "a2alint.toml", 'extend = "../a2alint.toml"\n')
    assert [path for path in _checked(check) if path.startswith("pkg/")] == ["pkg/mod.py"]


def test_an_absolute_pattern_is_that_path(tree, check):
    write(tree / "a2alint.toml", f'extend-exclude = ["{(tree / "src").as_posix()}/**/*.py", "/tests"]\n')
    checked = _checked(check)
    assert "src/app.py" not in checked and "src/pkg/deep.py" not in checked
    assert "tests/test_a.py" in checked  # /tests is the folder at the top of the file system


def test_extend_include_takes_the_same_patterns(tree, check):
    write(tree / "scripts" / "tool.pyw", UNFIXABLE)
    write(tree / "scripts" / "old" / "tool.pyw", UNFIXABLE)
    write(tree / "a2alint.toml", 'extend-include = ["./scripts/*.pyw"]\n')
    assert "scripts/tool.pyw" in _checked(check) and "scripts/old/tool.pyw" not in _checked(check)


# --- the matcher itself --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "pattern, expanded",
    [
        ("**/{tests,docs,tools}/*", ["**/tests/*", "**/docs/*", "**/tools/*"]),
        ("{a,b}/{c,d}", ["a/c", "a/d", "b/c", "b/d"]),
        ("{a,{b,c}x}", ["a", "bx", "cx"]),
        ("{one}", ["one"]),
        ("\\{a,b}", ["\\{a,b}"]),
        ("{a,b", ["{a,b"]),
        ("plain.py", ["plain.py"]),
    ],
)
def test_braces_expand_into_alternatives(pattern, expanded):
    assert expand_braces(pattern) == expanded


def test_an_escaped_brace_is_a_literal_one(tmp_path):
    assert matched(Patterns.configured(["\\{a,b}.py"], tmp_path), tmp_path / "{a,b}.py", is_dir=False)
    assert not matched(Patterns.configured(["\\{a,b}.py"], tmp_path), tmp_path / "a.py", is_dir=False)


def test_the_last_pattern_that_matches_decides_across_lists(tmp_path):
    first = Patterns(("*.py",), tmp_path)
    second = Patterns(("!keep.py",), tmp_path / "pkg")
    assert matched((first, second), tmp_path / "pkg" / "x.py", is_dir=False)
    assert not matched((first, second), tmp_path / "pkg" / "keep.py", is_dir=False)
    assert matched((second, first), tmp_path / "pkg" / "keep.py", is_dir=False)  # the other way round


def test_a_path_outside_the_folder_is_matched_by_its_name_only(tmp_path):
    patterns = Patterns.configured(["build", "./top", "pkg/mod.py"], tmp_path / "project")
    elsewhere = tmp_path / "elsewhere"
    assert matched(patterns, elsewhere / "build", is_dir=True)
    assert not matched(patterns, elsewhere / "top", is_dir=True)
    assert not matched(patterns, elsewhere / "pkg" / "mod.py", is_dir=False)


def test_the_folder_itself_is_never_matched(tmp_path):
    assert not matched((Patterns(("*",), tmp_path),), tmp_path, is_dir=True)
