"""A config that extends another, one that requires an a2alint version, and
``per-file-ignores`` keys that are absolute paths."""

from __future__ import annotations

import pytest

from a2alint import __version__
from conftest import UNFIXABLE, write


def _paths(check, *args: str) -> list[str]:
    run = check("--no-cache", "--format", "json", *args)
    assert run.exit_code in (0, 1), run.stderr
    return sorted(run.paths())


# --- extend ----------------------------------------------------------------------------------


def test_extend_inherits_the_other_files_settings_and_its_own_keys_win(project, check):
    write(project / "pyproject.toml", '[tool.a2alint]\nselect = ["AC107"]\nextend-exclude = ["vendored"]\n')
    write(project / "sub" / "a2alint.toml", 'extend = "../pyproject.toml"\nextend-exclude = ["generated"]\n')
    write(project / "strict" / "a2alint.toml", 'extend = "../pyproject.toml"\nselect = ["AC101"]\n')
    for folder in ("sub", "sub/vendored", "sub/generated", "strict"):
        write(project / folder / "bad.py", UNFIXABLE)
    assert _paths(check, ".") == ["sub/bad.py"]


def test_an_extended_files_paths_are_relative_to_it(project, check):
    write(project / "base" / "a2alint.toml", '[per-file-ignores]\n"legacy/*.py" = ["AC107"]\n')
    write(project / "a2alint.toml", 'extend = "base/a2alint.toml"\n')
    write(project / "base" / "legacy" / "bad.py", UNFIXABLE)  # what the pattern meant where it was written
    write(project / "legacy" / "bad.py", UNFIXABLE)
    assert _paths(check, ".") == ["legacy/bad.py"]


def test_extend_chains_and_the_selection_of_each_file_is_a_layer(project, check):
    write(project / "a.toml", 'extend-select = ["AC108"]\n')  # a preview rule, by its code
    write(project / "b.toml", 'extend = "a.toml"\nignore = ["AC1"]\n')
    write(project / "a2alint.toml", 'extend = "b.toml"\nextend-select = ["AC107"]\n')
    write(project / "bad.py", UNFIXABLE)
    run = check("--no-cache", "--show-settings", "bad.py")
    assert 'enabled = ["AC000", "AC002", "AC107", "AC201", "AC202"]' in run.stdout  # AC108 fell to b's ignore


def test_extending_a_pyproject_takes_its_tool_table(project, check):
    write(project / "pyproject.toml", '[project]\nname = "x"\n[tool.a2alint]\nignore = ["AC107"]\n')
    write(project / "sub" / ".a2alint.toml", 'extend = "../pyproject.toml"\n')
    write(project / "sub" / "bad.py", UNFIXABLE)
    assert _paths(check, ".") == []


@pytest.mark.parametrize(
    "files, named, expected",
    [
        ({"a2alint.toml": 'extend = "a2alint.toml"\n'}, "a2alint.toml", "closes a cycle"),
        ({"a2alint.toml": 'extend = "b.toml"\n', "b.toml": 'extend = "a2alint.toml"\n'}, "b.toml", "closes a cycle"),
        ({"a2alint.toml": 'extend = "missing.toml"\n'}, "a2alint.toml", "missing.toml: config file not found"),
        ({"a2alint.toml": "extend = 3\n"}, "a2alint.toml", "expected the path of a config file"),
        ({"a2alint.toml": 'extend = "b.toml"\n', "b.toml": "selct = 1\n"}, "b.toml", "unknown key 'selct'"),
    ],
)
def test_a_bad_extend_is_exit_2_naming_the_file(project, check, files, named, expected):
    for name, text in files.items():
        write(project / name, text)
    write(project / "bad.py", UNFIXABLE)
    run = check("bad.py")
    assert run.exit_code == 2
    assert run.stderr.startswith(f"a2alint: error: {project / named}: "), run.stderr
    assert expected in run.stderr


def test_a_cycle_is_named_file_by_file(project, check):
    write(project / "a2alint.toml", 'extend = "b.toml"\n')
    write(project / "b.toml", 'extend = "a2alint.toml"\n')
    write(project / "bad.py", UNFIXABLE)
    cycle = f"{project / 'a2alint.toml'} -> {project / 'b.toml'} -> {project / 'a2alint.toml'}"
    assert cycle in check("bad.py").stderr


# --- required-version ------------------------------------------------------------------------

MAJOR, MINOR, *_ = (int(part) for part in __version__.split("."))


@pytest.mark.parametrize(
    "spec",
    [
        __version__, f"=={MAJOR}.{MINOR}", f">={MAJOR}.{MINOR}", f"<={__version__}", f">{MAJOR}.{MINOR - 1}" if MINOR else "<99",
        f"<{MAJOR + 1}", f"!={MAJOR + 1}.0", f"~={MAJOR}.{MINOR}", f"~={__version__}", f">= {MAJOR}.{MINOR}, < {MAJOR + 1}",
    ],
)
def test_a_required_version_that_this_a2alint_satisfies_runs(project, check, spec):
    write(project / "a2alint.toml", f'required-version = "{spec}"\n')
    write(project / "bad.py", UNFIXABLE)
    assert check("--no-cache", "bad.py").exit_code == 1


@pytest.mark.parametrize(
    "spec",
    [f"{MAJOR}.{MINOR + 1}", f">={MAJOR}.{MINOR + 1}", f"<{__version__}", f"!={__version__}", f"~={MAJOR}.{MINOR + 1}.0",
     f">={MAJOR}.{MINOR}, <{__version__}", f"=={MAJOR + 1}"],
)
def test_a_required_version_this_a2alint_does_not_satisfy_is_exit_2(project, check, spec):
    config = write(project / "a2alint.toml", f'required-version = "{spec}"\nnew-key-of-a-later-version = 1\n')
    write(project / "bad.py", UNFIXABLE)
    run = check("bad.py")
    assert run.exit_code == 2
    assert run.stderr == (
        f"a2alint: error: {config}: key 'required-version': the config wants a2alint {spec}, "
        f"and this is a2alint {__version__}; install a version that satisfies it\n"
    )


@pytest.mark.parametrize("spec", ["0.1.*", "=>0.1", ">=", "latest", "~=1", ">=0.1,", "3"])
def test_a_malformed_required_version_is_exit_2(project, check, spec):
    value = spec if spec == "3" else f'"{spec}"'
    write(project / "a2alint.toml", f"required-version = {value}\n")
    write(project / "bad.py", UNFIXABLE)
    run = check("bad.py")
    assert run.exit_code == 2
    assert "key 'required-version': expected a version" in run.stderr


# --- per-file-ignores by absolute path -------------------------------------------------------


def test_a_per_file_ignores_key_that_is_an_absolute_path_matches_that_file(project, check):
    write(project / "legacy.py", UNFIXABLE)
    write(project / "pkg" / "old" / "a.py", UNFIXABLE)
    write(project / "new.py", UNFIXABLE)
    legacy, old = (project / "legacy.py").as_posix(), (project / "pkg" / "old").as_posix()
    write(project / "a2alint.toml", f'[per-file-ignores]\n"{legacy}" = ["AC107"]\n"{old}/*.py" = ["AC1"]\n')
    assert _paths(check, ".") == ["new.py"]


def test_an_absolute_key_matches_the_file_reached_through_a_link(project, check):
    write(project / "real" / "legacy.py", UNFIXABLE)
    (project / "linked").symlink_to(project / "real", target_is_directory=True)
    write(project / "a2alint.toml", f'[per-file-ignores]\n"{(project / "linked" / "legacy.py").as_posix()}" = ["AC107"]\n')
    assert _paths(check, "real") == []
