"""How deeply a file nests, measured before it is parsed, and room to parse it.

libcst's native parser recurses once per level of an expression and takes time
quadratic in the depth; past about 1,500 nested brackets it overflows the C stack
and the whole process dies (a segfault, no traceback). Its Python-level helpers
and ours recurse per level too. So before parsing, one cheap scan over the text
(strings and comments skipped) estimates the depth of each statement:

- more than 200 nested brackets is refused as CPython refuses it ("too many nested
  parentheses": it is a syntax error in every Python version);
- a statement nested deeper than ``MAX_DEPTH`` (chained operators, lambdas, ``not``,
  calls, attributes...), more than ``MAX_STRINGS`` implicitly concatenated strings, or
  deep statements whose analysis would together take too long, is refused as "nested
  too deeply to check": past there, parsing and the model take seconds per statement,
  growing with the square of the depth or faster (ordinary code stays below 300);
- anything deeper than ``ROOMY`` is parsed and modelled on a thread with a large stack
  and a raised recursion limit, so that no depth that passes the scan can crash the
  process.

Every file's analysis runs on such a thread too (:func:`with_room`): its questions nest
through the project as deep as the project's modules hand values on.
"""

from __future__ import annotations

import os
import queue
import re
import sys
import threading
from dataclasses import dataclass
from typing import Callable, TypeVar

from a2alint import control

#: CPython's tokenizer refuses deeper bracket nesting (MAXLEVEL) in every version.
MAX_BRACKETS = 200
#: Deeper statements are not checked (1,000 levels of ``a.b.b...`` take 4 s to analyse).
MAX_DEPTH = 1000
#: More adjacent string literals than this are not checked (the model is quadratic in them).
MAX_STRINGS = 1000
#: Sum of the squared depths of the statements deeper than ``ROOMY`` (and of the squared
#: lengths of long implicit concatenations, ``STRING_COST`` times): a bound on analysis
#: time, of about a microsecond per unit.
MAX_COST = 10_000_000
STRING_COST = 5
#: Deeper files are analysed on a thread with ``STACK_BYTES`` of stack.
ROOMY = 100
STACK_BYTES = 512 * 1024 * 1024
#: Python frames allowed per level of nesting on that thread (libcst's code generator
#: and the model's helpers take a few each).
FRAMES_PER_LEVEL = 20
#: ``elif`` clauses that weigh one level: each is an ``if`` inside the one before to the
#: parser, which overflows the C stack past about 8,500 of them in a chain (about 1,500
#: brackets), so a long chain is parsed on the roomy thread too.
ELIFS_PER_LEVEL = 4
#: The start of a logical line: its indentation and first word.
_LINE_HEAD = re.compile(r"([ \t]*)(\w*)")

#: A string literal other than an f-string or t-string. A prefix is one only when it is a
#: whole name (``if"x"`` is the keyword ``if`` and a string, ``rb"x"`` one string), as in
#: Python's tokenizer, so the quote after any other name or keyword starts a plain string.
_STRING = r"""(?:(?<![\w])(?:[uU]|[rR][bB]?|[bB][rR]?))?(?:
    '''[^'\\]*(?:(?:\\[\s\S]|'(?!''))[^'\\]*)*(?:'''|\Z)
  | \"\"\"[^"\\]*(?:(?:\\[\s\S]|"(?!""))[^"\\]*)*(?:\"\"\"|\Z)
  | '[^'\\\r\n]*(?:\\(?:\r\n|[\s\S])[^'\\\r\n]*)*(?:'|(?=[\r\n])|\Z)
  | "[^"\\\r\n]*(?:\\(?:\r\n|[\s\S])[^"\\\r\n]*)*(?:"|(?=[\r\n])|\Z)
)"""
#: The start of an f-string or t-string, up to its opening quote. Its replacement fields
#: hold code, which may reuse the string's quote (Python 3.12's and libcst's reading).
_FSTRING = r"""(?<![\w])(?:[fFtT][rR]?|[rR][fFtT])(?:'''|\"\"\"|'|")"""


