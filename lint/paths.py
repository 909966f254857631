"""Paths: resolved once (a run asks for the real path of every file several times
(discovery, settings, the module index, the project run), and each answer is a walk of
the path's symbolic links), and shown so that every name prints as itself."""

from __future__ import annotations

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
