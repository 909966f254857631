"""Configuration: where it is found, what overrides what, and how a bad file is reported."""

from __future__ import annotations

import pytest

from conftest import FIXABLE, UNFIXABLE, run_installed, write

IGNORE_AC107 = 'ignore = ["AC107"]\n'


def _reported(check, *args: str) -> bool:
    """Whether ``a2alint check *args`` reports AC107."""
    run = check("--format", "json", *args)
    assert run.exit_code in (0, 1), run.stderr
    return "AC107" in run.codes()


# --- finding the config ------------------------------------------------------------------------


def test_pyproject_tool_table_is_found_upward_from_each_file(project, check):
    write(project / "pyproject.toml", "[tool.a2alint]\n" + IGNORE_AC107)
    write(project / "src" / "deep" / "bad.py")
    assert not _reported(check, "src/deep/bad.py")
    assert not _reported(check, ".")


def test_pyproject_without_a2alint_table_is_skipped_for_one_further_up(project, check):
    write(project / "pyproject.toml", "[tool.a2alint]\n" + IGNORE_AC107)
    write(project / "sub" / "pyproject.toml", '[project]\nname = "sub"\n')
    write(project / "sub" / "bad.py")
    assert not _reported(check, "sub/bad.py")


@pytest.mark.parametrize("name", ["a2alint.toml", ".a2alint.toml"])
def test_a2alint_toml_holds_the_settings_at_top_level(project, check, name):
    write(project / name, IGNORE_AC107)
    write(project / "bad.py")
    assert not _reported(check, "bad.py")


def test_nearest_config_wins_per_file(project, check):
    write(project / "pyproject.toml", "[tool.a2alint]\n" + IGNORE_AC107)
    write(project / "strict" / "a2alint.toml", 'select = ["AC107"]\n')
    write(project / "strict" / "bad.py")
    write(project / "lax" / "bad.py")
    assert check("--format", "json", ".").paths() == ["strict/bad.py"]


def test_dot_a2alint_toml_wins_over_pyproject_in_the_same_folder(project, check):
    write(project / "pyproject.toml", '[tool.a2alint]\nselect = ["AC107"]\n')
    write(project / ".a2alint.toml", IGNORE_AC107)
    write(project / "bad.py")
    assert not _reported(check, "bad.py")


def test_config_option_names_one_file_for_every_path(project, check):
    write(project / "pyproject.toml", '[tool.a2alint]\nselect = ["AC107"]\n')
    write(project / "elsewhere" / "settings.toml", IGNORE_AC107)
    write(project / "bad.py")
    assert _reported(check, "bad.py")
    assert not _reported(check, "--config", "elsewhere/settings.toml", "bad.py")


def test_config_option_with_a_missing_file_is_exit_2(project, check):
    write(project / "bad.py")
    run = check("--config", "missing.toml", "bad.py")
    assert run.exit_code == 2
    assert "missing.toml" in run.stderr and "not found" in run.stderr


def test_isolated_ignores_every_config_file(project, check):
    write(project / "pyproject.toml", "[tool.a2alint]\nselect = [\n")  # even a broken one
    write(project / "bad.py")
    assert _reported(check, "--isolated", "bad.py")


# --- precedence --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "config, args, reported",
    [
        ("", (), True),  # defaults: every stable rule
        (IGNORE_AC107, (), False),  # file over defaults
        (IGNORE_AC107, ("--select", "AC107"), True),  # command line over file
        (IGNORE_AC107, ("--extend-select", "AC107"), True),
        ('select = ["AC000"]\n', (), False),
        ('select = ["AC000"]\n', ("--extend-select", "AC1"), True),
        ('select = ["AC000", "AC107"]\n', ("--ignore", "AC1"), False),
        ('extend-select = ["AC001"]\nignore = ["AC1"]\n', ("--select", "ALL"), True),
    ],
)
def test_command_line_over_config_over_defaults(project, check, config, args, reported):
    write(project / "a2alint.toml", config)
    write(project / "bad.py")
    assert _reported(check, *args, "bad.py") is reported


