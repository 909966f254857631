"""``# noqa`` comments and ``# a2alint: skip-file``.

``# noqa`` and ``# noqa: AC101, AC103`` work as in ruff and flake8;
``# a2alint: noqa[: codes]`` does the same for a2alint alone, for files whose
bare ``# noqa`` belongs to another tool. A suppression applies to the line a
diagnostic starts on; ``# a2alint: noqa[: codes]`` as a comment on a line of its
own applies to the whole file, as ruff's ``# ruff: noqa[: codes]`` does.
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass, field

from a2alint.diagnostics import Edit, Position
from a2alint.fixes import EditedText, split_lines

SKIP_FILE = re.compile(rb"(?:^|(?<=\r))[ \t\f]*#[ \t]*a2alint:[ \t]*skip-file\b", re.MULTILINE)
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
    #: ``# a2alint: noqa`` on a line of its own (a comment token, not a line of a string
    #: that reads like one): for every line of the file.
    whole_file: bool
    #: Read from a comment token; not when this Python's tokenizer cannot read the file
    #: and a ``#`` of the text was taken for one (it may be in a string): never rewritten.
    tokenized: bool
    used: set[str] = field(default_factory=set)

    def covers(self, code: str) -> bool:
        return self.codes is None or code in self.codes


def _comments(source: str) -> tuple[list[tuple[int, int, str]], bool]:
    """``(line, column, text)`` of each comment, and whether they are the tokenizer's (which
    knows strings from comments) rather than guessed from the text."""
    try:
        return [
            (tok.start[0], tok.start[1], tok.string)
            for tok in tokenize.generate_tokens(io.StringIO(source, newline="").readline)  # lines end at \r too
            if tok.type == tokenize.COMMENT
        ], True
    except (tokenize.TokenError, SyntaxError, ValueError):
        # Syntax newer than this interpreter's tokenizer: fall back to the text.
        found = []
        for number, line in enumerate(split_lines(source), start=1):
            index = line.find("#")
            if index >= 0:
                found.append((number, index, line[index:]))
        return found, False


def _alone(lines: list[str], line: int, column: int) -> bool:
    """Whether the comment at ``line`` and ``column`` (0-based) is all its line holds."""
    return not lines[line - 1][:column].strip()


_SKIP_COMMENT = re.compile(r"#[ \t]*a2alint:[ \t]*skip-file\b")


def skips_file(data: bytes, text: str | None) -> bool:
    """``# a2alint: skip-file`` on a line of its own, as a comment: not a line of a
    triple-quoted string that reads like one. ``text``: the decoded source, when it
    could be decoded (without it, the line is enough)."""
    if b"a2alint" not in data or not SKIP_FILE.search(data):  # the regex is slow; the word is rare
        return False
    if text is None:
        return True
    lines = split_lines(text)
    return any(_SKIP_COMMENT.match(comment) and _alone(lines, line, column) for line, column, comment in _comments(text)[0])


def find_noqa(source: str) -> dict[int, Noqa]:
    """Suppressions by the line they are on."""
    found: dict[int, Noqa] = {}
    if "noqa" not in source.lower():  # tokenizing is slow; most files have no suppression
        return found
    comments, tokenized = _comments(source)
    lines = split_lines(source)
    for line, column, text in comments:
        match = _NOQA.search(text)
        if not match:
            continue
        codes = match.group("codes")
        ours = bool(match.group("ours"))
        found[line] = Noqa(
            line=line,
            column=column + match.start() + 1,
            end_column=column + match.end() + 1,
            codes=frozenset(re.split(r"[\s,]+", codes.upper().strip())) if codes else None,
            ours=ours,
            whole_file=ours and tokenized and _alone(lines, line, column),
            tokenized=tokenized,
        )
    return found


def without_codes(line: str, noqa: Noqa, unused: frozenset[str]) -> Edit:
    """The edit of ``line`` (the text of the line of ``noqa``, with its ending) that takes
    the ``unused`` codes out of ``noqa``, as ruff's fix of an unused ``# noqa`` does: only
    those codes when others are left; else the directive, and the comment with it when it
    holds nothing else (the whole line when that is all it holds), keeping the rest of it:
    ``# noqa: AC101  # type: ignore`` keeps ``# type: ignore``, ``# noqa: AC101 why``
    keeps ``# why``."""
    match = _NOQA.match(line, noqa.column - 1)
    assert match is not None, "a noqa is found where find_noqa found it"
    listed = re.findall(r"[A-Za-z]+[0-9]+", match.group("codes") or "")
    left = [code for code in listed if code.upper() not in unused]
    if left:
        return _replaced(noqa.line, match.start("codes"), match.end("codes"), ", ".join(left))
    body = line.rstrip("\r\n")
    before, rest = body[: match.start()], body[match.end() :].lstrip()
    if not before.strip() and not rest:
        end = Position(noqa.line + 1, 1) if body != line else Position(noqa.line, len(line) + 1)
        return Edit(Position(noqa.line, 1), end, "")
    if not rest:
        return _replaced(noqa.line, len(before.rstrip()), len(body), "")
    return _replaced(noqa.line, match.start(), len(body) - len(rest), "" if rest.startswith("#") else "# ")


