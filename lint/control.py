"""Control flow within one function: what can run before what, and what always runs.

Facts carry their control path (the frames around them and the branch of each), so
these questions are answered from paths and source order, without a graph.
"""

from __future__ import annotations

from a2alint.model import Fact, Frame, Path


def exclusive(a: Fact, b: Fact) -> bool:
    """``a`` and ``b`` sit in different branches of one ``if``: never both run."""
    for (frame_a, branch_a), (frame_b, branch_b) in zip(a.path, b.path):
        if frame_a is not frame_b:
            return False
        if branch_a != branch_b:
            return frame_a.kind == "if" and {branch_a, branch_b} == {"body", "orelse"}
    return False


def leaves_before(first: Fact, second: Fact) -> bool:
    """``first`` sits in a branch that always returns or raises before ``second`` is reached."""
    shared = 0
    for (frame_a, branch_a), (frame_b, branch_b) in zip(first.path, second.path):
        if frame_a is not frame_b or branch_a != branch_b:
            break
        shared += 1
    for frame, branch in first.path[shared:]:
        if frame.exits.get(branch) in ("return", "raise"):
            return True
    return False


def runs_before(first: Fact, second: Fact) -> bool:
    """In one scope, can ``second`` run after ``first`` has run (same pass, or a later
    iteration of a loop around both)?"""
    if exclusive(first, second) or leaves_before(first, second):
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