def _tokens(field: bool) -> "re.Pattern[str]":
    """The tokens that nest, outside strings and comments; in a replacement field (``field``)
    also ``:``, which starts the field's format spec outside the field's brackets."""
    return re.compile(
        rf"""(?=[#'"(\[{{)\]}},;\\\r\n*/<>+\-%@&|^~.{":" if field else ""}]|(?<![\w])[rRbBuUfFtTlaoien0-9])  # a first look
        (?:
          (?P<comment>\#[^\r\n]*)
        | (?P<string>{_STRING})
        | (?P<fstring>{_FSTRING})
        | (?P<open>[(\[{{])
        | (?P<close>[)\]}}])
        | (?P<separator>[,;])
        | (?P<continuation>\\(?:\r\n|\r|\n))
        | (?P<newline>\r\n|\r|\n)
        | (?P<number>(?<![\w])\d[\w.]*)
        | (?P<operator>\*\*|//|<<|>>|[-+*/%@&|^~.]|\b(?:lambda|not|and|or|if|else|await)\b)
        {"| (?P<colon>:)" if field else ""}
        )""",
        re.VERBOSE,
    )


_TOKENS = _tokens(field=False)
_FIELD_TOKENS = _tokens(field=True)


def _literal(quote: str, raw: bool, spec: bool) -> "re.Pattern[str]":
    """The text of an f-string (or of a format spec: ``spec``) up to its next ``{``, ``}``,
    closing quote or (a one-line string) line end: ``{{`` and ``}}`` are text outside
    format specs, escapes are skipped (``\\N{...}`` whole, unless the string is ``raw``)."""
    q = re.escape(quote[0])
    parts = [rf"[^{{}}\\{q}]+" if len(quote) == 3 else rf"[^{{}}\\{q}\r\n]+"]
    if len(quote) == 3:
        parts.append(rf"{q}(?!{q}{q})")
    if not raw:
        parts.append(r"\\N\{[\w \-]*\}")
    parts.append(r"\\(?:\r\n|[^{}]|(?=[{}])|\Z)")
    if not spec:
        parts.append(r"\{\{|\}\}")
    return re.compile("(?:" + "|".join(parts) + ")*")


#: A replacement field of names, dots and spaces, with a conversion and a plain format spec.
_SIMPLE_FIELD = re.compile(r"""([\w. ]*)(?:![rsa])?(?::[^{}'"\\\r\n]*)?\}""")
#: ``(quote, raw)``: the patterns of an f-string's text and of its format specs.
_LITERALS = {
    (quote, raw): (_literal(quote, raw, False), _literal(quote, raw, True))
    for quote in ("'", '"', "'''", '"""')
    for raw in (False, True)
}

T = TypeVar("T")
#: What a line that is not a top-level statement's starts with (``\f`` counts as
#: indentation to CPython: a file with one is placed whole).
_NOT_CODE = frozenset(" \t\f\r\n#")


def _longest_elif_chain(text: str, starts: list[int]) -> int:
    """The most ``elif`` clauses of one ``if`` statement, from where the logical lines of
    ``text`` start: a run of them at one indentation, until a line of code at that
    indentation or less that is neither ``elif`` nor ``else``."""
    longest, runs = 0, {}  # indentation -> the elifs of the chain open there
    size = len(text)
    for start in starts:
        if start >= size or text[start] in "#\r\n":
            continue
        indent, word = _LINE_HEAD.match(text, start).groups()
        if text[start + len(indent) : start + len(indent) + 1] in ("#", "\r", "\n", ""):
            continue  # a comment or blank line: part of no chain
        depth = len(indent)
        if word == "elif":
            runs[depth] = runs.get(depth, 0) + 1
            longest = max(longest, runs[depth])
        elif word != "else":
            runs = {d: n for d, n in runs.items() if d < depth}
    return longest


