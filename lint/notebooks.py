"""Jupyter notebooks, checked as ruff checks them: their code cells joined into one module.

A notebook's code cells become one Python source, one cell after another, so that it is
parsed once and the whole analysis applies (a notebook is a module of the project that
nothing imports). IPython's escapes (``%magic``, ``!shell``, ``x = !cmd``, ``obj?``) become
a no-op line in their place, so that every line keeps its number; a cell run by a cell
magic that is not Python (``%%bash``, ``%%html``...) is left out. The last line of the
joined source says where each cell starts (a comment), so that the positions of a
finding can be told in cells (``nb.ipynb:cell 3:2:5``) from the source alone, wherever
it was checked or cached.
"""

from __future__ import annotations

import bisect
import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Iterable

from a2alint.diagnostics import Cell, Diagnostic
from a2alint.fixes import split_lines

SUFFIX = ".ipynb"
#: A notebook of up to this many times max-file-size in all is read: its code is bounded by max-file-size.
OUTPUTS_ALLOWANCE = 32
#: Cell magics whose body is Python run in the notebook's namespace: the first line is
#: the magic's, the rest is checked. Any other cell magic's body is another language.
PYTHON_CELL_MAGICS = frozenset({"capture", "debug", "prun", "time", "timeit"})
#: The last line of a joined notebook: ``# notebook cells: 2:0 4:7`` (a cell's number and
#: the line of the joined source it starts after).
_CELLS_LINE = "# notebook cells:"
_CELLS_MAP = re.compile(rb"\n?# notebook cells:((?: \d+:\d+)*)\n\Z")
_PAIR = re.compile(rb"(\d+):(\d+)")
_CELL_MAGIC = re.compile(r"%%(\w+)")
_OBJECT = re.compile(rb"\s*\{")
#: ``x = %magic ...`` and ``x = !command``: the value an escape gives a name.
_ASSIGNED_ESCAPE = re.compile(r"([ \t]*)([\w.\[\](), *]+?)[ \t]*=[ \t]*[%!]")
#: ``obj?``, ``obj.attr??``, ``*pattern*?``: asking for help.
_HELP = re.compile(r"[ \t]*[\w.*]+\?{1,2}[ \t]*$")


class NotebookError(OSError):
    """A ``.ipynb`` file that is not a notebook a2alint can read (one ``AC000``, placed at
    ``line``, ``column`` of the file when the JSON is broken there)."""

    def __init__(self, message: str, line: int = 1, column: int = 1) -> None:
        super().__init__(message)
        self.strerror, self.line, self.column = message, line, column


def is_notebook(path: Path | str) -> bool:
    return str(path).endswith(SUFFIX)


def read_limit(path: Path, limit: int) -> int:
    """How many bytes of the file ``path`` are read for ``limit`` bytes of code (the
    max-file-size setting): a notebook's outputs (images, tables) do not count against its code."""
    return limit * OUTPUTS_ALLOWANCE if is_notebook(path) else limit


def source_of(path: Path, data: bytes, limit: int, buffer: bool = False) -> bytes:
    """The bytes a2alint checks for the file ``path`` read as ``data``: for a notebook its
    code cells joined (UTF-8), which ``limit`` bounds as it bounds a file; any other file,
    and a notebook too large to read whole (refused as too large, on its own bytes), as it
    is. A ``buffer`` given in place of the file (``limit`` bytes at most) is a notebook's
    JSON (piped in) or, when it is no JSON object, Python (an editor's cell)."""
    if not is_notebook(path) or len(data) > (limit if buffer else read_limit(path, limit)):
        return data
    if buffer and not _OBJECT.match(data):
        return data
    return joined(data).encode("utf-8", "surrogatepass")


def is_joined(data: bytes) -> bool:
    """Whether ``data`` is a notebook's code cells joined (its last line maps the cells)."""
    return _cells_map(data) is not None


def _cells_map(data: bytes) -> re.Match[bytes] | None:
    return _CELLS_MAP.match(data, max(0, data.rfind(b"\n", 0, -1)))


def joined(data: bytes) -> str:
    """The code cells of the notebook ``data`` as one Python source (see the module's doc)."""
    try:
        document = json.loads(data)
    except UnicodeDecodeError as error:
        raise NotebookError(f"not a Jupyter notebook: not UTF-8 text ({error.reason})") from None
    except json.JSONDecodeError as error:
        raise NotebookError(f"not a Jupyter notebook: invalid JSON ({error.msg})", error.lineno, error.colno) from None
    except RecursionError:
        raise NotebookError("not a Jupyter notebook: JSON nested too deeply") from None
    cells = document.get("cells") if isinstance(document, dict) else None
    if not isinstance(document, dict) or document.get("nbformat") != 4 or not isinstance(cells, list):
        raise NotebookError("not a Jupyter notebook in nbformat 4 (a JSON object with 'nbformat': 4 and a list of 'cells')")
    lines: list[str] = []
    starts: list[str] = []
    if _is_python(document.get("metadata")):
        for number, cell in enumerate(cells, start=1):
            if not isinstance(cell, dict) or cell.get("cell_type") != "code":
                continue
            code = _code(cell.get("source", ""), number)
            if code:
                starts.append(f" {number}:{len(lines)}")
                lines += code
    return "".join(lines) + _CELLS_LINE + "".join(starts) + "\n"


