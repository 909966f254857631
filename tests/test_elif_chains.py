"""A long ``elif`` chain nests as deep as it is long (each ``elif`` is an ``if`` in the
``else`` of the one before), so a fact in its last branch has a control path as long as
the chain. What is done per fact must not be done per frame of its path as well: the
model shares each (frame, branch) pair between the paths through it, and AC106 reads each
pair's guards once per function, not once per exit below it (issue 28: 8,500 branches
took 57 s and gigabytes; ``benchmarks/worst_shapes.py`` times them)."""

from __future__ import annotations

import libcst as cst
import pytest

from a2alint.flow import Flow
from a2alint.model import build_model
from a2alint.runner import lint_source

BRANCHES = 600


def chain(body: str) -> str:
    lines = ["from a2a.client import A2ACardResolver", "", "", "async def route(client, x):", "    if x == 0:", "        await client.send_message(x)"]
    for i in range(1, BRANCHES):
        lines += [f"    elif x == {i}:", f"        {body.format(i=i)}"]
    return "\n".join(lines) + "\n"


def test_the_paths_through_a_frame_share_its_pair():
    model = build_model(cst.parse_module(chain("y = {i}")), "route.py")
    binds = [b for b in model.scopes[1].binds if b.targets == ["y"]]
    first, last = binds[0].path, binds[-1].path
    assert len(last) >= BRANCHES
    shared = len(first) - 1  # the last frame of the first one's path is its own branch
    assert all(a is b for a, b in zip(first[:shared], last[:shared]))


@pytest.mark.parametrize("body", ["return {i}", "raise ValueError({i})"])
def test_ac106_reads_each_branch_of_a_chain_once(body: str, monkeypatch):
    read = []
    original = Flow.branch_guards

    def counted(self, scope, frame, branch):
        read.append((id(frame), branch))
        return original(self, scope, frame, branch)

    monkeypatch.setattr(Flow, "branch_guards", counted)
    result = lint_source(chain(body), "route.py", select=("AC106",))
    assert [d.code for d in result.diagnostics] == []
    assert len(read) == len(set(read)) and len(read) <= 3 * BRANCHES
