"""Where nodes are: the ranges libcst's ``PositionProvider`` gives, computed cheaply.

libcst knows positions only by generating code, which costs nearly half a parse for
the statements of a typical client module. CPython's parser (parsing only: nothing is
run) costs a fourteenth of one and places statements, calls, tests and parameters
exactly where libcst would: its statements are paired with libcst's, and the calls of
each statement in source order. Only the top-level statements that hold a node asked
about are parsed, each on its own: the nesting scan has already found the lines they
start on (most findings sit in a few functions of a module). What CPython cannot place
(an expression of another kind, a statement CPython cannot pair, a file it cannot
parse) is placed by generating code for the innermost statement that holds it, as
before, or the whole module.
"""

from __future__ import annotations

import ast
import re
import warnings
from typing import Iterable

import libcst as cst
from libcst._position import CodePosition, CodeRange
from libcst.metadata.position_provider import PositionProvidingCodegenState

from a2alint.fixes import line_offsets

#: Compound statements whose header (decorators, ``def`` line, test, iterable, items)
#: can be generated without their body.
_HEADERS = (cst.FunctionDef, cst.ClassDef, cst.For, cst.While, cst.If, cst.With)
#: The fields of a compound ast statement outside its blocks: the calls of its header.
_AST_HEADER = {
    ast.FunctionDef: ("decorator_list", "args", "returns"),
    ast.AsyncFunctionDef: ("decorator_list", "args", "returns"),
    ast.ClassDef: ("decorator_list", "bases", "keywords"),
    ast.If: ("test",),
    ast.While: ("test",),
    ast.For: ("target", "iter"),
    ast.AsyncFor: ("target", "iter"),
    ast.With: ("items",),
    ast.AsyncWith: ("items",),
    ast.Try: ("handlers",),
    ast.Match: ("subject", "cases"),
}
if hasattr(ast, "TryStar"):
    _AST_HEADER[ast.TryStar] = ("handlers",)


