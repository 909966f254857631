"""Applying fixes: text edits, verified by a re-parse, written atomically.

A fix never writes a file that no longer parses, never changes a byte outside
its edits, and keeps the file's encoding, BOM, line endings, mode, owner,
extended attributes and links. A file that changed on disk since it was read
is left alone.
"""

from __future__ import annotations

import bisect
import codecs
import contextlib
import errno
import os
import re
import stat
import tempfile
from pathlib import Path
from typing import Callable, Iterable

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


def line_offsets(source: str | bytes) -> list[int]:
    """Offset of the start of each line (1-based line n starts at offsets[n - 1]), and the
    length of ``source`` last; of text, or of bytes in an encoding that keeps ASCII."""
    starts = [0]
    for line in (_LINE if isinstance(source, str) else _LINE_BYTES).findall(source):
        starts.append(starts[-1] + len(line))
    return starts


_LINE_BYTES = re.compile(_LINE.pattern.encode())


def _offset(starts: list[int], position: Position) -> int:
    return starts[min(position.line, len(starts)) - 1] + position.column - 1


#: A change to a text: ``(start, end, text)``, what replaces the text between two offsets.
Change = tuple[int, int, str]


class EditedText:
    """A text after edits that knows which of its parts are still the original's, so that
    writing it keeps the original's own bytes there (see :func:`splice_bytes`)."""

    def __init__(self, original: str, pieces: tuple[tuple[int, int] | str, ...] | None = None) -> None:
        self.original = original
        #: The text in order: spans ``(start, end)`` of the original, and new text.
        self.pieces = ((0, len(original)),) if pieces is None else pieces
        self.text = "".join(p if isinstance(p, str) else original[p[0] : p[1]] for p in self.pieces)

    def edited(self, edits: Iterable[Edit]) -> "EditedText":
        """This text with non-overlapping ``edits`` (1-based positions, end-exclusive) made."""
        starts = line_offsets(self.text)
        spans = sorted((_offset(starts, e.start), _offset(starts, e.end), e.content) for e in edits)
        pieces: list[tuple[int, int] | str] = []
        kept_from = 0
        for start, end, content in spans:
            if start < kept_from:
                raise ValueError("overlapping edits")
            pieces += [*self._between(kept_from, start), content]
            kept_from = end
        pieces += self._between(kept_from, len(self.text))
        return EditedText(self.original, tuple(pieces))

    def _between(self, start: int, end: int) -> list[tuple[int, int] | str]:
        """The pieces of the text between two of its offsets."""
        found: list[tuple[int, int] | str] = []
        at = 0
        for piece in self.pieces:
            size = len(piece) if isinstance(piece, str) else piece[1] - piece[0]
            low, high = max(start - at, 0), min(end - at, size)
            if low < high:
                found.append(piece[low:high] if isinstance(piece, str) else (piece[0] + low, piece[0] + high))
            at += size
        return found

    @property
    def changes(self) -> list[Change]:
        """The edits as changes to the original (offsets into it), in order."""
        changes: list[Change] = []
        kept_to, added = 0, []
        for piece in (*self.pieces, (len(self.original), len(self.original))):
            if isinstance(piece, str):
                added.append(piece)
                continue
            if piece[0] != kept_to or added:
                changes.append((kept_to, piece[0], "".join(added)))
            kept_to, added = piece[1], []
        return changes


def apply_edits(source: str, edits: Iterable[Edit]) -> str:
    """Apply non-overlapping edits; positions are 1-based, end-exclusive."""
    return EditedText(source).edited(edits).text


class UnwritableEditError(ValueError):
    """The edited text cannot be written in the file's encoding with its other bytes kept."""


def splice_bytes(data: bytes, original: str, changes: Iterable[Change], encoding: str) -> bytes:
    """The bytes of the file ``data`` (``original`` decoded in ``encoding``) with ``changes``
    made to its text: the text of each change encoded, every other byte as it was. Encoding
    the whole text again would not do: cp932, cp950 and big5 read some characters from two
    byte sequences and write them back as one. Raises :class:`UnwritableEditError` where the
    result would not read back as the edited text."""
    changes = sorted(changes)
    bom = codecs.BOM_UTF8 if encoding == "utf-8-sig" else b""
    codec = "utf-8" if bom else encoding  # a change after the BOM takes none of its own
    body = data[len(bom) :]
    byte_starts, char_starts = line_offsets(body), line_offsets(original)
    unwritable = UnwritableEditError(f"cannot write it in {encoding} and keep the other bytes as they are")
    if len(byte_starts) != len(char_starts):
        raise unwritable

    def byte_offset(char: int) -> int:
        line = bisect.bisect_right(char_starts, char) - 1
        column = char - char_starts[line]
        if column == 0:
            return byte_starts[line]
        return byte_starts[line] + _byte_column(body[byte_starts[line] : byte_starts[line + 1]], column, codec)

    try:
        encoded = [(byte_offset(start), byte_offset(end), text.encode(codec)) for start, end, text in changes]
    except UnicodeEncodeError:
        raise UnwritableEditError(f"the new text has characters {encoding} cannot encode") from None
    spliced = bom + _splice(body, encoded)
    try:
        if spliced.decode(encoding) == _splice(original, changes):
            return spliced
    except UnicodeDecodeError:
        pass
    raise unwritable


