"""What a repository or an environment holds never ends the run in a traceback: ignore
files git reads, config values past what can be held, a config file that is not one, a
user without a home folder. Each is read as git reads it, or is one clear error naming
the file and the key (exit 2)."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import FIXABLE, UNFIXABLE, run_installed, write

#: Lines git accepts in a ``.gitignore`` that are no pattern (they match nothing in git).
NOT_PATTERNS = ["!", "\\", "foo\\", "!\\"]


@pytest.fixture
def repository(project):
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    write(project / "client.py")
    write(project / "vendor" / "generated.py")
    return project


@pytest.mark.parametrize("line", NOT_PATTERNS)
def test_a_vendored_gitignore_line_that_is_no_pattern_matches_nothing(repository, check, line):
    write(repository / "vendor" / ".gitignore", f"{line}\ngenerated.py\n")
    result = check("--no-cache", "--output-format", "json")
    assert result.exit_code == 1, result.stderr
    assert result.paths() == ["client.py"]  # the file's other lines still apply


def test_a_gitignore_that_is_a_link_to_a_device_is_not_read(repository, check):
    os.symlink("/dev/zero", repository / "vendor" / ".gitignore")
    result = check("--no-cache", "--output-format", "json")
    assert result.exit_code == 1, result.stderr
    assert sorted(result.paths()) == ["client.py", "vendor/generated.py"]


def test_a_gitignore_that_is_a_link_is_not_followed_as_git_does_not(repository, check):
    write(repository / "ignored-here", "generated.py\n")
    os.symlink(repository / "ignored-here", repository / "vendor" / ".gitignore")
    assert sorted(check("--no-cache", "--output-format", "json").paths()) == ["client.py", "vendor/generated.py"]


@pytest.mark.parametrize(
    "setting, key",
    [
        ('exclude = ["!"]', "exclude"),
        ('extend-exclude = ["build/", "foo\\\\"]', "extend-exclude"),
        ('per-file-ignores = {"!\\\\" = ["AC1"]}', "per-file-ignores.!\\"),
        ("max-file-size = 9223372036854775808", "max-file-size"),
        ("max-file-size = 9223372036854775807", "max-file-size"),
        (f'required-version = ">={"1" * 5000}"', "required-version"),
    ],
)
def test_a_config_value_past_what_can_be_held_is_a_config_error(project, check, setting, key):
    write(project / "client.py")
    write(project / "pyproject.toml", f"[tool.a2alint]\n{setting}\n")
    result = check("--no-cache")
    assert result.exit_code == 2
    assert f"pyproject.toml: key '{key}'" in result.stderr
    assert "internal error" not in result.stderr


def test_a_command_line_pattern_that_is_no_pattern_is_a_usage_error(project, check):
    write(project / "client.py")
    result = check("--no-cache", "--extend-exclude", "build/,!")
    assert result.exit_code == 2 and "--extend-exclude: '!' is not a path pattern" in result.stderr


def test_a_config_file_larger_than_any_real_one_is_refused_unread(project, check):
    write(project / "client.py")
    with open(project / "a2alint.toml", "wb") as stream:
        stream.truncate(64 * 1024 * 1024)  # sparse: nothing is written, and nothing must be read
    result = check("--no-cache")
    assert result.exit_code == 2
    assert "a2alint.toml: cannot read: larger than 16 MiB" in result.stderr


def test_a_user_without_a_home_folder_gets_a_private_key_folder_and_is_told(project, check, monkeypatch, tmp_path):
    def no_entry(uid):
        raise KeyError(f"getpwuid(): uid not found: {uid}")

    monkeypatch.delenv("HOME", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setattr(pwd, "getpwuid", no_entry)
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)  # TMPDIR is read again
    write(project / "client.py", FIXABLE)
    first = check("--output-format", "concise")
    assert first.exit_code == 1, first.stderr
    folder = tmp_path / "tmp" / f"a2alint-{os.getuid()}"
    assert f"the cache's signing key is kept in {folder}" in first.stderr
    assert (folder / "cache-key").is_file() and folder.stat().st_mode & 0o077 == 0
    assert check("--output-format", "concise").stdout == first.stdout  # the cache serves the same findings


def _build(site: Path, message: str | None = None) -> dict:
    """A copy of this a2alint in ``site`` (same version string), with AC107's message
    changed to ``message``; the environment that runs it."""
    package = Path(__file__).resolve().parents[1]
    shutil.copytree(package / "lint", site / "a2alint", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(package / "rules", site / "a2alint" / "rules", ignore=shutil.ignore_patterns("__pycache__"))
    if message is not None:
        rule = site / "a2alint" / "rules" / "ac107_unstable_contract_hash.py"
        text = rule.read_text(encoding="utf-8")
        assert "is salted per process" in text
        rule.write_text(text.replace("is salted per process", message), encoding="utf-8")
    return {"PYTHONPATH": str(site)}


def test_a_cache_filled_by_another_build_of_the_same_version_is_not_served(project, tmp_path_factory):
    builds = tmp_path_factory.mktemp("builds")  # (outside the project, which is checked whole)
    write(project / "peer.py", UNFIXABLE)
    cache = {"A2ALINT_CACHE_DIR": str(builds / "shared-cache")}
    first = run_installed("-m", "a2alint", "check", ".", cwd=project, env={**_build(builds / "one", "IS ANOTHER BUILD"), **cache})
    assert "IS ANOTHER BUILD" in first.stdout
    second = run_installed("-m", "a2alint", "check", ".", cwd=project, env={**_build(builds / "two"), **cache})
    assert "is salted per process" in second.stdout, second.stdout


def test_a_cache_folder_that_is_a_symbolic_link_is_not_written_through(project, check, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    os.symlink(elsewhere, project / ".a2alint_cache")
    write(project / "peer.py", UNFIXABLE)
    result = check(".")
    assert result.exit_code == 1
    assert "is a symbolic link; running without the cache" in result.stderr
    assert list(elsewhere.iterdir()) == []


def test_a_version_folder_that_is_a_symbolic_link_is_not_written_through(project, check, tmp_path):
    from a2alint.cache import build_id

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (project / ".a2alint_cache").mkdir()
    os.symlink(elsewhere, project / ".a2alint_cache" / build_id())
    write(project / "peer.py", UNFIXABLE)
    assert check(".").exit_code == 1
    assert list(elsewhere.iterdir()) == []


def test_a_file_at_the_bottom_of_a_deep_chain_of_folders_costs_each_folder_once(project, check, monkeypatch):
    """Config files, the git work tree and real paths are looked for once per folder of the
    tree: each file's walk to the root was quadratic (64 s for a file 1,000 folders down)."""
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    depth = 300
    write(project.joinpath(*["d"] * depth, "peer.py"), UNFIXABLE)
    looked = []
    for name in ("stat", "lstat"):
        real = getattr(os, name)
        monkeypatch.setattr(os, name, lambda *args, real=real, **kwargs: looked.append(1) or real(*args, **kwargs))
    result = check("--no-cache", "--output-format", "concise", "-q")
    assert result.stdout.count("AC107") == 1
    assert len(looked) < 40 * depth  # (a walk per folder: over 100,000)


