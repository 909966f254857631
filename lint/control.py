"""Control flow within one function: what can run before what, and what always runs.

Facts carry their control path (the frames around them and the branch of each), so
these questions are answered from paths and source order, without a graph.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Callable, Iterator

from a2alint.model import Fact, Frame, Path

#: How many steps the analysis of one file may take: control-flow questions ("can this
#: run before that?"), values worked out, atoms put in a caller's terms. The most any
#: real module measured takes is about 80,000 (a generated ``a2a_pb2.py`` of the SDK;
#: hand-written code, google-adk's ``runners.py`` included, takes under 40,000); shapes
#: made to defeat the analysis (hundreds of fetches and sends in one ``elif`` chain) take
#: millions, which was minutes. Past the budget the file is not analysed (``AC002``).
BUDGET = 400_000
#: How many Python frames the analysis of one file may nest: a question about a call asks
#: about the function it runs, which asks about the ones that runs, through the project.
#: A chain of modules each handing a card to the next takes about nine a module: this is
#: room for chains of several thousand modules, on a thread with a stack that holds them
#: (:func:`a2alint.nesting.with_room`). The interpreter's default (1,000) was reached by a
#: chain of 118, at a depth that depended on which answers earlier files had left behind.
ANALYSIS_FRAMES = 50_000


class TooComplex(Exception):
    """The analysis of one file spent its budget, in ``scope``; or (``deep``) its
    questions nested past the interpreter's recursion limit."""

    def __init__(self, scope, deep: bool = False) -> None:
        super().__init__(scope)
        self.scope, self.deep = scope, deep


class Cancelled(BaseException):
    """The result of the work is no longer wanted (the document was edited again): stop
    where it is. Not an ``Exception``: no handler of the engine's errors may keep it."""


class _Budget(threading.local):  # the language server checks documents in threads
    left: int | None = None
    #: Asked now and then while the budget is spent: true when the work is no longer wanted.
    unwanted: Callable[[], bool] | None = None


_budget = _Budget()


@contextmanager
def cancellable(unwanted: Callable[[], bool] | None) -> Iterator[None]:
    """Let the analysis inside stop (:class:`Cancelled`) once ``unwanted()`` is true."""
    outer = _budget.unwanted
    _budget.unwanted = unwanted
    try:
        yield
    finally:
        _budget.unwanted = outer


def unwanted() -> Callable[[], bool] | None:
    """What the analysis on this thread stops on (see :func:`cancellable`): to hand on to
    a thread that does its work."""
    return _budget.unwanted


def checkpoint() -> None:
    """Stop here (:class:`Cancelled`) if the work is no longer wanted: asked by the
    analysis at its units of work (a call's roles, a function's effects) and every few
    hundred steps it spends (see :func:`spend`)."""
    unwanted = _budget.unwanted
    if unwanted is not None and unwanted():
        raise Cancelled


def spend(scope, steps: int = 1) -> None:
    """Count ``steps`` of the analysis of ``scope`` against the budget: past it, raise
    :class:`TooComplex`; now and then, stop if the work is no longer wanted."""
    left = _budget.left
    if left is not None:
        if left <= 0:
            raise TooComplex(scope)
        _budget.left = left - steps
        if left // 256 != (left - steps) // 256:  # every 256 steps
            checkpoint()


@contextmanager
def budget(steps: int = BUDGET) -> Iterator[None]:
    """Bound the steps of analysis inside (see :func:`spend`): the one that goes past
    ``steps`` raises :class:`TooComplex`."""
    outer = _budget.left
    _budget.left = steps
    try:
        yield
    finally:
        _budget.left = outer


def _divergence(a: Fact, b: Fact) -> int:
    """The depth at which the control paths of ``a`` and ``b`` part: the first index where
    their frames or branches differ (the shorter length when one path holds the other).

    Frames nest and each covers the source order of what it holds, so the frames of
    ``a``'s path that hold ``b`` are a prefix of it, found by bisection; the paths agree
    above the deepest of them. A long ``elif`` chain nests as deep as it is long: this
    keeps the question logarithmic in that depth, where walking both paths made a whole
    function's analysis cubic in its length."""
    path, other, order = a.path, b.path, b.order
    low, high = 0, min(len(path), len(other))  # path[:low] holds b; path[high:] does not
    while low < high:
        middle = (low + high) // 2
        frame = path[middle][0]
        if frame.start <= order <= frame.end and other[middle][0] is frame:
            low = middle + 1
        else:
            high = middle
    if low and path[low - 1][1] != other[low - 1][1]:  # the same frame, another branch
        return low - 1
    return low


def exclusive(a: Fact, b: Fact, depth: int | None = None) -> bool:
    """``a`` and ``b`` sit in different branches of one ``if``: never both run. ``depth``:
    where their paths part, when the caller knows it."""
    depth = _divergence(a, b) if depth is None else depth
    if depth >= len(a.path) or depth >= len(b.path):
        return False
    (frame_a, branch_a), (frame_b, branch_b) = a.path[depth], b.path[depth]
    if frame_a is not frame_b:
        return False
    return frame_a.kind == "if" and {branch_a, branch_b} == {"body", "orelse"}


def leaves_before(first: Fact, second: Fact, depth: int | None = None) -> bool:
    """``first`` sits in a branch that always returns or raises before ``second`` is reached."""
    for frame, branch in first.path[_divergence(first, second) if depth is None else depth :]:
        if frame.exits.get(branch) in ("return", "raise"):
            return True
    return False


def runs_before(first: Fact, second: Fact) -> bool:
    """In one scope, can ``second`` run after ``first`` has run (same pass, or a later
    iteration of a loop around both)?"""
    spend(first.scope)
    depth = _divergence(first, second)
    if exclusive(first, second, depth) or leaves_before(first, second, depth):
        return False
    if first.order < second.order:
        return True
    return any(loop in second.loops for loop in first.loops)


def dominates(first: Fact, second: Fact) -> bool:
    """``first`` runs, earlier in the same pass, whenever ``second`` runs: it sits in a
    block that encloses ``second`` and comes before it."""
    return first.order < second.order and first.path == second.path[: len(first.path)] and not _in_handler(first)


def _in_handler(fact: Fact) -> bool:
    return any(frame.kind == "try" and branch != "finalbody" and branch != "body" for frame, branch in fact.path)


def in_loop_body(fact: Fact, frame: Frame) -> bool:
    return (frame, "body") in fact.path


def common_loop(a: Fact, b: Fact) -> Frame | None:
    """The innermost loop whose body holds both ``a`` and ``b``."""
    found = None
    for (frame_a, branch_a), (frame_b, branch_b) in zip(a.path, b.path):
        if frame_a is not frame_b or branch_a != branch_b:
            break
        if frame_a.kind in ("for", "while") and branch_a == "body":
            found = frame_a
    return found


def without_withs(path: Path) -> Path:
    return tuple((frame, branch) for frame, branch in path if frame.kind != "with")