def _replaced(line: int, start: int, end: int, text: str) -> Edit:
    """Columns ``start`` to ``end`` (0-based, end-exclusive) of ``line`` replaced with ``text``."""
    return Edit(Position(line, start + 1), Position(line, end + 1), text)


#: Codes a ``# noqa`` cannot suppress (a file that cannot be read; a noqa itself).
NOT_SUPPRESSIBLE = frozenset({"AC000", "AC001"})


def reason_problem(reason: str) -> str | None:
    """Why ``reason`` cannot follow the codes of a ``# noqa`` (``# noqa: AC107 REASON``),
    if it cannot: it would end the line, or be read as more codes."""
    if not reason.strip() or any(not character.isprintable() for character in reason):
        return "a reason is one line of printable text"
    match = _NOQA.match(f"# noqa: AC000 {reason}")
    if match is None or match.group("codes") != "AC000":
        return f"{reason!r} would be read as rule codes; start it with a word that is not one"
    return None


def add_noqa(
    source: str, codes_by_line: dict[int, set[str]], reason: str = ""
) -> tuple[EditedText, int, list[tuple[int, str]]]:
    """``source`` with ``# noqa: CODE`` (then `` reason``, when one is given) at the end of
    each line of ``codes_by_line`` (an existing ``# noqa: ...`` there is extended with the
    codes, and keeps its own words); how many codes were added, and the lines left alone
    with why. Only comments are added: no other byte changes, not even the whitespace a
    line ends in, which the comment follows (two characters of whitespace, at least, apart
    from the code: the line's own count)."""
    lines = split_lines(source)
    try:
        open_ends = _open_line_ends(source, lines)
    except (tokenize.TokenError, SyntaxError, ValueError):
        why = "this Python's tokenizer cannot read the file, so comments cannot be placed safely"
        return EditedText(source), 0, [(line, why) for line in sorted(codes_by_line)]
    existing = find_noqa(source)
    added = 0
    skipped = []
    comments = []
    for number, wanted in sorted(codes_by_line.items()):
        noqa = existing.get(number)
        if not 1 <= number <= len(lines) or (noqa is not None and noqa.codes is None):
            continue
        new = wanted - (noqa.codes if noqa else frozenset())
        codes = ", ".join(sorted(new))
        if not new:
            continue
        if noqa is not None:  # extend it, after its last code
            at, comment = noqa.end_column, f", {codes}"
        elif number in open_ends:
            skipped.append((number, "the line ends inside a string or continues on the next one; add the comment by hand"))
            continue
        else:
            body = lines[number - 1].rstrip("\r\n")
            trailing = len(body) - len(body.rstrip(" \t"))
            at, comment = len(body) + 1, " " * max(2 - trailing, 0) + f"# noqa: {codes}" + (f" {reason}" if reason else "")
        comments.append(Edit(Position(number, at), Position(number, at), comment))
        added += len(new)
    return EditedText(source).edited(comments), added, skipped


def _open_line_ends(source: str, lines: list[str]) -> set[int]:
    """The lines whose end is inside a string (or an f-string) or continued by a backslash:
    a comment cannot go there."""
    inside: set[int] = set()
    commented: set[int] = set()
    opened: list[int] = []  # first lines of the f-strings (and t-strings) not closed yet
    starts = {getattr(tokenize, name) for name in ("FSTRING_START", "TSTRING_START") if hasattr(tokenize, name)}
    ends = {getattr(tokenize, name) for name in ("FSTRING_END", "TSTRING_END") if hasattr(tokenize, name)}
    for tok in tokenize.generate_tokens(io.StringIO(source, newline="").readline):
        if tok.type == tokenize.COMMENT:
            commented.add(tok.start[0])
        elif tok.type in starts:
            opened.append(tok.start[0])
        elif tok.type in ends and opened:
            inside.update(range(opened.pop(), tok.end[0]))
        elif tok.start[0] < tok.end[0] and tok.type not in (tokenize.NEWLINE, tokenize.NL):
            inside.update(range(tok.start[0], tok.end[0]))  # a string over several lines
    for number, line in enumerate(lines, start=1):
        if line.rstrip("\r\n").endswith("\\") and number not in commented:
            inside.add(number)  # joined to the next line by a backslash
    return inside
