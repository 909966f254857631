"""Resolving paths once: a run asks for the real path of every file several times
(discovery, settings, the module index, the project run), and each answer is a walk of
the path's symbolic links."""

from __future__ import annotations

import functools
from pathlib import Path


def resolved(path: Path) -> Path:
    """``path.resolve()``, remembered for the process (a link changed while the language
    server runs is seen once the server restarts). A relative path counts from the
    current directory of the moment."""
    return _resolved(path if path.is_absolute() else Path.cwd() / path)


@functools.lru_cache(maxsize=1 << 16)
def _resolved(path: Path) -> Path:
    return path.resolve()