def _byte_column(line: bytes, column: int, codec: str) -> int:
    """Where the character at 0-based ``column`` (> 0) of ``line`` starts in its bytes."""
    decoder = codecs.getincrementaldecoder(codec)()
    decoded = 0
    for index in range(len(line)):
        decoded += len(decoder.decode(line[index : index + 1]))
        if decoded == column:
            return index + 1
    return len(line)


def _splice(whole, changes):
    """``whole`` (text, or bytes) with each of the sorted, apart ``(start, end, replacement)``."""
    parts, kept_from = [], 0
    for start, end, replacement in changes:
        parts += [whole[kept_from:start], replacement]
        kept_from = end
    parts.append(whole[kept_from:])
    return whole[:0].join(parts)


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
    return parsed(source) is not None


def parsed(source: str) -> cst.Module | None:
    """``source`` parsed, or None when it does not parse (then it is not written)."""
    try:
        return cst.parse_module(source)
    except Exception:  # any failure to parse means: do not write this
        return None


def write_atomically(path: Path, data: bytes, expected: bytes) -> None:
    """Put ``data`` in the file at ``path`` (see :func:`replace_file`) unless it no longer holds ``expected``.

    Right before the write the file is read and stat'ed again: if its bytes, size, mtime,
    inode or mode changed since the first look, nothing is written (:class:`StaleFileError`).
    A file its owner may not write (no ``S_IWUSR``) is never written, not even by root
    (:class:`ReadOnlyFileError`).
    """
    before = os.stat(path)
    if path.read_bytes() != expected:
        raise StaleFileError(str(path))
    if not before.st_mode & stat.S_IWUSR:
        raise ReadOnlyFileError(errno.EACCES, "read-only file (no write permission for its owner), left unchanged", str(path))

    def last_look() -> None:
        # The bytes, then the stat (an edit saved after the read shows in it).
        if path.read_bytes() != expected or _identity(os.stat(path)) != _identity(before):
            raise StaleFileError(str(path))

    replace_file(path, data, last_look)


class ReadOnlyFileError(PermissionError):
    """The file has no write permission for its owner: a fix must not replace it."""


def replace_file(path: Path, data: bytes, last_look: Callable[[], None] = lambda: None) -> None:
    """Put ``data`` in the file at ``path``, or at the end of its symbolic links (which stay).

    The data goes to a temporary file of a short unique name in the same folder (any file
    name fits; writers at the same time never share one), which is given what the file has
    (owner and group, mode, extended attributes) and renamed over it. Where that would lose
    something (the file has other hard links; or an owner or attribute the temporary file
    cannot be given, as a user other than root cannot give a file away) the file is written
    in place instead. ``last_look()`` runs right before the rename or the write, and may
    raise to stop it. On any failure the temporary file is removed and the file is left as
    it was (unless written in place when it failed).
    """
    target = Path(os.path.realpath(path))
    try:
        before: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        before = None
    if before is not None and before.st_nlink > 1:
        last_look()
        _write_in_place(target, data, before)
        return
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=".a2alint-", suffix=".tmp")
    renamed = False
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            same = _take_on(stream.fileno(), target, before)
            os.fsync(stream.fileno())
        last_look()
        if same:
            os.replace(temporary, target)
            renamed = True
        else:
            _write_in_place(target, data, before)
    finally:
        if not renamed:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary)


def _take_on(handle: int, original: Path, status: os.stat_result | None) -> bool:
    """Give the open temporary file what the file at ``original`` has: its owner and group,
    then its mode (setuid and setgid bits too, the owner being the same), then its extended
    attributes. False if one of them cannot be given. A new file gets the mode a file
    created by ``open`` would."""
    if status is None:
        mask = os.umask(0)
        os.umask(mask)
        os.fchmod(handle, 0o666 & ~mask)
        return True
    try:
        current = os.fstat(handle)
        if (current.st_uid, current.st_gid) != (status.st_uid, status.st_gid):
            os.fchown(handle, status.st_uid, status.st_gid)
        os.fchmod(handle, stat.S_IMODE(status.st_mode))
        _copy_attributes(original, handle)
    except OSError:
        return False
    return True


def _copy_attributes(source: Path, handle: int) -> None:
    """Copy the extended attributes of ``source`` (``user.*``, ACLs...) to the open file; a
    platform or filesystem without them has none to copy."""
    if not hasattr(os, "listxattr"):
        return
    try:
        names = os.listxattr(source)
    except OSError as error:
        if error.errno in (errno.ENOTSUP, errno.EOPNOTSUPP):
            return
        raise
    for name in names:
        os.setxattr(handle, name, os.getxattr(source, name))


