"""``# noqa`` comments and ``# a2alint: skip-file``.

``# noqa`` and ``# noqa: AC101, AC103`` work as in ruff and flake8;
``# a2alint: noqa[: codes]`` does the same for a2alint alone, for files whose
bare ``# noqa`` belongs to another tool. A suppression applies to the line a
diagnostic starts on.
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass, field

from a2alint.fixes import split_lines

SKIP_FILE = re.compile(rb"^[ \t\f]*#[ \t]*a2alint:[ \t]*skip-file\b", re.MULTILINE)
_NOQA = re.compile(
    r"#\s*(?P<ours>a2alint:\s*)?noqa(?::\s*(?P<codes>[A-Z]+[0-9]+(?:[\s,]+[A-Z]+[0-9]+)*))?",
    re.IGNORECASE,
)


@dataclass
class Noqa:
    line: int
    column: int  # 1-based column of the ``#``
    end_column: int
    codes: frozenset[str] | None  # None: every code
    ours: bool  # ``# a2alint: noqa``
    used: set[str] = field(default_factory=set)

    def covers(self, code: str) -> bool:
        return self.codes is None or code in self.codes


def _comments(source: str) -> list[tuple[int, int, str]]:
    """``(line, column, text)`` of each comment; tokenize knows strings from comments."""
    try:
        return [
            (tok.start[0], tok.start[1], tok.string)
            for tok in tokenize.generate_tokens(io.StringIO(source, newline="").readline)  # lines end at \r too
            if tok.type == tokenize.COMMENT
        ]
    except (tokenize.TokenError, SyntaxError, ValueError):
        # Syntax newer than this interpreter's tokenizer: fall back to the text.
        found = []
        for number, line in enumerate(split_lines(source), start=1):
            index = line.find("#")
            if index >= 0:
                found.append((number, index, line[index:]))
        return found


def find_noqa(source: str) -> dict[int, Noqa]:
    """Suppressions by line number."""
    found: dict[int, Noqa] = {}
    if "noqa" not in source.lower():  # tokenizing is slow; most files have no suppression
        return found
    for line, column, text in _comments(source):
        match = _NOQA.search(text)
        if not match:
            continue
        codes = match.group("codes")
        found[line] = Noqa(
            line=line,
            column=column + match.start() + 1,
            end_column=column + match.end() + 1,
            codes=frozenset(re.split(r"[\s,]+", codes.upper().strip())) if codes else None,
            ours=bool(match.group("ours")),
        )
    return found