class Positions:
    """Ranges of the nodes of one module, as ``PositionProvider`` computes them.

    CPython's statements are paired with libcst's once; the calls, tests and parameters
    of a statement are placed when a node of that statement is first asked for, and
    what CPython cannot place is generated."""

    @classmethod
    def of(cls, model, text: str) -> "Positions":
        """The positions of ``model`` (parsed from ``text``), kept with it: the notes of
        every module that points into it, and its own findings, place nodes once."""
        if model.positions is None:
            model.positions = cls(model, text)
        return model.positions

    def __init__(self, model, text: str) -> None:
        self.model = model
        self.ranges: dict[cst.CSTNode, CodeRange] = {}
        #: For each statement CPython's parser placed: the first line of its code (leading
        #: blank and comment lines included) and the indentation of its block.
        self.starts: dict[int, tuple[int, list[str]]] | None = None
        self._ast: dict[int, list[ast.stmt]] = {}  # id(libcst statement) -> CPython's statements
        self._placed: set[int] = set()
        self._rough: set[int] = set()  # generated nodes whose end may be inexact (not asked as spans)
        #: id(top-level statement) -> where its text starts and ends and its first line, for
        #: each one not parsed yet (None once the text is parsed whole).
        self._unparsed: dict[int, tuple[int, int, int]] | None = None
        if "\r" in text.replace("\r\n", ""):  # a bare CR: the parsers may count lines apart
            return
        self._text, self._lines = text, text.splitlines()
        earlier, model.earlier = getattr(model, "earlier", None), None
        tops = getattr(model, "tops", None)
        if earlier is None and tops is not None and not text.startswith("\ufeff"):
            self._unparsed = _top_level_spans(text, tops, model.module.body)
        if self._unparsed is not None:
            self.starts = {}
        else:
            self._parse_whole(earlier)

    def _parse_whole(self, earlier: "Earlier | None" = None) -> None:
        """Pair every statement with CPython's parse of the whole text (from the ``earlier``
        version's where it can be)."""
        self._unparsed = None
        self.starts, self._ast = None, {}
        body = _parsed(lambda: (_reused(self.model.module, self._text, earlier) if earlier is not None else None) or ast.parse(self._text).body)
        if body is not None:
            self.starts = {}
            if not self._pair(self.model.module.body, body, []):
                self.starts, self._ast = None, {}

    def _open(self, node: cst.CSTNode) -> None:
        """Parse the top-level statement that holds ``node``, if it is not parsed yet; the
        whole text if it does not parse alone or does not pair."""
        statement = self.model.statement_of.get(id(node), node)
        parent = self.model.parent_statement.get(id(statement))
        while parent is not None:
            statement, parent = parent, self.model.parent_statement.get(id(parent))
        span = self._unparsed.pop(id(statement), None) if self._unparsed else None
        if span is None:
            return
        start, end, line = span
        # Blank lines ahead put its lines where they are (cheaper than moving its nodes).
        piece = _parsed(lambda: ast.parse("\n" * (line - 1) + self._text[start:end]))
        if piece is None:
            self._parse_whole()
            return
        if not self._pair([statement], piece.body, []):
            self._parse_whole()

    def complete(self) -> None:
        """Parse every top-level statement not parsed yet (what :meth:`top_level` and a
        reparse of the next version need)."""
        for statement in self.model.module.body:
            if not self._unparsed:
                return
            self._open(statement)

    def top_level(self) -> dict[int, list[ast.stmt]]:
        """CPython's statements for each top-level statement, for the next version of the
        text to start from (see :class:`Earlier`)."""
        self.complete()
        return {id(s): self._ast[id(s)] for s in self.model.module.body if id(s) in self._ast}

    @classmethod
    def statement_starts(cls, module: cst.Module, text: str) -> dict[int, tuple[int, list[str]]] | None:
        """:attr:`starts` for the statements of ``module`` (parsed from ``text``), without a model."""
        return cls(_TreeOnly(module), text).starts

    # -- CPython's columns are UTF-8 byte offsets; libcst's count characters --
    def _column(self, line: int, offset: int) -> int:
        text = self._lines[line - 1] if 0 < line <= len(self._lines) else ""
        if text.isascii():
            return offset
        return len(text.encode("utf-8")[:offset].decode("utf-8", "replace"))

    def _range(self, node: ast.AST) -> CodeRange:
        return CodeRange(
            CodePosition(node.lineno, self._column(node.lineno, node.col_offset)),
            CodePosition(node.end_lineno, self._column(node.end_lineno, node.end_col_offset)),
        )

    # -- pairing statements --
    def _pair(self, statements, nodes: list[ast.stmt], indents: list[str]) -> bool:
        """Pair libcst ``statements`` with CPython's ``nodes``, block by block."""
        index = 0
        module = self.model.module
        for statement in statements:
            if index >= len(nodes):
                return False
            first = nodes[index]
            decorators = getattr(statement, "decorators", ())
            line = min([first.lineno, *(d.lineno for d in getattr(first, "decorator_list", ()))])
            above = len(statement.leading_lines) + (len(decorators[0].leading_lines) if decorators else 0)
            self.starts[id(statement)] = (line - above, indents)
            if isinstance(statement, cst.SimpleStatementLine):
                small = nodes[index : index + len(statement.body)]
                if len(small) != len(statement.body):
                    return False
                self._ast[id(statement)] = small
                for ours, theirs in zip(statement.body, small):
                    self._ast[id(ours)] = [theirs]
                index += len(small)
                continue
            self._ast[id(statement)] = [first]
            index += 1
            for block, children in _blocks(statement, first):
                if isinstance(block, cst.IndentedBlock):
                    indent = block.indent if block.indent is not None else module.default_indent
                    if not self._pair(block.body, children, [*indents, indent]):
                        return False
                elif isinstance(block, cst.SimpleStatementSuite) and len(block.body) == len(children):
                    for ours, theirs in zip(block.body, children):  # `if x: y = 1; z()`
                        self._ast[id(ours)] = [theirs]
            if _is_if_elif(statement) and not self._pair([statement.orelse], first.orelse, indents):
                return False
        return index == len(nodes)

    def _place(self, statement: cst.CSTNode) -> None:
        """Place ``statement`` (once) and its calls, test, parameters and ``with`` items."""
        if id(statement) in self._placed:
            return
        self._placed.add(id(statement))
        nodes = self._ast.get(id(statement))
        if not nodes:
            return
        ranges, node = self.ranges, nodes[0]
        if not isinstance(statement, cst.SimpleStatementLine) and _same_kind(statement, node):
            ranges[statement] = self._range(node)
        calls = self._calls_of(statement)
        if calls:
            found = sorted(
                (c for n in nodes for c in _ast_calls(n)),
                key=lambda n: (n.lineno, n.col_offset, -n.end_lineno, -n.end_col_offset),
            )
            if len(found) == len(calls):
                for call, ast_call in zip(calls, found):
                    ranges[call] = self._range(ast_call)
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                theirs = self._ast.get(id(small))
                if theirs and _same_kind(small, theirs[0]):
                    ranges[small] = self._range(theirs[0])
            return
        test = getattr(statement, "test", None)
        if isinstance(statement, (cst.If, cst.While)) and hasattr(node, "test") and not _parenthesized(test):
            ranges[test] = self._range(node.test)
        if isinstance(statement, cst.FunctionDef) and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self._place_params(statement.params, node.args)
        if isinstance(statement, cst.With) and isinstance(node, (ast.With, ast.AsyncWith)):
            for item, ast_item in zip(statement.items, node.items):
                if not _parenthesized(item.item):
                    end = ast_item.optional_vars or ast_item.context_expr
                    ranges[item] = CodeRange(self._range(ast_item.context_expr).start, self._range(end).end)

    def _calls_of(self, statement: cst.CSTNode) -> list[cst.Call]:
        """The calls whose innermost statement is ``statement``, in source order."""
        by_statement = getattr(self, "_by_statement", None)
        if by_statement is None:
            by_statement = self._by_statement = {}
            statement_of = self.model.statement_of
            for scope in self.model.scopes:
                for call in scope.calls:
                    holder = statement_of.get(id(call.node))
                    if holder is not None:
                        by_statement.setdefault(id(holder), []).append(call.node)
        return by_statement.get(id(statement), [])

    def _place_params(self, params: cst.Parameters, args: ast.arguments) -> None:
        ours = [*params.posonly_params, *params.params]
        theirs = [*args.posonlyargs, *args.args]
        if isinstance(params.star_arg, cst.Param) and args.vararg is not None:
            ours.append(params.star_arg)
            theirs.append(args.vararg)
        ours += params.kwonly_params
        theirs += args.kwonlyargs
        if params.star_kwarg is not None and args.kwarg is not None:
            ours.append(params.star_kwarg)
            theirs.append(args.kwarg)
        if len(ours) != len(theirs):
            return
        for param, arg in zip(ours, theirs):
            if param.name.value != arg.arg:
                return
            star = param.star if isinstance(param.star, str) else ""
            start = self._column(arg.lineno, arg.col_offset) - len(star)
            self.ranges[param] = CodeRange(
                CodePosition(arg.lineno, start), CodePosition(arg.lineno, start + len(star) + len(arg.arg))
            )

    # -- answers --
    def get(self, wanted: Iterable[cst.CSTNode], spans: frozenset[int] | set[int] = frozenset()) -> dict:
        """The ranges of ``wanted`` (and of other nodes of their statements); the ones
        CPython did not place are generated. Only the start of a generated node is exact
        unless its id is in ``spans``."""
        wanted = list(wanted)
        if self.starts is not None:
            statement_of = self.model.statement_of
            for node in wanted:
                if node not in self.ranges:
                    if self._unparsed:
                        self._open(node)
                    if self.starts is None:
                        break
                    holder = node if id(node) in self._ast else statement_of.get(id(node))
                    if holder is not None:
                        self._place(holder)
        rough = self._rough
        missing = [node for node in wanted if node not in self.ranges or (id(node) in spans and id(node) in rough)]
        if missing:
            for node, where in generate_positions(self.model, missing, spans, self.starts).items():
                if node not in self.ranges or (id(node) in spans and id(node) in rough):
                    self.ranges[node] = where
                    if id(node) in spans:
                        rough.discard(id(node))
                    else:
                        rough.add(id(node))
        return self.ranges