def _write_in_place(target: Path, data: bytes, status: os.stat_result) -> None:
    """Overwrite the file itself, which keeps all it has and every hard link to it; only
    where a rename would lose something. Not atomic, so made safe another way: the space
    the new bytes need is reserved before the first byte is written (a full disk refuses
    the reservation, not the write), and if a write fails anyway its original bytes are
    written back; the error says what state the file is left in. The file opened must be
    the one ``status`` describes."""
    with open(target, "r+b") as stream:
        handle = stream.fileno()
        if _identity(os.fstat(handle)) != _identity(status):
            raise StaleFileError(str(target))
        original = stream.read()
        if len(data) > len(original) and hasattr(os, "posix_fallocate"):
            try:
                os.posix_fallocate(handle, 0, len(data))
            except OSError as error:
                if error.errno not in (errno.EOPNOTSUPP, errno.EINVAL, errno.ENOSYS):
                    os.ftruncate(handle, len(original))  # (a reservation may leave it longer)
                    raise OSError(error.errno, f"{error.strerror}; the file is unchanged") from None
        try:
            _overwrite(stream, data)
        except OSError as error:
            try:
                _overwrite(stream, original)
            except OSError:
                raise OSError(error.errno, f"{error.strerror}; the file is left partly written, and its original bytes could not be put back") from None
            raise OSError(error.errno, f"{error.strerror}; the file is unchanged (its original bytes were put back)") from None


def _overwrite(stream, data: bytes) -> None:
    stream.seek(0)
    stream.write(data)
    stream.truncate()
    stream.flush()
    os.fsync(stream.fileno())


def _identity(status: os.stat_result) -> tuple[int, ...]:
    return (status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns, status.st_mode)


def rendered(model, old: cst.CSTNode, new: cst.CSTNode) -> str | None:
    """The code of ``new`` as it will stand in place of ``old``: libcst writes the
    continuation and comment lines of a node inside an indented block relative to that
    block (``indent``), so a node generated on its own would lose their indentation; they
    are given it first. None when the block's indentation cannot be told."""
    absolute = _Absolute(_block_indent(model, old))
    node = new.visit(absolute)
    return None if absolute.unknown else model.module.code_for_node(node)


class _Absolute(cst.CSTTransformer):
    """Gives the lines of an expression that libcst indents by their block (``indent``)
    their whole indentation, ``block`` + their own; ``unknown`` if one needs an unknown block."""

    def __init__(self, block: str | None) -> None:
        super().__init__()
        self.block = block
        self.unknown = False

    def _whole(self, whitespace: cst.SimpleWhitespace) -> cst.SimpleWhitespace:
        if self.block is None:
            self.unknown = True
            return whitespace
        return cst.SimpleWhitespace(self.block + whitespace.value)

    def leave_ParenthesizedWhitespace(self, original_node, updated_node):
        if not updated_node.indent:
            return updated_node
        return updated_node.with_changes(indent=False, last_line=self._whole(updated_node.last_line))

    def leave_EmptyLine(self, original_node, updated_node):
        if not updated_node.indent:
            return updated_node
        return updated_node.with_changes(indent=False, whitespace=self._whole(updated_node.whitespace))


def _block_indent(model, node: cst.CSTNode) -> str | None:
    """The indentation of the block holding the statement of ``node`` (what libcst puts
    before a continuation line it parsed as ``indent``); None if it cannot be told."""
    child = model.statement_of.get(id(node))
    if child is None:
        return None
    default = model.module.default_indent
    parts: list[str] = []
    parent = model.parent_statement.get(id(child))
    while parent is not None:
        indent = _indent_in(parent, child, default)
        if indent is None:
            return None
        parts.append(indent)
        child, parent = parent, model.parent_statement.get(id(parent))
    return "".join(reversed(parts))


_CLAUSES = (cst.Else, cst.ExceptHandler, cst.ExceptStarHandler, cst.Finally, cst.MatchCase)


def _indent_in(parent: cst.CSTNode, child: cst.CSTNode, default: str) -> str | None:
    """The indentation the compound statement ``parent`` adds to its statement ``child``
    ('' for an ``elif``), or None if ``child`` is not found in it."""
    start = (parent.indent or default) if isinstance(parent, cst.Match) else ""
    stack = [(parent, "")]
    while stack:
        current, prefix = stack.pop()
        for sub in current.children:
            if sub is child:
                return prefix
            if isinstance(sub, cst.IndentedBlock):
                if any(statement is child for statement in sub.body):
                    return prefix + (default if sub.indent is None else sub.indent)
            elif isinstance(sub, _CLAUSES):
                stack.append((sub, prefix + start if isinstance(sub, cst.MatchCase) else prefix))
    return None
