"""Parsing an editor's buffer again after an edit: only the top-level statement it falls in.

A keystroke changes one function of a module; parsing the whole module again is most of
what the language server's answer costs. When the edit lies inside one top-level
statement (not the first or the last, clear of the comment and blank lines around it
whose owner the statements' indentation decides), that statement's new text is parsed
alone and put in place of the old one: the tree is the one a full parse gives (the same
nodes, the same code), and every other statement's nodes are the old ones. Anything
else (an edit across statements, one that leaves a statement unclosed, a file CPython's
parser could not pair with libcst's) is a full parse, as before.

What the last check learnt of the statements an edit left alone is carried over too: the
facts of its top-level functions (:meth:`Reparser.build`), their places when no line
moved (:class:`a2alint.positions.Earlier`) and how deeply the file nests
(:meth:`Reparser.nesting`); each is what a computation from scratch gives.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from typing import Callable

import libcst as cst

from a2alint.fixes import line_offsets
from a2alint.model import Fragment, ModuleModel, build_model
from a2alint.nesting import ROOMY, Nesting
from a2alint.positions import Earlier, Positions


@dataclass
class _Parsed:
    text: str
    module: cst.Module
    #: Where its statements start (:attr:`Positions.starts`), once known.
    starts: dict | None
    known: bool
    #: What its top-level functions added to its model, to build the next version's from.
    fragments: dict[int, Fragment] | None = None
    #: CPython's statements for each top-level statement, when its findings were placed.
    trees: dict | None = None
    #: How deeply it nests.
    nesting: Nesting | None = None


class Reparser:
    """The last parse of each buffer, to parse its next version from."""

    def __init__(self) -> None:
        self._last: dict[object, _Parsed] = {}
        self._measured: dict[object, tuple[str, cst.Module]] = {}  # spliced while measuring its nesting
        self._forgotten: list[_Parsed] = []  # their fragments' cycles are broken by release_forgotten

    def nesting(self, key: object, text: str) -> Nesting:
        """How deeply ``text``, the new version of buffer ``key``, nests: when the edit
        splices and the last version and the statements the edit replaced are both
        shallow, the deeper of the two (the rest of the text is the last version's, read
        alike); else :meth:`Nesting.of` the whole text. The splice is kept for :meth:`parse`."""
        self._measured.pop(key, None)
        last = self._last.get(key)
        previous = last.nesting if last is not None else None
        if previous is None or previous.refusal is not None or previous.depth > ROOMY:
            return Nesting.of(text)
        measured: list[Nesting] = []

        def shallow(region: str) -> bool:  # measured before it is parsed: the parse is safe
            measured.append(Nesting.of(region))
            return measured[-1].refusal is None and measured[-1].depth <= ROOMY

        module = self._splice(last, text, shallow)
        if module is None:
            return Nesting.of(text)
        self._measured[key] = (text, module)
        return Nesting(max(previous.depth, measured[-1].depth))

    def parse(self, key: object, text: str) -> cst.Module:
        """The syntax tree of ``text``, the new version of buffer ``key``: spliced from the
        last one when the edit allows, else a full parse (which raises as ``parse_module`` does)."""
        measured = self._measured.pop(key, None)
        if measured is not None and measured[0] == text:
            return measured[1]
        last = self._last.get(key)
        module = self._splice(last, text) if last is not None else None
        return module if module is not None else cst.parse_module(text)

    @staticmethod
    def _splice(last: _Parsed, text: str, vet: Callable[[str], bool] | None = None) -> cst.Module | None:
        if not last.known:
            last.starts, last.known = Positions.statement_starts(last.module, last.text), True
        return spliced(last.text, last.module, last.starts, text, vet)

    def build(self, key: object, module: cst.Module, path: str) -> ModuleModel:
        """The model of ``module``, the new version of buffer ``key``: the top-level
        functions its parse kept from the last version are taken from that version's
        model (see :func:`build_model`), the others walked."""
        last = self._last.get(key)
        previous = (last.fragments if last is not None else None) or {}
        if last is not None:
            last.fragments = None  # this version's model holds the ones it reuses from now on
        model = build_model(module, path, previous)
        if last is not None and last.trees and last.starts:
            model.earlier = Earlier(last.text, last.module.body, last.starts, last.trees)
        for fragment in previous.values():
            if model.fragments.get(id(fragment.node)) is not fragment:
                fragment.release()  # its function was edited: nothing builds from it again
        return model

    def keep(self, key: object, text: str, model: ModuleModel, nesting: Nesting | None = None) -> None:
        """``model``, parsed from ``text``, is buffer ``key``'s latest. Its tree is kept,
        where its statements start when its findings placed them, and its fragments:
        nothing that holds the run that checked it."""
        if model.module is None:
            self.forget(key)
            return
        positions = model.positions
        if positions is not None:
            positions.complete()  # (a buffer's are placed whole; a file's a statement at a time)
        starts = positions.starts if positions is not None else None
        trees = positions.top_level() if starts is not None else None
        self._last[key] = _Parsed(text, model.module, starts, positions is not None, model.fragments, trees, nesting)

    def forget(self, key: object) -> None:
        """Buffer ``key`` is no longer built from. Its fragments are released later, by
        :meth:`release_forgotten` (a lint may be installing them now)."""
        forgotten = self._last.pop(key, None)
        if forgotten is not None:
            self._forgotten.append(forgotten)

    def retain(self, keys) -> None:
        """Forget every buffer but ``keys`` (the documents open now)."""
        for key in list(self._last):  # a copy: the editor's thread may forget one meanwhile
            if key not in keys:
                self.forget(key)

    def discard(self, model: ModuleModel) -> None:
        """A buffer's model that is not kept (its lint stopped, or failed): nothing builds
        from its fragments, so their cycles are broken now."""
        for fragment in (model.fragments or {}).values():
            fragment.release()

    def release_forgotten(self) -> None:
        """Break the cycles of the fragments of the buffers forgotten since; called where
        no lint is building a model (the workspace's lock held)."""
        while self._forgotten:
            for fragment in (self._forgotten.pop().fragments or {}).values():
                fragment.release()


def spliced(
    old_text: str, module: cst.Module, starts: dict | None, new_text: str, vet: Callable[[str], bool] | None = None
) -> cst.Module | None:
    """The tree of ``new_text`` made from ``module`` (the tree of ``old_text``, its
    statements starting as ``starts`` says: :attr:`Positions.starts`) by parsing again
    only the top-level statement the edit is in; None when the edit does not allow it,
    or ``vet`` refuses the statement's new text."""
    if starts is None or len(module.body) < 3 or old_text == new_text:
        return None
    lines = line_offsets(old_text)  # as Python counts lines: not at form feeds
    spans = []
    for statement in module.body:
        start = starts.get(id(statement))
        if start is None or start[0] - 1 >= len(lines):
            return None
        spans.append(lines[start[0] - 1])
    changed, old_end, _ = _changed(old_text, new_text)
    index = bisect.bisect_right(spans, changed) - 1
    appended = changed == old_end == spans[index]
    if appended:  # typed after a statement's last line: it continues that statement, if anything
        index -= 1
    if index < 1 or index >= len(module.body) - 1:
        return None  # the first statement holds the encoding and header; the last, the file's end
    statement, following = module.body[index], module.body[index + 1]
    start, end = spans[index], spans[index + 1]
    core = lines[starts[id(statement)][0] - 1 + len(statement.leading_lines)]
    if not appended and (changed < core or old_end >= end):
        return None  # it touches the lines above the statement, or its last line break
    if any(line.whitespace.value for line in _lines_above(following)):
        return None  # an indented comment above the next statement: a new block would own it
    region = new_text[start : end + len(new_text) - len(old_text)]
    if region.startswith("\ufeff"):
        return None  # a parse drops a byte order mark at its start: inside a file it is an error
    if _BARE_CONTINUATION.search(region):
        return None  # a line of only a backslash: libcst reads it alone as CPython does not in the file
    if not (_ends_in_block(old_text[start:end]) and _ends_in_block(region)):
        return None  # a trailing line at the margin: what follows it decides its owner
    if module.code_for_node(statement) != old_text[start:end] or (vet is not None and not vet(region)):
        return None
    try:
        piece = cst.parse_module(region)
    except Exception:  # unclosed, or worse: the full parse says what is wrong
        return None
    if (
        not piece.body
        or piece.footer
        or not piece.has_trailing_newline
        or piece.default_indent != module.default_indent
        or piece.default_newline != module.default_newline
        or len(piece.header) != len(statement.leading_lines)
        or not all(a.deep_equals(b) for a, b in zip(piece.header, statement.leading_lines))
    ):
        return None
    if _has_block(statement) and not any(_has_block(s) for s in (*module.body[:index], *piece.body)):
        # The file's indentation is its first indented block's (the new statement's, when it
        # has one: read alike above); this one's is gone, and the next one may differ.
        return None
    first = piece.body[0].with_changes(leading_lines=piece.header)
    body = (*module.body[:index], first, *piece.body[1:], *module.body[index + 1 :])
    return module.with_changes(body=body)


#: A line that is nothing but a backslash continuation.
_BARE_CONTINUATION = re.compile(r"^[ \t]*\\\r?$", re.MULTILINE)


def _changed(old: str, new: str) -> tuple[int, int, int]:
    """The edit from ``old`` to ``new``: ``old[start:old_end]`` became ``new[start:new_end]``."""
    most = min(len(old), len(new))
    low, high = 0, most
    while low < high:  # the longest common prefix, by halves (slices compare at C speed)
        middle = (low + high + 1) // 2
        if old[:middle] == new[:middle]:
            low = middle
        else:
            high = middle - 1
    prefix = low
    low, high = 0, most - prefix
    while low < high:
        middle = (low + high + 1) // 2
        if old[len(old) - middle :] == new[len(new) - middle :]:
            low = middle
        else:
            high = middle - 1
    return prefix, len(old) - low, len(new) - low


def _has_block(node: cst.CSTNode) -> bool:
    """Whether a statement (or an ``else``, ``except``, ``finally``, ``case`` of one) has an
    indented block."""
    for name in ("body", "orelse", "finalbody"):
        part = getattr(node, name, None)
        if isinstance(part, cst.IndentedBlock):
            return True
        if isinstance(part, cst.CSTNode) and not isinstance(part, cst.BaseSuite) and _has_block(part):
            return True
    return any(_has_block(part) for name in ("handlers", "cases") for part in getattr(node, name, ()))


def _lines_above(statement: cst.CSTNode) -> list[cst.EmptyLine]:
    decorators = getattr(statement, "decorators", ())
    return [*statement.leading_lines, *(decorators[0].leading_lines if decorators else ())]


def _ends_in_block(text: str) -> bool:
    """The last line of ``text`` is code, or a comment indented into the statement's block
    (which owns it whatever follows); not a blank line or a comment at the margin (which
    the next statement owns, or the module at its end)."""
    last = text.rstrip("\r\n").rsplit("\n", 1)[-1].rsplit("\r", 1)[-1]
    stripped = last.strip()
    return bool(stripped) and (not stripped.startswith("#") or last[:1] in (" ", "\t"))


class Buffer:
    """One editor buffer, parsed and modelled from its last version (see :class:`Reparser`)."""

    def __init__(self, reparser: Reparser, key: object) -> None:
        self.reparser, self.key = reparser, key

    def parse(self, text: str) -> cst.Module:
        return self.reparser.parse(self.key, text)

    def build(self, module: cst.Module, path: str) -> ModuleModel:
        return self.reparser.build(self.key, module, path)

    def nesting(self, text: str) -> Nesting:
        return self.reparser.nesting(self.key, text)
