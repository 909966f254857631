"""What a run reports: diagnostics, their fixes and related locations.

Positions are 1-based lines and columns, end-exclusive, so every reporter
prints what the user's editor shows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Severity = Literal["error", "warning"]
Applicability = Literal["safe", "unsafe"]


@dataclass(frozen=True, order=True)
class Position:
    line: int
    column: int


@dataclass(frozen=True)
class Edit:
    """Replace the text between ``start`` and ``end`` with ``content``."""

    start: Position
    end: Position
    content: str

    def to_json(self) -> dict:
        return {
            "content": self.content,
            "location": {"row": self.start.line, "column": self.start.column},
            "end_location": {"row": self.end.line, "column": self.end.column},
        }


@dataclass(frozen=True)
class Fix:
    applicability: Applicability
    edits: tuple[Edit, ...]
    description: str = ""

    def to_json(self) -> dict:
        return {"applicability": self.applicability, "edits": [edit.to_json() for edit in self.edits]}


@dataclass(frozen=True)
class Cell:
    """The code cell of a notebook a line is in: its number among all the notebook's
    cells (from 1, as ruff and Jupyter's editors count them), and the line of the
    notebook's joined code that the cell starts after (see :mod:`a2alint.notebooks`)."""

    number: int
    offset: int

    def shown(self, line: int) -> str:
        """``line`` of the joined code as the user finds it: ``cell 3:2``."""
        return f"cell {self.number}:{line - self.offset}"


def place(line: int, column: int, cell: Cell | None) -> str:
    """``line:column`` as the user finds it: ``cell 3:2:5`` in a notebook."""
    return f"{cell.shown(line)}:{column}" if cell else f"{line}:{column}"


def _in_cell(data: dict, cell: Cell | None, lines: tuple[str, ...]) -> dict:
    """A JSON form with its ``lines`` told in its cell, and the cell, as ruff's JSON has them."""
    if cell is not None:
        data.update({name: data[name] - cell.offset for name in lines}, cell=cell.number)
    return data


@dataclass(frozen=True)
class Related:
    """Another place that explains a finding: the send, the guard, the fetch."""

    path: str
    line: int
    column: int
    label: str
    cell: Cell | None = None

    def position(self) -> str:
        return place(self.line, self.column, self.cell)

    def to_json(self) -> dict:
        return _in_cell({"path": self.path, "line": self.line, "column": self.column, "label": self.label}, self.cell, ("line",))


@dataclass(frozen=True)
class Diagnostic:
    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    code: str
    rule: str
    severity: Severity
    message: str
    suggestion: str | None = None
    fix: Fix | None = None
    related: tuple[Related, ...] = field(default=())
    #: A code flow in execution order: 0 is the finding, ``i`` is ``related[i - 1]``.
    code_flow: tuple[int, ...] = field(default=())
    #: In a notebook, the cell the finding is in; ``line`` and ``end_line`` are then lines
    #: of the notebook's joined code (what noqa comments, code frames and fingerprints read).
    cell: Cell | None = None

    def sort_key(self) -> tuple:
        return (self.path, self.line, self.column, self.code)

    def position(self) -> str:
        """Where the finding starts, as ``line:column`` (``cell 3:2:5`` in a notebook)."""
        return place(self.line, self.column, self.cell)

    @property
    def row(self) -> int:
        """The line the user finds the finding on: in its cell, in a notebook."""
        return self.line - self.cell.offset if self.cell else self.line

    @property
    def end_row(self) -> int:
        return self.end_line - self.cell.offset if self.cell else self.end_line

    def to_json(self) -> dict:
        return _in_cell({
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column,
            "code": self.code,
            "rule": self.rule,
            "severity": self.severity,
            "message": self.message,
            "suggestion": self.suggestion,
            "fix": self.fix.to_json() if self.fix else None,
            "related": [r.to_json() for r in self.related],
        }, self.cell, ("line", "end_line"))

    @classmethod
    def from_json(cls, data: dict) -> "Diagnostic":
        fix = None
        if data.get("fix"):
            fix = Fix(
                applicability=data["fix"]["applicability"],
                edits=tuple(
                    Edit(
                        Position(e["location"]["row"], e["location"]["column"]),
                        Position(e["end_location"]["row"], e["end_location"]["column"]),
                        e["content"],
                    )
                    for e in data["fix"]["edits"]
                ),
            )
        return cls(
            path=data["path"],
            line=data["line"],
            column=data["column"],
            end_line=data["end_line"],
            end_column=data["end_column"],
            code=data["code"],
            rule=data["rule"],
            severity=data["severity"],
            message=data["message"],
            suggestion=data.get("suggestion"),
            fix=fix,
            related=tuple(Related(**r) for r in data.get("related", ())),
            code_flow=tuple(int(step) for step in data.get("code_flow", ())),
        )
