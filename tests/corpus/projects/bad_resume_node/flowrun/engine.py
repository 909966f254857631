"""flowrun engine: runs workflows whose steps are delegated to remote A2A agents.

A workflow is a list of DelegateNode steps (a2a-sdk 0.3); its state (inputs,
one slot per step, cursor, phase) is saved as JSON after every step. When a
remote agent leaves its task input-required the run pauses, and
``python -m flowrun.engine resume RUN_ID "answer"`` loads the state and re-runs
the paused node, which continues the same remote task (the id recorded in the
step's slot).

Defects: on resume the node looks the peer up in the registry again, and the
registry GETs the peer's card every time and builds an AgentCard from it; the
node then builds the client (URL, transport) and the auth header from that
freshly resolved card to send the continuation of an already submitted task.
So a card fetched after submission decides the send, and that re-read carries
no ETag / If-None-Match. No contract is frozen either: no digest of the card's
contract fields is recorded at the first send, checked on resume or sent.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import uuid
from pathlib import Path

import httpx

from flowrun import DEFAULT_STATE_DIR
from flowrun.nodes import DONE, PAUSED, DelegateNode
from flowrun.registry import PeerRegistry

STEPS = (
    ("research", "researcher", "Collect the facts needed for: {topic}"),
    ("draft", "writer", "Write a two-page brief on {topic} for {audience}."),
    ("review", "legal", "Check the brief on {topic} for legal exposure."),
)


class StateStore:
    def __init__(self, root: str):
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)

    def load(self, run_id: str) -> dict:
        return json.loads((self.root / f"{run_id}.json").read_text())

    def save(self, state: dict) -> None:
        (self.root / f"{state['run']}.json").write_text(json.dumps(state, indent=2))


class Engine:
    def __init__(self, store: StateStore, steps: list[DelegateNode]):
        self.store = store
        self.steps = steps

    async def start(self, inputs: dict) -> dict:
        state = {"run": uuid.uuid4().hex[:12], "inputs": inputs, "slots": {}, "cursor": 0, "phase": "running"}
        return await self._drive(state, None)

    async def resume(self, run_id: str, reply: str) -> dict:
        state = self.store.load(run_id)
        if state["phase"] != PAUSED:
            raise SystemExit(f"run {run_id} is {state['phase']}, not paused")
        return await self._drive(state, reply)

    async def _drive(self, state: dict, reply: str | None) -> dict:
        state["phase"] = DONE
        for index in range(state["cursor"], len(self.steps)):
            state["cursor"] = index
            outcome = await self.steps[index].run(state, reply)
            reply = None
            if outcome != DONE:
                state["phase"] = outcome
                break
        self.store.save(state)
        return state


async def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="flowrun")
    parser.add_argument("command", choices=("start", "resume"))
    parser.add_argument("args", nargs="+", help="start: TOPIC AUDIENCE; resume: RUN_ID ANSWER")
    opts = parser.parse_args(argv)
    secrets = json.loads(os.environ.get("FLOWRUN_SECRETS", "{}"))
    async with httpx.AsyncClient(timeout=120) as http:
        registry = PeerRegistry.parse(http, os.environ["FLOWRUN_PEERS"])
        steps = [DelegateNode(step, peer, prompt, registry, http, secrets) for step, peer, prompt in STEPS]
        engine = Engine(StateStore(os.environ.get("FLOWRUN_STATE", DEFAULT_STATE_DIR)), steps)
        if opts.command == "start":
            state = await engine.start({"topic": opts.args[0], "audience": opts.args[-1]})
        else:
            state = await engine.resume(opts.args[0], " ".join(opts.args[1:]))
    slot = state["slots"].get(STEPS[state["cursor"]][0], {})
    print(f"run {state['run']}: {state['phase']} at step {state['cursor'] + 1}/{len(STEPS)}")
    print(slot.get("question") or slot.get("answer") or "")
    return 0 if state["phase"] in (DONE, PAUSED) else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
