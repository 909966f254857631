"""Paths: resolved once (a run asks for the real path of every file several times
(discovery, settings, the module index, the project run), and each answer is a walk of
the path's symbolic links), and shown so that every name prints as itself."""

from __future__ import annotations

import errno
import os
import re
import stat
from pathlib import Path
from typing import Callable, TypeVar

T = TypeVar("T")


def resolved(path: Path) -> Path:
    """``path.resolve()``, remembered for the process (a link changed while the language
    server runs is seen once the server restarts). A relative path counts from the
    current directory of the moment."""
    return _resolved(path if path.is_absolute() else Path.cwd() / path)


#: Real paths found so far (emptied when it grows past ``_MOST_REMEMBERED``).
_RESOLVED: dict[Path, Path] = {}
_MOST_REMEMBERED = 1 << 16


def _resolved(path: Path) -> Path:
    # A folder is resolved once for all its files and folders: from the nearest folder
    # above already resolved, each step down is one lstat (``resolve`` walks every part of
    # the path again: a tree 1,000 folders deep took 1,000 lstats a file). A path with
    # ``..`` (which resolve takes after the links before it, even past a folder that does
    # not exist) is resolved whole.
    if ".." in path.parts or path.parent == path:
        return path.resolve()
    steps: list[Path] = []
    folder = path
    while folder not in _RESOLVED and folder.parent != folder:
        steps.append(folder)
        folder = folder.parent
    if len(_RESOLVED) + len(steps) > _MOST_REMEMBERED:
        _RESOLVED.clear()
    real = _RESOLVED.get(folder, folder)  # (the anchor is itself)
    for step in reversed(steps):
        real = _RESOLVED[step] = _step(real, step)
    return real


def _step(folder: Path, path: Path) -> Path:
    """The real path of ``path``, whose folder's real path is ``folder``."""
    candidate = folder / path.name
    try:
        if stat.S_ISLNK(os.lstat(candidate).st_mode):
            return candidate.resolve()
    except FileNotFoundError:
        pass  # resolve keeps a name that does not exist as it is, after its resolved folder
    except OSError:
        return path.resolve()
    return candidate


def relative_to(display: str, root: Path, cwd: Path) -> str:
    """The display path ``display`` (from ``cwd``) relative to ``root``, with ``/``: as a
    repository's tools (code scanning, Code Quality, annotations) name its files."""
    absolute = os.path.abspath(cwd / display)
    try:
        return Path(os.path.relpath(absolute, root)).as_posix()
    except ValueError:  # another drive
        return Path(absolute).as_posix()


def printable(display: str) -> str:
    """``display`` with the bytes of a file name that is not UTF-8 shown as ``\\xe9`` and a
    backslash doubled: every report, the cache and the baseline can then be written, and
    two names never print alike (a file named with the byte 0xE9 and one named with the
    four characters ``\\xe9``). The file itself is still read and written by its real name;
    :func:`name_bytes` gives it back."""
    return display.replace("\\", "\\\\").encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


_ESCAPE = re.compile(r"\\(\\|x[0-9a-f]{2})")


def name_bytes(display: str) -> bytes:
    """The real bytes of the name :func:`printable` made ``display`` of (for a URI)."""
    pieces, last = [], 0
    for match in _ESCAPE.finditer(display):
        pieces += [display[last : match.start()].encode("utf-8"), b"\\" if match.group(1) == "\\" else bytes([int(match.group(1)[1:], 16)])]
        last = match.end()
    return b"".join([*pieces, display[last:].encode("utf-8")])


def read_regular(path: Path, limit: int, follow_links: bool = True) -> bytes:
    """The bytes of ``path``, a regular file of at most ``limit`` bytes. Anything else is
    refused with an ``OSError`` before it is read: a FIFO would wait for a writer,
    ``/dev/zero`` never ends; with ``follow_links`` false, a symbolic link too."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)  # a FIFO opens without a writer
    handle = os.open(path, flags if follow_links else flags | getattr(os, "O_NOFOLLOW", 0))
    with os.fdopen(handle, "rb") as stream:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        data = stream.read(limit + 1)  # (its size may change while it is read)
    if len(data) > limit:
        raise OSError(errno.EFBIG, f"larger than {size_text(limit)}", str(path))
    return data


def size_text(count: int) -> str:
    """``1048576`` -> ``1 MiB``; ``1500`` -> ``1500 bytes``."""
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if count % size == 0:
            return f"{count // size} {unit}"
    return f"{count} bytes"


def nearest(directory: Path, found_in: Callable[[Path], T | None], known: dict[Path, T | None]) -> T | None:
    """What ``found_in`` finds in the nearest folder at or above ``directory`` where it
    finds something (None: nowhere). ``known``: the answers for folders walked before,
    added to as this walk goes, so that the folders of a deep tree, which share the
    folders above them, are each looked into once (a walk per folder was quadratic: 64 s
    for a file 1,000 folders down)."""
    walked: list[Path] = []
    found = None
    folder = directory
    while True:
        if folder in known:
            found = known[folder]
            break
        walked.append(folder)
        found = found_in(folder)
        if found is not None or folder.parent == folder:
            break
        folder = folder.parent
    known.update(dict.fromkeys(walked, found))
    return found