def _same_kind(ours: cst.CSTNode, theirs: ast.AST) -> bool:
    """A libcst statement and CPython's, paired by place, are the same statement."""
    name = type(ours).__name__
    other = type(theirs).__name__.removeprefix("Async")
    if name == other:
        return True
    return (name, other) in {("Expr", "Expr"), ("TryStar", "TryStar"), ("FunctionDef", "FunctionDef")}


def _parenthesized(node: cst.CSTNode) -> bool:
    """libcst's range of a parenthesised expression includes its parentheses; CPython's does not."""
    return bool(getattr(node, "lpar", ()))


def _ast_calls(node: ast.AST) -> list[ast.Call]:
    """The calls of a statement, of its header only when it is compound."""
    fields = _AST_HEADER.get(type(node))
    if fields is None:
        roots: list = [node]
    else:
        roots = []
        for name in fields:
            value = getattr(node, name, None)
            if name == "cases":  # a match: the guards of its cases
                roots += [case.guard for case in value or () if case.guard is not None]
            elif name == "handlers":  # a try: what its handlers catch
                roots += [handler.type for handler in value or () if handler.type is not None]
            elif isinstance(value, list):
                roots += value
            elif value is not None:
                roots.append(value)
    found = []
    for root in roots:
        found += [n for n in ast.walk(root) if type(n) is ast.Call]
    return found


