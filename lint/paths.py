"""Paths: resolved once (a run asks for the real path of every file several times
(discovery, settings, the module index, the project run), and each answer is a walk of
the path's symbolic links), and shown so that every name prints as itself."""

from __future__ import annotations

import errno
import functools
import os
import re
import stat
from pathlib import Path


def resolved(path: Path) -> Path:
    """``path.resolve()``, remembered for the process (a link changed while the language
    server runs is seen once the server restarts). A relative path counts from the
    current directory of the moment."""
    return _resolved(path if path.is_absolute() else Path.cwd() / path)


_MOST_PARTS = 64


@functools.lru_cache(maxsize=1 << 16)
def _resolved(path: Path) -> Path:
    # A folder is resolved once for all its files: a file that is not a link is then one
    # lstat, where ``resolve`` walks every part of its path again. A path with ``..`` (which
    # resolve takes after the links before it, even past a folder that does not exist) or
    # more parts than the recursion should walk is resolved whole.
    if ".." in path.parts or len(path.parts) > _MOST_PARTS or path.parent == path:
        return path.resolve()
    try:
        if stat.S_ISLNK(os.lstat(path).st_mode):
            return path.resolve()
    except FileNotFoundError:
        pass  # resolve keeps a name that does not exist as it is, after its resolved folder
    except OSError:
        return path.resolve()
    return _resolved(path.parent) / path.name


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
