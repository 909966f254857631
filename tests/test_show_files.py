"""``check --show-files``: the files a check would read, one per line, sorted; nothing is checked."""

from __future__ import annotations

import sys

import pytest

from conftest import UNFIXABLE, write


def test_show_files_lists_what_would_be_checked_sorted_and_checks_nothing(project, check):
    for name in ("a/b.py", "a.py", "pkg/mod.py", "build/skipped.py", "notes.txt", "broken.py"):
        write(project / name, UNFIXABLE)
    write(project / "broken.py", "def (:\n")  # a check would report it
    write(project / "a2alint.toml", 'extend-exclude = ["pkg/"]\n')
    run = check("--show-files")
    assert (run.exit_code, run.stderr) == (0, "")
    assert run.stdout == "a.py\na/b.py\nbroken.py\n"
    assert not (project / ".a2alint_cache").exists()
    assert check("--show-files", "pkg/mod.py", "a").stdout == "a/b.py\npkg/mod.py\n"
    assert check("--show-files", "--force-exclude", "pkg/mod.py", "a").stdout == "a/b.py\n"


def test_show_files_with_a_missing_path_says_so(project, check):
    write(project / "a.py", UNFIXABLE)
    run = check("--show-files", "a.py", "missing.py")
    assert run.stdout == "a.py\n"
    assert run.stderr == "a2alint: missing.py: no such file or directory\n"
    assert run.exit_code == 2


@pytest.mark.skipif(sys.platform == "win32", reason="Windows refuses control characters in names")
def test_show_files_shows_control_characters_as_symbols(project, check):
    write(project / "two\nlines.py", UNFIXABLE)
    (project / "dead\nlink.py").symlink_to(project / "nowhere.py")
    run = check("--show-files")
    assert run.stdout == "two\u240alines.py\n"
    assert run.stderr == "a2alint: dead\u240alink.py: broken symbolic link\n"