def _is_python(metadata: object) -> bool:
    """Whether the notebook's kernel runs Python (one that does not say is taken to)."""
    if not isinstance(metadata, dict):
        return True
    for table, key in (("kernelspec", "language"), ("language_info", "name")):
        found = metadata.get(table)
        language = found.get(key) if isinstance(found, dict) else None
        if isinstance(language, str) and language.lower() != "python":
            return False
    return True


def _code(source: object, number: int) -> list[str]:
    """The lines of a code cell as Python, each ended by a newline; none for a cell run by
    a cell magic of another language."""
    if isinstance(source, list) and all(isinstance(part, str) for part in source):
        source = "".join(source)
    if not isinstance(source, str):
        raise NotebookError(f"not a Jupyter notebook: the source of cell {number} is not text")
    lines = [line.rstrip("\r\n") + "\n" for line in split_lines(source)]
    magic = _CELL_MAGIC.match(lines[0]) if lines else None
    if magic is not None:
        if magic[1] not in PYTHON_CELL_MAGICS:
            return []
        lines[0] = "pass\n"
    inside = _Inside()
    escape_goes_on = False
    for index, line in enumerate(lines[1 if magic else 0 :], start=1 if magic else 0):
        if escape_goes_on:  # a line of the escape above it, which ended with a backslash
            lines[index] = "\n"
        elif inside.statement_starts():
            lines[index] = _without_escape(line)
        escape_goes_on = lines[index] != line and line.rstrip("\n").endswith("\\")
        if lines[index] == line:
            inside.read(line)
    return lines


class _Inside:
    """Whether a line of a cell starts a statement: not inside brackets or a triple-quoted
    string, nor after a backslash (an operator such as ``%`` or ``!=`` may start a line there)."""

    def __init__(self) -> None:
        self.depth, self.quote, self.continued = 0, "", False

    def statement_starts(self) -> bool:
        return not (self.depth or self.quote or self.continued)

    def read(self, line: str) -> None:
        """Follow ``line`` (Python): its brackets, strings and comment."""
        index, end = 0, len(line)
        while index < end:
            char = line[index]
            if self.quote:
                if char == "\\":
                    index += 1
                elif line.startswith(self.quote, index):
                    index += len(self.quote) - 1
                    self.quote = ""
            elif char == "#":
                break
            elif char in "\"'":
                self.quote = line[index : index + 3] if line[index : index + 3] in ('"""', "'''") else char
                index += len(self.quote) - 1
            elif char in "([{":
                self.depth += 1
            elif char in ")]}":
                self.depth = max(0, self.depth - 1)
            index += 1
        if len(self.quote) == 1:  # a string left open at the end of its line: a syntax error
            self.quote = ""
        self.continued = not self.quote and line.rstrip("\n").endswith("\\")


def _without_escape(line: str) -> str:
    """``line`` with an IPython escape made a no-op of the same place: ``pass`` for a
    statement, ``x = ...`` for a value given to a name."""
    body = line.lstrip(" \t")
    indent = line[: len(line) - len(body)]
    if body[:1] in ("%", "!", "?") or _HELP.match(line):
        return f"{indent}pass\n"
    assigned = _ASSIGNED_ESCAPE.match(line)
    if assigned is not None:
        return f"{assigned[1]}{assigned[2]} = ...\n"
    return line


class Cells:
    """Where each line of a joined notebook is: its cell, and its line in that cell."""

    def __init__(self, data: bytes) -> None:
        """``data``: the joined source (a notebook too large to be joined has no cells)."""
        found = _cells_map(data)
        #: Whether ``data`` is a joined notebook at all (not one too large to be, nor an editor's cell).
        self.joined = found is not None
        self.cells = [Cell(int(number), int(offset)) for number, offset in _PAIR.findall(found[1] if found else b"")]
        self._offsets = [cell.offset for cell in self.cells]
        #: The line of the cells' map, the last (every line of a joined source ends with "\n"): no cell's.
        self.end = data.count(b"\n")

    def at(self, line: int) -> Cell | None:
        found = bisect.bisect_left(self._offsets, line) - 1
        return self.cells[found] if found >= 0 and line < self.end else None


def in_cells(diagnostics: Iterable[Diagnostic], notebooks: dict[str, Cells]) -> list[Diagnostic]:
    """``diagnostics`` with their places in ``notebooks`` (by display path) told in cells;
    a notebook's own fixes are dropped (they are not applied to notebooks yet)."""
    placed = []
    for diagnostic in diagnostics:
        cells = notebooks.get(diagnostic.path)
        if cells is not None and cells.joined:
            diagnostic = replace(diagnostic, cell=cells.at(diagnostic.line), fix=None)
        if any(note.path in notebooks for note in diagnostic.related):
            related = tuple(
                replace(note, cell=notebooks[note.path].at(note.line)) if note.path in notebooks else note
                for note in diagnostic.related
            )
            diagnostic = replace(diagnostic, related=related)
        placed.append(diagnostic)
    return placed
