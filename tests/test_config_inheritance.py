"""``per-file-ignores`` keys that are absolute paths."""

from __future__ import annotations

from conftest import UNFIXABLE, write


def _paths(check, *args: str) -> list[str]:
    run = check("--no-cache", "--format", "json", *args)
    assert run.exit_code in (0, 1), run.stderr
    return sorted(run.paths())


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
