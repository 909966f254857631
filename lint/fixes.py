"""Applying fixes: text edits, verified by a re-parse, written atomically.

A fix never writes a file that no longer parses, never changes a byte outside
its edits, and keeps the file's encoding, BOM, line endings and mode. A file
that changed on disk since it was read is left alone.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path
from typing import Iterable

import libcst as cst

from a2alint.diagnostics import Diagnostic, Edit, Position


class StaleFileError(Exception):
    """The file changed on disk between reading and writing."""


_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


def split_lines(source: str) -> list[str]:
    """The lines of ``source`` with their endings, split where Python (and libcst) end a
    line: ``\r\n``, ``\r`` or ``\n``. ``str.splitlines`` also splits at form feeds and
    other separators, which would shift every position after them."""
    return _LINE.findall(source)


def _offsets(source: str) -> list[int]:
    """Offset of the start of each line (1-based line n starts at offsets[n - 1])."""
    starts = [0]
    for line in split_lines(source):
        starts.append(starts[-1] + len(line))
    return starts


def _offset(starts: list[int], position: Position) -> int:
    return starts[min(position.line, len(starts)) - 1] + position.column - 1


def apply_edits(source: str, edits: Iterable[Edit]) -> str:
    """Apply non-overlapping edits; positions are 1-based, end-exclusive."""
    starts = _offsets(source)
    spans = sorted(((_offset(starts, e.start), _offset(starts, e.end), e.content) for e in edits), reverse=True)
    result = source
    previous_start = len(source) + 1
    for start, end, content in spans:
        if end > previous_start:
            raise ValueError("overlapping edits")
        result = result[:start] + content + result[end:]
        previous_start = start
    return result


def select_fixes(diagnostics: Iterable[Diagnostic], unsafe: bool) -> list[Diagnostic]:
    """The fixable diagnostics whose edits do not overlap an earlier one's (one pass)."""
    chosen: list[Diagnostic] = []
    taken: list[tuple[Position, Position]] = []
    for diagnostic in sorted(diagnostics, key=Diagnostic.sort_key):
        fix = diagnostic.fix
        if fix is None or (fix.applicability == "unsafe" and not unsafe):
            continue
        spans = [(edit.start, edit.end) for edit in fix.edits]
        if any(_overlap(span, other) for span in spans for other in taken):
            continue
        taken += spans
        chosen.append(diagnostic)
    return chosen


def _overlap(a: tuple[Position, Position], b: tuple[Position, Position]) -> bool:
    """Two edits touch the same text, or insert at the same place (two fixes adding the
    same helper there must not both apply)."""
    (start, end), (other_start, other_end) = a, b
    return (start < other_end and other_start < end) or (start == other_start and (start == end or other_start == other_end))


def parses(source: str) -> bool:
    try:
        cst.parse_module(source)
    except Exception:  # any failure to parse means: do not write this
        return False
    return True


def write_atomically(path: Path, text: str, encoding: str, expected: bytes) -> None:
    """Replace ``path`` with ``text`` unless it no longer holds ``expected``."""
    if path.read_bytes() != expected:
        raise StaleFileError(str(path))
    mode = path.stat().st_mode
    data = text.encode(encoding)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".a2alint")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, mode & 0o7777)
        if path.read_bytes() != expected:
            raise StaleFileError(str(path))
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
