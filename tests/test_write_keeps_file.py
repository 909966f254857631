"""A file that ``--fix`` or ``--add-noqa`` writes stays the same file: its owner and group
(the command often runs as root, on other users' files), its setuid and setgid bits only
for that same owner, its extended attributes, its other hard links, and the symbolic link
it was reached through."""

from __future__ import annotations

import errno
import os
import stat

import pytest

from a2alint.fixes import write_atomically
from conftest import FIXABLE, FIXED, UNFIXABLE, write

#: Another user: root may give a file away to any uid and gid.
OTHER = 12345
NOQA = UNFIXABLE.replace("json())\n", "json())  # noqa: AC107\n")

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another user takes root")

#: ``(arguments, source, what it becomes)`` for each command that writes a source file.
WRITERS = {
    "fix": (("--select", "AC107", "--fix", "--unsafe-fixes"), FIXABLE, FIXED),
    "add-noqa": (("--add-noqa",), UNFIXABLE, NOQA),
}


@pytest.fixture(params=sorted(WRITERS))
def writer(request, check):
    """``(source, fixed, run)``: ``run(name)`` writes one file the way the command does."""
    arguments, source, fixed = WRITERS[request.param]
    return source, fixed, lambda name: check(*arguments, name)


def _others(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(".a2alint-"))


def test_a_written_file_keeps_its_owner_and_group(project, writer):
    source, fixed, run = writer
    path = write(project / "bad.py", source)
    os.chown(path, OTHER, OTHER)
    assert run("bad.py").exit_code == 0
    assert path.read_text() == fixed
    assert (path.stat().st_uid, path.stat().st_gid) == (OTHER, OTHER)


def test_a_setuid_file_of_another_user_never_becomes_setuid_root(project, writer):
    source, fixed, run = writer
    path = write(project / "bad.py", source)
    os.chown(path, OTHER, OTHER)
    path.chmod(0o6755)
    assert run("bad.py").exit_code == 0
    status = path.stat()
    assert path.read_text() == fixed
    assert (status.st_uid, status.st_gid, stat.S_IMODE(status.st_mode)) == (OTHER, OTHER, 0o6755)


def _set_attribute(path, name: str, value: bytes) -> None:
    try:
        os.setxattr(path, name, value)
    except OSError as error:
        if error.errno in (errno.ENOTSUP, errno.EOPNOTSUPP):
            pytest.skip("this filesystem has no extended attributes")
        raise


@pytest.mark.skipif(not hasattr(os, "setxattr"), reason="no extended attributes on this platform")
def test_a_written_file_keeps_its_extended_attributes(project, writer):
    source, fixed, run = writer
    path = write(project / "bad.py", source)
    _set_attribute(path, "user.origin", b"https://example.org/bad.py")
    _set_attribute(path, "user.checksum", b"\x00\xff")
    assert run("bad.py").exit_code == 0
    assert path.read_text() == fixed
    assert {name: os.getxattr(path, name) for name in os.listxattr(path) if name.startswith("user.")} == {
        "user.origin": b"https://example.org/bad.py",
        "user.checksum": b"\x00\xff",
    }


def test_a_filesystem_without_extended_attributes_is_written_as_usual(project, writer, monkeypatch):
    source, fixed, run = writer
    path = write(project / "bad.py", source)

    def unsupported(*args, **kwargs):
        raise OSError(errno.ENOTSUP, os.strerror(errno.ENOTSUP))

    monkeypatch.setattr(os, "listxattr", unsupported, raising=False)
    inode = path.stat().st_ino
    assert run("bad.py").exit_code == 0
    assert path.read_text() == fixed
    assert path.stat().st_ino != inode, "replaced by a rename, as usual"


def test_an_owner_the_new_file_cannot_be_given_is_kept_by_writing_in_place(project, writer, monkeypatch):
    """A user other than root cannot give a file away: the file is then written in place."""
    source, fixed, run = writer
    path = write(project / "bad.py", source)
    os.chown(path, OTHER, OTHER)
    inode = path.stat().st_ino

    def refused(*args, **kwargs):
        raise PermissionError(errno.EPERM, os.strerror(errno.EPERM))

    monkeypatch.setattr(os, "fchown", refused)
    assert run("bad.py").exit_code == 0
    status = path.stat()
    assert path.read_text() == fixed
    assert (status.st_ino, status.st_uid, status.st_gid) == (inode, OTHER, OTHER)
    assert _others(project) == []


def test_an_attribute_the_new_file_cannot_be_given_is_kept_by_writing_in_place(project, writer, monkeypatch):
    source, fixed, run = writer
    path = write(project / "bad.py", source)
    _set_attribute(path, "user.origin", b"here")
    inode = path.stat().st_ino

    def refused(*args, **kwargs):
        raise PermissionError(errno.EPERM, os.strerror(errno.EPERM))

    monkeypatch.setattr(os, "setxattr", refused)
    assert run("bad.py").exit_code == 0
    assert path.read_text() == fixed
    assert path.stat().st_ino == inode and os.getxattr(path, "user.origin") == b"here"


# --- links ---------------------------------------------------------------------------------------


def test_every_hard_link_sees_the_written_file(project, writer):
    source, fixed, run = writer
    path = write(project / "a.py", source)
    os.link(path, project / "b.py")
    assert run("a.py").exit_code == 0
    assert path.read_text() == fixed and (project / "b.py").read_text() == fixed
    assert path.stat().st_ino == (project / "b.py").stat().st_ino and path.stat().st_nlink == 2
    assert _others(project) == []


def test_a_file_reached_through_a_symbolic_link_is_written_and_the_link_kept(project, writer):
    source, fixed, run = writer
    target = write(project / "real" / "bad.py", source)
    (project / "bad.py").symlink_to(target)
    assert run("bad.py").exit_code == 0
    assert (project / "bad.py").is_symlink() and os.readlink(project / "bad.py") == str(target)
    assert target.read_text() == fixed


def test_write_atomically_writes_the_target_of_a_symbolic_link(tmp_path):
    target = write(tmp_path / "real.py")
    link = tmp_path / "link.py"
    link.symlink_to("real.py")
    write_atomically(link, FIXED.encode(), FIXABLE.encode())
    assert link.is_symlink() and os.readlink(link) == "real.py"
    assert target.read_text() == FIXED
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.py", "real.py"]

