"""Config files as TOML: every spelling of ``[tool.a2alint]`` is read, and a file that
cannot be read as TOML is an error naming it, never a file passed over."""

from __future__ import annotations

import json

import pytest

from conftest import UNFIXABLE, write

IGNORES_AC107 = [
    '[tool.a2alint]\nignore = ["AC107"]\n',
    '[tool]\na2alint = { ignore = ["AC107"] }\n',
    '[tool]\na2alint.ignore = ["AC107"]\n',
    'tool.a2alint.ignore = ["AC107"]\n',
    'tool = { a2alint = { ignore = ["AC107"] } }\n',
    '[tool."a2alint"]\nignore = ["AC107"]\n',
    "[ tool . 'a2alint' ]\nignore = ['AC107']\n",
    '[tool."\\u0061\\u0032alint"]\nignore = ["AC107"]\n',  # the name spelled with escapes
]
#: A pyproject.toml whose a2alint table holds no key: only a rule's sub-table.
ONLY_A_SUB_TABLE = "[tool.a2alint.rules.AC107]\n"


@pytest.mark.parametrize("pyproject", IGNORES_AC107)
def test_every_spelling_of_the_tool_table_is_read(project, check, pyproject):
    write(project / "pyproject.toml", pyproject + '[project]\nname = "x"\n')
    write(project / "pkg" / "bad.py", UNFIXABLE)
    assert check("--no-cache", "pkg/bad.py").exit_code == 0


def test_a_table_of_sub_tables_only_is_the_config_that_governs(project, check):
    """It stops the walk upward: the pyproject.toml further up is not read."""
    write(project / "pyproject.toml", '[tool.a2alint]\nignore = ["AC107"]\n')
    write(project / "sub" / "pyproject.toml", ONLY_A_SUB_TABLE)
    write(project / "sub" / "bad.py", UNFIXABLE)
    assert check("--no-cache", "sub/bad.py").exit_code == 1


def test_the_name_elsewhere_does_not_make_a_config(project, check):
    write(project / "pyproject.toml", '[tool.a2alint]\nignore = ["AC107"]\n')
    write(project / "sub" / "pyproject.toml", '[project]\nname = "sub"\ndependencies = ["a2alint"]\n[tool.x]\na2alint = 1\n')
    write(project / "sub" / "bad.py", UNFIXABLE)
    assert check("--no-cache", "sub/bad.py").exit_code == 0


# --- files that cannot be read ---------------------------------------------------------------


def _fails_naming(check, config, *expected: str, args: tuple[str, ...] = ()) -> None:
    write(config.parent / "bad.py", UNFIXABLE)
    run = check("--no-cache", *args, str(config.parent / "bad.py"))
    assert run.exit_code == 2, run.stdout
    assert run.stderr.startswith(f"a2alint: error: {config}: "), run.stderr
    assert "Traceback" not in run.stderr
    for text in expected:
        assert text in run.stderr


@pytest.mark.parametrize(
    "data",
    [
        '[tool.a2alint]\nignore = ["AC107"]\n[project]\nname = "caf\xe9"\n'.encode("latin-1"),
        '[tool.a2alint]\nignore = ["AC107"]\n'.encode("utf-16"),
    ],
    ids=["latin-1", "utf-16"],
)
def test_a_pyproject_that_is_not_utf_8_is_exit_2_naming_it(project, check, data):
    _fails_naming(check, write(project / "pyproject.toml", data), "not UTF-8")


@pytest.mark.parametrize("name", ["a2alint.toml", ".a2alint.toml"])
def test_an_a2alint_toml_that_is_not_utf_8_is_exit_2_naming_it(project, check, name):
    _fails_naming(check, write(project / name, 'ignore = ["AC107"]  # caf\xe9\n'.encode("latin-1")), "not UTF-8")


@pytest.mark.parametrize(
    "text",
    ['[tool]\na2alint = { ignore = ["AC107"]\n', 'tool.a2alint.ignore = ["AC107"\n', '[tool.a2alint]\n[project\n'],
)
def test_a_pyproject_that_may_hold_the_table_and_is_not_toml_is_exit_2(project, check, text):
    _fails_naming(check, write(project / "pyproject.toml", text), "not valid TOML")


@pytest.mark.parametrize(
    "text, key",
    [
        ("[tool]\na2alint = 5\n", "'tool.a2alint': expected a table, got 5"),
        ('tool.a2alint = ["AC107"]\n', "'tool.a2alint': expected a table, got ['AC107']"),
        ('tool = 5\n[project]\nname = "a2alint-plugin"\n', "'tool': expected a table, got 5"),
    ],
)
def test_a_tool_or_a2alint_that_is_not_a_table_is_exit_2_naming_the_key(project, check, text, key):
    _fails_naming(check, write(project / "pyproject.toml", text), f"key {key}")


def test_a_tool_that_is_not_a_table_in_the_config_option_file_is_exit_2(project, check):
    config = write(project / "pyproject.toml", "tool = 5\n")
    _fails_naming(check, config, "key 'tool': expected a table", args=("--config", str(config)))


DEEP_ARRAY = "x = " + "[" * 5000 + "]" * 5000 + "\n"
DEEP_TABLE = "x = " + "{ a = " * 5000 + "1" + " }" * 5000 + "\n"


@pytest.mark.parametrize("deep", [DEEP_ARRAY, DEEP_TABLE], ids=["arrays", "inline-tables"])
def test_a_deeply_nested_config_is_exit_2_naming_it(project, check, deep):
    _fails_naming(check, write(project / "a2alint.toml", "[rules.AC107]\n" + deep), "nested too deeply")


@pytest.mark.parametrize("deep", [DEEP_ARRAY, DEEP_TABLE], ids=["arrays", "inline-tables"])
def test_a_deep_value_in_another_tool_s_table_is_not_read(project, check, deep):
    """Only a2alint's tables of a pyproject.toml are parsed (when they can be cut out exactly)."""
    write(project / "pyproject.toml", '[tool.a2alint]\nignore = ["AC107"]\n[tool.other]\n' + deep)
    write(project / "peer.py", UNFIXABLE)
    result = check("--no-cache")
    assert result.exit_code == 0 and "nested too deeply" not in result.stderr


# --- src ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value, said",
    [('"lib"', "a list of folders"), ('["lib", 3]', "a list of folders"), ('[""]', "is not a folder"), ('["nowhere"]', "'nowhere' is not a folder")],
)
def test_a_bad_src_is_exit_2_naming_the_file_and_the_key(project, check, value, said):
    (project / "lib").mkdir()
    _fails_naming(check, write(project / "pyproject.toml", f"[tool.a2alint]\nsrc = {value}\n"), "key 'src'", said)


def test_src_folders_are_relative_to_the_config_file_and_shown_with_the_roots(project, check):
    """``--show-settings`` shows the folders ``src`` names, made absolute, and every root the
    check looks for imports in: the project's, ``src`` and what the layout shows."""
    write(project / "repo" / "a2alint.toml", 'src = ["vendor/code"]\n')
    write(project / "repo" / "vendor" / "code" / "peers.py", "")
    write(project / "repo" / "libs" / "kit" / "kit" / "__init__.py", "")
    write(project / "repo" / "app" / "src" / "main.py", "")
    run = check("--show-settings", "repo/app")
    assert run.exit_code == 0, run.stderr
    repo = (project / "repo").resolve()
    assert f'src = ["{repo / "vendor" / "code"}"]' in run.stdout
    roots = [repo, repo / "app" / "src", repo / "libs" / "kit", repo / "vendor" / "code"]
    assert f"roots = {json.dumps([str(root) for root in roots])}" in run.stdout
