"""A directory that can be listed but not entered (mode 0644: ``os.scandir`` lists its names,
then every look inside is refused) is one message naming it, and the rest is checked."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from conftest import UNFIXABLE, write


@pytest.fixture
def locked(project: Path, monkeypatch: pytest.MonkeyPatch):
    """``project/locked`` holding ``a.py`` and ``sub/b.py``, that can be listed and not
    entered. Root enters anything: for root, the look inside is refused as the kernel would."""
    folder = project / "locked"
    write(folder / "a.py", UNFIXABLE)
    write(folder / "sub" / "b.py", UNFIXABLE)
    write(project / "client.py", UNFIXABLE)
    if os.geteuid() == 0:
        inside = f"{folder}{os.sep}"
        for name in ("stat", "lstat"):
            real = getattr(os, name)

            def refusing(path, *args, real=real, **kwargs):
                if isinstance(path, (str, os.PathLike)) and os.fspath(path).startswith(inside):
                    raise PermissionError(13, "Permission denied", os.fspath(path))
                return real(path, *args, **kwargs)

            monkeypatch.setattr(os, name, refusing)
        yield folder
        return
    folder.chmod(0o644)
    try:
        yield folder
    finally:
        folder.chmod(0o755)


def test_a_walked_directory_that_cannot_be_entered_is_one_message(locked, check):
    run = check("--no-cache", "--format", "json", "--select", "AC107", ".")
    assert run.paths() == ["client.py"]
    assert run.stderr == "a2alint: locked: cannot enter directory: Permission denied\n"
    assert run.exit_code == 1
    named = check("--no-cache", "--format", "json", "--select", "AC107", "locked")
    assert named.stderr == "a2alint: locked: cannot enter directory: Permission denied\n"


def test_a_named_file_inside_it_is_a_message_naming_the_directory(locked, check):
    run = check("--no-cache", "--format", "json", "--select", "AC107", "locked/sub/b.py", "locked/a.py", "client.py")
    assert run.paths() == ["client.py"]
    assert run.stderr.splitlines() == [
        "a2alint: locked/sub/b.py: cannot enter directory locked: Permission denied",
        "a2alint: locked/a.py: cannot enter directory locked: Permission denied",
    ]
    assert run.exit_code == 2  # a file named that cannot be checked: not a green run
    assert check("--no-cache", "--force-exclude", "locked/a.py").exit_code == 2