def test_preview_in_config_and_no_preview_on_the_command_line(project, check, plugin_rule):
    write(project / "a2alint.toml", "preview = true\n")
    write(project / "p.py", "import a2a\nprint('x')\n")
    assert check("--no-cache", "--format", "json", "p.py").codes() == [plugin_rule.code]
    assert check("--no-cache", "--format", "json", "--no-preview", "p.py").codes() == []


def test_per_file_ignores_by_glob_from_the_config_folder(project, check):
    write(project / "a2alint.toml", '[per-file-ignores]\n"tests/*.py" = ["AC1"]\n"legacy.py" = ["ALL"]\n')
    for name in ("tests/test_x.py", "legacy.py", "src/app.py"):
        write(project / name)
    assert check("--format", "json", ".").paths() == ["src/app.py"]


def test_exclude_in_config_replaces_the_defaults(project, check):
    write(project / "a2alint.toml", 'exclude = ["generated"]\n')
    write(project / "generated" / "bad.py")
    write(project / "build" / "bad.py")
    assert check("--format", "json", ".").paths() == ["build/bad.py"]


def test_rule_options_table_with_known_code_and_no_options_is_accepted(project, check):
    write(project / "a2alint.toml", "[rules.AC107]\n")
    write(project / "bad.py", UNFIXABLE)
    assert check("bad.py").exit_code == 1


# --- bad config files ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "table, expected",
    [
        ("preview = true\nselect = \n", ["not valid TOML", "at line 2"]),
        ("selct = ['AC107']\n", ["unknown key 'selct'", "expected one of", "select"]),
        ("select = 'AC107'\n", ["key 'select'", "expected a list of rule codes or prefixes", "'AC107'"]),
        ("preview = 'yes'\n", ["key 'preview'", "expected true or false"]),
        ("respect-gitignore = 1\n", ["key 'respect-gitignore'", "expected true or false"]),
        ("ignore = ['AC9']\n", ["key 'ignore'", "unknown rule selector", "AC9"]),
        ("[per-file-ignores]\n'x.py' = 'AC107'\n", ["key 'per-file-ignores.x.py'", "expected"]),
        ("[rules.AC107]\nmax-depth = 3\n", ["key 'rules.AC107.max-depth'", "unknown option", "AC107"]),
        ("[rules.AC999]\n", ["key 'rules.AC999'", "unknown rule code"]),
        ("[api]\nfetch = ['x']\n", ["key 'api.fetch'", "unknown role", "card-fetch"]),
    ],
)
def test_bad_config_is_exit_2_naming_file_key_and_expectation(project, check, table, expected):
    config = write(project / "a2alint.toml", table)
    write(project / "bad.py")
    run = check("bad.py")
    assert run.exit_code == 2
    assert run.stdout == ""
    assert run.stderr.startswith(f"a2alint: error: {config}: ")
    for text in expected:
        assert text in run.stderr


def test_bad_pyproject_names_the_tool_table_key(project, check):
    config = write(project / "pyproject.toml", "[tool.a2alint]\nextend-exclude = 'build'\n")
    write(project / "bad.py")
    run = check("bad.py")
    assert run.exit_code == 2
    assert f"{config}: key 'extend-exclude': expected a list of glob patterns" in run.stderr


def test_bad_config_below_the_current_folder_is_exit_2_too(project, check):
    write(project / "pkg" / "a2alint.toml", "unknown = 1\n")
    write(project / "pkg" / "bad.py")
    run = check(".")
    assert run.exit_code == 2
    assert "unknown key 'unknown'" in run.stderr


def test_bad_config_prints_no_traceback(project):
    write(project / "pyproject.toml", "[tool.a2alint]\nselect = 'AC1'\n[tool.a2alint.rules.AC107]\nx = 1\n")
    write(project / "bad.py", FIXABLE)
    run = run_installed("check", ".", cwd=project)
    assert run.exit_code == 2
    assert "Traceback" not in run.stderr
    assert run.stderr.count("\n") == 1