@dataclass(frozen=True)
class Nesting:
    """The deepest statement of a file, and why it cannot be checked (if it cannot)."""

    depth: int
    #: ``(line, column, message)`` of an ``AC000``, or None when the file can be parsed.
    refusal: tuple[int, int, str] | None = None
    #: Where the lines that begin a top-level statement or clause start (offsets of the
    #: logical lines with code in their first column), when the whole text was read.
    tops: tuple[int, ...] | None = None

    @classmethod
    def of(cls, text: str) -> "Nesting":
        """Estimate the nesting depth of each statement of ``text`` from its tokens: one
        level per enclosing bracket and per operator, keyword, call or adjacent string of
        an element (commas and semicolons end elements, newlines outside brackets end
        statements). An upper bound of libcst's depth for ordinary code. One pass, with
        local variables only: it runs on every file that is parsed.

        Strings, comments and brackets are read as Python's tokenizer reads them. The
        replacement fields of f-strings are code, each one bracket deeper (their ``{``
        and ``}``), read with their own nested strings (PEP 701) and format specs."""
        starts = [0]  # the depth at which each open bracket's elements start
        counts: list[int] = []  # ``count`` of each enclosing bracket, while inside a nested one
        count = 0  # levels since the last comma of the innermost bracket
        statement = deepest = cost = strings = 0  # ``strings``: adjacent strings so far
        ends = [0]  # where each logical line starts
        #: The f-strings being read, innermost last: ``[text, spec, quote, strings, level,
        #: fields]``: the patterns of its text and format specs, its quote, ``strings`` once
        #: it ends, ``len(counts)`` where it starts, and its open fields as ``[len(counts)
        #: inside, in its format spec]`` (a field opens in the format spec of the one before).
        fstrings: list[list] = []
        pos, pattern = 0, _TOKENS
        while True:
            for match in pattern.finditer(text, pos):
                kind = match.lastgroup
                if kind == "string" or kind == "fstring":
                    strings += 1
                    if strings > 1:  # implicit concatenation nests one level per string
                        count += 1
                    if strings > MAX_STRINGS:
                        refusal = f"nested too deeply to check (more than {MAX_STRINGS} implicitly concatenated strings)"
                        return cls(deepest, (*_position(text, match.start()), refusal))
                    if kind == "fstring":
                        opening = match.group()
                        quote = opening[-3:] if opening[-3:] in ('"""', "'''") else opening[-1]
                        fstrings.append([*_LITERALS[quote, "r" in opening or "R" in opening], quote, strings, len(counts), []])
                elif kind == "comment" or kind == "continuation" or kind == "number" or (kind == "newline" and counts):
                    continue
                elif kind == "colon":  # in a replacement field: its format spec, outside its brackets
                    field = fstrings[-1][5][-1]
                    if len(counts) == field[0]:
                        field[1] = True
                        pos = match.end()
                        break
                    continue
                else:
                    if strings > ROOMY:  # the model reads a concatenation once per string in it
                        cost += STRING_COST * strings * strings
                    strings = 0
                    if kind == "operator":
                        count += 1
                    elif kind == "open":
                        counts.append(count)
                        starts.append(starts[-1] + count + 1)
                        count = 0
                        if len(counts) > MAX_BRACKETS:
                            refusal = _TOO_MANY_BRACKETS
                            return cls(max(deepest, len(counts)), (*_position(text, match.start()), refusal))
                    elif kind == "close":
                        if fstrings and len(counts) == fstrings[-1][5][-1][0]:  # at the field's own bracket
                            if match.group() != "}":
                                continue  # ``)`` or ``]`` closing the field: a syntax error, not a way out
                            kind = "fstring"  # the end of the field: its f-string goes on
                            fstrings[-1][5].pop()
                        if counts:
                            count = counts.pop()
                            starts.pop()
                        if kind == "close":  # (the fields of an f-string are side by side)
                            count += 1  # what it closes may be called or subscripted again: f()()...
                    elif kind == "separator":
                        count = 0
                    else:  # a newline that ends a statement
                        cost += statement * statement if statement > ROOMY else 0
                        statement = count = 0
                        ends.append(match.end())
                        continue
                here = starts[-1] + count
                if here > statement:
                    statement = here
                    if here > deepest:
                        deepest = here
                        if here > MAX_DEPTH:
                            refusal = _TOO_DEEP
                            return cls(deepest, (*_position(text, match.start()), refusal))
                if kind == "fstring":  # the text of an f-string follows
                    pos = match.end()
                    break
            else:
                break  # the end of the text
            while fstrings:  # the text of the innermost f-string (or of a format spec in it), up to code
                literal, spec, quote, after, level, fields = fstrings[-1]
                if fields and not fields[-1][1]:
                    break  # in a replacement field: code
                stop = (spec if fields else literal).match(text, pos).end()
                char = text[stop : stop + 1]
                pos = stop + 1
                simple = char == "{" and not fields and _SIMPLE_FIELD.match(text, pos)
                if simple:  # a field of names and dots (most are), read here: one bracket deeper,
                    pos = simple.end()  # and a level per dot or space (each ``and``, ``or``... has two)
                    inside = simple.group(1)
                    here = starts[-1] + count + 1 + inside.count(".") + inside.count(" ")
                    if len(counts) >= MAX_BRACKETS:
                        refusal = _TOO_MANY_BRACKETS
                        return cls(max(deepest, len(counts) + 1), (*_position(text, stop), refusal))
                elif char == "{":  # a replacement field: one bracket deeper, read as code
                    counts.append(count)
                    starts.append(starts[-1] + count + 1)
                    count = strings = 0
                    fields.append([len(counts), False])
                    if len(counts) > MAX_BRACKETS:
                        refusal = _TOO_MANY_BRACKETS
                        return cls(max(deepest, len(counts)), (*_position(text, stop), refusal))
                    here = starts[-1]
                elif char == "}":
                    if not fields:
                        continue  # a single ``}`` in the text: a syntax error
                    fields.pop()  # the end of a format spec, and of its field
                    if counts:
                        count = counts.pop()
                        starts.pop()
                    here = starts[-1] + count
                elif not char:
                    break  # the end of the text
                else:  # the closing quote, or the end of the line of an unterminated string
                    fstrings.pop()
                    if len(counts) > level:  # fields left open: a syntax error
                        count = counts[level]
                        del counts[level:], starts[level + 1 :]
                    strings = after
                    pos = stop + len(quote) if char == quote[0] else stop
                    continue
                if here > statement:
                    statement = here
                    if here > deepest:
                        deepest = here
                        if here > MAX_DEPTH:
                            refusal = _TOO_DEEP
                            return cls(deepest, (*_position(text, stop), refusal))
            pattern = _FIELD_TOKENS if fstrings else _TOKENS
        cost += (STRING_COST * strings * strings if strings > ROOMY else 0) + (statement * statement if statement > ROOMY else 0)
        if cost > MAX_COST:
            return cls(deepest, (1, 1, "nested too deeply to check (too many deeply nested statements)"))
        size = len(text)
        if text.count("elif") > ELIFS_PER_LEVEL * ROOMY:  # (only a file with that many pays the pass)
            deepest = max(deepest, _longest_elif_chain(text, ends) // ELIFS_PER_LEVEL)
        return cls(deepest, None, tuple(at for at in ends if at < size and text[at] not in _NOT_CODE))

    def run(self, function: Callable[..., T], *args) -> T:
        """``function(*args)``, on a thread with room for this depth when it is deep."""
        if self.depth <= ROOMY:
            return function(*args)
        return with_room(self.frames, function, *args)

    @property
    def frames(self) -> int:
        """The Python frames that handling this file's deepest statement may take."""
        return 1000 + FRAMES_PER_LEVEL * self.depth

    def survives(self, parse: Callable[[str], object], text: str) -> bool:
        """Whether ``parse(text)`` (libcst's native parser) returns without taking the
        process down: a crash of native code cannot be caught, so a deep file is parsed
        first in a forked child, which alone dies if it does. Shallow files, and systems
        without ``fork``, are not tried."""
        if self.depth <= ROOMY or not hasattr(os, "fork"):
            return True
        child = os.fork()
        if child == 0:  # pragma: no cover - the child's coverage is not collected
            try:
                self.run(parse, text)
            except BaseException:  # a refusal is the parent's to report: only a crash counts here
                pass
            os._exit(0)
        _, status = os.waitpid(child, 0)
        return not os.WIFSIGNALED(status)


_TOO_MANY_BRACKETS = f"syntax error: too many nested parentheses (more than {MAX_BRACKETS} levels)"
_TOO_DEEP = f"nested too deeply to check (more than {MAX_DEPTH} levels in one statement)"

_ROOM = threading.RLock()  # (re-entered by work handed back to the caller: see on_caller)
_ROOMY_THREAD = threading.local()


def with_room(frames: int, function: Callable[..., T], *args) -> T:
    """``function(*args)`` on a thread with ``STACK_BYTES`` of stack and a recursion limit
    of at least ``frames`` (in place when already on one). The limit is the interpreter's:
    one such thread at a time. What the caller's thread was told to stop on
    (:func:`~a2alint.control.cancellable`) stops the work there too; work the thread hands
    back (:func:`on_caller`) runs on the caller's thread meanwhile."""
    if getattr(_ROOMY_THREAD, "active", False):
        return function(*args)
    unwanted = control.unwanted()
    with _ROOM:
        limit = sys.getrecursionlimit()
        outcome: dict[str, object] = {}
        jobs: queue.SimpleQueue = queue.SimpleQueue()

        def target() -> None:
            _ROOMY_THREAD.active, _ROOMY_THREAD.jobs = True, jobs
            try:
                with control.cancellable(unwanted):
                    outcome["value"] = function(*args)
            except BaseException as error:  # handed to the caller's thread
                outcome["error"] = error
            finally:
                jobs.put(None)

        try:
            previous = threading.stack_size(STACK_BYTES)
        except (ValueError, RuntimeError):  # a platform that cannot: the default stack
            previous = None
        try:
            thread = threading.Thread(target=target, name="a2alint-roomy", daemon=True)
            sys.setrecursionlimit(max(limit, frames))
            thread.start()
        finally:
            if previous is not None:
                threading.stack_size(previous)
        try:
            while (job := jobs.get()) is not None:
                job()
            thread.join()
        finally:
            sys.setrecursionlimit(limit)
    if "error" in outcome:
        raise outcome.pop("error")  # (popped: left in outcome, it would hold the frames that hold outcome)
    return outcome["value"]  # type: ignore[return-value]


def on_caller(function: Callable[..., T], *args) -> T:
    """``function(*args)`` on the thread that made room for this one (:func:`with_room`),
    while this one waits; in place elsewhere. What must run where a signal can reach it (a
    plug-in's time limit, a ``SIGALRM``: only the main thread receives one) runs there."""
    jobs = getattr(_ROOMY_THREAD, "jobs", None)
    if jobs is None:
        return function(*args)
    done = threading.Event()
    outcome: dict[str, object] = {}

    def job() -> None:
        try:
            outcome["value"] = function(*args)
        except BaseException as error:  # handed back to the roomy thread
            outcome["error"] = error
        finally:
            done.set()

    jobs.put(job)
    done.wait()
    if "error" in outcome:
        raise outcome.pop("error")  # (popped: left in outcome, it would hold the frames that hold outcome)
    return outcome["value"]  # type: ignore[return-value]


def _position(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of ``offset``, counting lines as Python does."""
    before = text[:offset]
    line_start = max(before.rfind("\n"), before.rfind("\r")) + 1
    lines = before.count("\n") + before.count("\r") - before.count("\r\n") + 1
    return lines, offset - line_start + 1