def _is_if_elif(statement: cst.CSTNode) -> bool:
    """Whether ``statement`` is an ``if`` (or ``elif``) followed by an ``elif``."""
    return isinstance(statement, cst.If) and isinstance(statement.orelse, cst.If)


def _parsed(parse):
    """``parse()``, or None where CPython refuses the text. SyntaxWarnings are the
    interpreter's business, not ours."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return parse()
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


#: A logical line in the first column that goes on a compound statement.
_CLAUSE = re.compile(r"(?:else|elif|except|finally)\b")
#: The line a top-level statement's decorators lead to.
_DEFINITION = re.compile(r"(?:async[ \t]+)?(?:def|class)\b")


def _top_level_spans(text: str, tops: tuple[int, ...], body) -> dict[int, tuple[int, int, int]] | None:
    """Where each of the top-level statements ``body`` starts and ends in ``text``, and its
    first line, read from ``tops`` (the logical lines with code in their first column,
    :attr:`a2alint.nesting.Nesting.tops`): each begins a statement, except the clauses
    that go on one (``else``, ``except``...) and the lines its decorators lead to. None
    when that does not give one line per statement."""
    found: list[int] = []
    decorated = False
    for at in tops:
        if decorated:
            if text.startswith("@", at):
                continue
            if not _DEFINITION.match(text, at):
                return None
            decorated = False
        elif _CLAUSE.match(text, at):
            if not found:
                return None
        else:
            found.append(at)
            decorated = text.startswith("@", at)
    if decorated or len(found) != len(body):
        return None
    spans, line, last = {}, 1, 0
    for statement, start, end in zip(body, found, [*found[1:], len(text)]):
        line += text.count("\n", last, start)
        spans[id(statement)] = (start, end, line)
        last = start
    return spans


class Earlier:
    """The last version of an edited buffer, as its positions were placed: its text and
    tree, where its statements started, and CPython's statements for each top-level one."""

    def __init__(self, text: str, body, starts: dict, trees: dict[int, list[ast.stmt]]) -> None:
        self.text, self.body, self.starts, self.trees = text, body, starts, trees


def _reused(module: cst.Module, text: str, earlier: Earlier) -> list[ast.stmt] | None:
    """CPython's top-level statements of ``text`` (parsed into ``module``), taken from the
    ``earlier`` version's where its tree kept the statement, its text and its lines, and
    parsed only between them; None when the edit moved lines, or the statements between do
    not parse alone."""
    old, new = earlier.body, module.body
    if earlier.text.count("\n") != text.count("\n"):
        return None  # the statements after the edit moved: CPython's lines would be off
    head = 0
    while head < min(len(old), len(new)) and old[head] is new[head]:
        head += 1
    tail = 0
    while tail < min(len(old), len(new)) - head and old[-1 - tail] is new[-1 - tail]:
        tail += 1
    if head >= len(old) or (tail and id(old[-tail]) not in earlier.starts) or id(old[head]) not in earlier.starts:
        return None
    offsets = line_offsets(earlier.text)
    start = offsets[earlier.starts[id(old[head])][0] - 1]
    end = offsets[earlier.starts[id(old[-tail])][0] - 1] if tail else len(earlier.text)
    after = len(earlier.text) - end
    if text[:start] != earlier.text[:start] or text[len(text) - after :] != earlier.text[end:]:
        return None
    kept = [earlier.trees.get(id(s)) for s in (*old[:head], *old[len(old) - tail :])]
    if not all(kept):
        return None
    piece = ast.parse(text[start : len(text) - after])
    ast.increment_lineno(piece, earlier.starts[id(old[head])][0] - 1)
    return [*(n for nodes in kept[:head] for n in nodes), *piece.body, *(n for nodes in kept[head:] for n in nodes)]


