"""Claims intake conductor: walks a remote claims agent through its follow-up questions.

Run as ``python -m intake.conductor claim.json``. The claims agent (a2a-sdk 0.3
Client) answers the first message with a task and keeps it ``input-required``
while it asks for missing details; the conductor answers from the claim file
and sends each answer back on the same task (``task_id = task.id``).

Defects: every turn goes through ``turns.take_turn``, which resolves the
agent's card again, checks its security schemes against the credential we hold
and builds a new client from it. From the second turn on, a card fetched after
the task was submitted therefore decides the continuation send (and can abort
it), and that fetch is an unconditional re-read of the same card with no
ETag / If-None-Match. No send freezes the card's contract: no digest is taken
or attached, so nothing can tell later which authorization the task ran under.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import sys

import httpx
from a2a.types import Task, TaskState

from .answers import AnswerSheet, question_of
from .turns import PeerNotUsable, take_turn

log = logging.getLogger("intake")
CLAIMS_AGENT = os.environ.get("CLAIMS_AGENT_URL", "https://claims.agents.example.net")
MAX_TURNS = 8


class Conductor:
    def __init__(self, http: httpx.AsyncClient, base_url: str, sheet: AnswerSheet):
        self.http = http
        self.base_url = base_url
        self.sheet = sheet

    async def run(self, opening: str) -> Task | None:
        task = await take_turn(self.http, self.base_url, opening)
        for turn in range(MAX_TURNS):
            if task is None or task.status.state != TaskState.input_required:
                break
            task_id = task.id
            question = question_of(task)
            reply = self.sheet.answer(question)
            log.info("turn %d of %s: %r -> %r", turn + 1, task_id, question, reply)
            task = await take_turn(self.http, self.base_url, reply, task_id=task_id, context_id=task.context_id)
        return task


async def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="intake")
    parser.add_argument("claim", help="path to the claim file (JSON)")
    args = parser.parse_args(argv)
    with open(args.claim, encoding="utf-8") as fh:
        claim = json.load(fh)
    headers = {"Authorization": f"Bearer {os.environ['CLAIMS_TOKEN']}"}
    async with httpx.AsyncClient(timeout=60, headers=headers) as http:
        conductor = Conductor(http, CLAIMS_AGENT, AnswerSheet(claim))
        try:
            task = await conductor.run(claim["summary"])
        except PeerNotUsable as exc:
            print(f"claims agent refused: {exc}", file=sys.stderr)
            return 2
    if task is None:
        print("the claims agent answered without opening a claim")
        return 1
    print(f"claim {task.id}: {task.status.state.value}")
    return 0 if task.status.state == TaskState.completed else 1


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    sys.exit(asyncio.run(main()))