def test_another_tool_s_table_in_pyproject_is_not_what_a2alint_reads(project, check, monkeypatch):
    """Only the ``[tool.a2alint]`` tables are parsed when they can be cut out exactly:
    tomllib is quadratic in a dotted key's parts (a deep key in another tool's table took
    66 s). What is parsed is counted, not timed."""
    import a2alint.config

    deep = ".".join(["k"] * 20_000)
    write(project / "pyproject.toml", f'[tool.other]\n{deep} = 1\n\n[tool.a2alint]\nignore = ["AC107"]\n')
    write(project / "peer.py", UNFIXABLE)
    parsed: list[str] = []
    real = a2alint.config._toml
    monkeypatch.setattr(a2alint.config, "_toml", lambda source, text: parsed.append(text) or real(source, text))
    result = check("--no-cache")
    assert result.exit_code == 0, result.stdout  # the a2alint table was read: AC107 ignored
    assert parsed and all(deep not in text for text in parsed)


def test_an_error_in_the_a2alint_table_keeps_its_line_number(project, check):
    write(project / "pyproject.toml", '[project]\nname = "x"\n\n[tool.a2alint]\nselect = \n')
    write(project / "peer.py", UNFIXABLE)
    result = check("--no-cache")
    assert result.exit_code == 2 and "not valid TOML" in result.stderr and "line 5" in result.stderr