class _TreeOnly:
    """A syntax tree as the pairing of statements reads a model: its module alone."""

    def __init__(self, module: cst.Module) -> None:
        self.module = module


def _blocks(statement: cst.CSTNode, node: ast.stmt) -> list[tuple[cst.BaseSuite, list[ast.stmt]]]:
    """The blocks of a compound statement beside CPython's statements for them (an
    ``elif`` is a statement of its own, at the ``if``'s indentation)."""
    if isinstance(statement, (cst.FunctionDef, cst.ClassDef, cst.With)):
        return [(statement.body, node.body)]
    if isinstance(statement, (cst.For, cst.While)):
        return [(statement.body, node.body)] + ([(statement.orelse.body, node.orelse)] if statement.orelse else [])
    if isinstance(statement, cst.If):
        orelse = statement.orelse
        return [(statement.body, node.body)] + ([(orelse.body, node.orelse)] if isinstance(orelse, cst.Else) else [])
    if isinstance(statement, (cst.Try, cst.TryStar)):
        blocks = [(statement.body, node.body)]
        blocks += [(handler.body, caught.body) for handler, caught in zip(statement.handlers, node.handlers)]
        blocks += [(statement.orelse.body, node.orelse)] if statement.orelse else []
        blocks += [(statement.finalbody.body, node.finalbody)] if statement.finalbody else []
        return blocks
    if isinstance(statement, cst.Match):
        return [(case.body, ast_case.body) for case, ast_case in zip(statement.cases, node.cases)]
    return []


# --- generating code: the fallback ------------------------------------------------------------


class _PositionSink:
    """Where libcst's position-tracking code generator stores what it measures."""

    def __init__(self) -> None:
        self._computed: dict = {}


def generate_positions(model, wanted: list[cst.CSTNode], spans=frozenset(), starts=None) -> dict:
    """Syntactic ranges of the ``wanted`` nodes (and their neighbours) by generating code:
    only the innermost statements that hold them, each from the line CPython's parser gives
    it (``starts``) and with its block's indentation; a compound statement whose header
    alone holds them is generated without its body. Where a statement cannot be placed
    (no ``starts``), the whole module is generated."""
    module = model.module
    sink = _PositionSink()
    chosen: dict[int, cst.CSTNode] = {}
    whole: set[int] = set()  # statements generated with their bodies
    for node in wanted:
        innermost = statement = model.statement_of.get(id(node))
        while statement is not None and (starts is None or id(statement) not in starts):
            statement = model.parent_statement.get(id(statement))
        if statement is None:
            chosen = {}
            break
        chosen[id(statement)] = statement
        in_body = isinstance(node, (cst.BaseSuite, cst.Else))  # a plug-in may point at a block
        if statement is not innermost or type(statement) not in _HEADERS or in_body or (node is statement and id(node) in spans):
            whole.add(id(statement))
    if not chosen:
        pieces = [(module, module, 1, [])]
    else:
        pieces = [
            (s, s if id(s) in whole else _header_only(s), *starts[id(s)])
            for s in chosen.values()
            if not _inside_another(model, s, whole)
        ]
    for statement, generated, line, indents in pieces:
        state = PositionProvidingCodegenState(
            default_indent=module.default_indent, default_newline=module.default_newline, provider=sink
        )
        state.line, state.indent_tokens = line, list(indents)
        parent = model.parent_statement.get(id(statement))
        generated._codegen(state, **({"is_elif": True} if _is_if_elif(parent) and parent.orelse is statement else {}))
        if generated is not statement:
            sink._computed[statement] = sink._computed.pop(generated)
    if chosen and any(node not in sink._computed for node in wanted):  # never a KeyError: the whole module
        return generate_positions(model, wanted, spans, None)
    return sink._computed


def _header_only(statement: cst.CSTNode) -> cst.CSTNode:
    """A copy of a compound ``statement`` with an empty body and no ``else``: its header
    nodes are the same objects, at the same places, so their positions are the same."""
    body = statement.body
    changes: dict = {"body": body.with_changes(body=()) if isinstance(body, cst.IndentedBlock) else body}
    if hasattr(statement, "orelse"):
        changes["orelse"] = None
    return statement.with_changes(**changes)


def _inside_another(model, statement: cst.CSTNode, generated_whole: set[int]) -> bool:
    parent = model.parent_statement.get(id(statement))
    while parent is not None:
        if id(parent) in generated_whole:
            return True
        parent = model.parent_statement.get(id(parent))
    return False
