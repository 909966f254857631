"""Claims intake conductor: walks a remote claims agent through its follow-up questions.

Run as ``python -m intake.conductor claim.json``. The claims agent (a2a-sdk 0.3
Client) answers the first message with a task and keeps it ``input-required``
while it asks for missing details; the conductor answers from the claim file
and sends each answer back on the same task (``task_id = task.id``).

The agent's card is resolved once, before the first message: its security
schemes are checked there, its contract is frozen into a digest and the client
is built from it. Every later turn reuses that session and carries the digest
in the message metadata; the task's own status decides when the talk is over.
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
from .turns import PeerNotUsable, open_session, take_turn

log = logging.getLogger("intake")
CLAIMS_AGENT = os.environ.get("CLAIMS_AGENT_URL", "https://claims.agents.example.net")
MAX_TURNS = 8


class Conductor:
    def __init__(self, http: httpx.AsyncClient, base_url: str, sheet: AnswerSheet):
        self.http = http
        self.base_url = base_url
        self.sheet = sheet

    async def run(self, opening: str) -> Task | None:
        session = await open_session(self.http, self.base_url)
        log.info("talking to %s under contract %s", session.name, session.digest[:12])
        task = await take_turn(session, opening)
        for turn in range(MAX_TURNS):
            if task is None or task.status.state != TaskState.input_required:
                break
            task_id = task.id
            question = question_of(task)
            reply = self.sheet.answer(question)
            log.info("turn %d of %s: %r -> %r", turn + 1, task_id, question, reply)
            task = await take_turn(session, reply, task_id=task_id, context_id=task.context_id)
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
            print(f"claims agent not usable: {exc}", file=sys.stderr)
            return 2
    if task is None:
        print("the claims agent answered without opening a claim")
        return 1
    print(f"claim {task.id}: {task.status.state.value}")
    return 0 if task.status.state == TaskState.completed else 1


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    sys.exit(asyncio.run(main()))
