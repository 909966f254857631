"""review-bot: asks a remote code-review agent (A2A, a2a-sdk 1.x) to review each file of a diff.

Run as ``git diff origin/main | python -m reviewbot.app``. The bot connects once
(``ReviewSession.connect`` reads the agent's card and builds the client, and the
session keeps the card), then the review desk asks for one review per changed
file.

Defect: the send in ``ReviewSession.ask`` freezes no contract. The session is
handed the card itself and only ever reads its name; no canonical digest of the
card's contract fields is taken at connect or send time, and none travels in
the request metadata, so nothing can tell later which authorization the
reviews ran under.
"""

from __future__ import annotations

import asyncio
import os
import sys
from dataclasses import dataclass

from . import BLOCKING_MARK
from .session import ReviewSession


@dataclass
class FileDiff:
    path: str
    hunk: str


def split_diff(text: str) -> list[FileDiff]:
    diffs: list[FileDiff] = []
    for chunk in text.split("diff --git ")[1:]:
        header, _, body = chunk.partition("\n")
        path = header.split(" b/", 1)[-1].strip()
        diffs.append(FileDiff(path=path, hunk=body))
    return diffs


class ReviewDesk:
    def __init__(self, session: ReviewSession, max_chars: int = 16_000):
        self.session = session
        self.max_chars = max_chars

    async def review(self, diffs: list[FileDiff]) -> list[tuple[str, str, str]]:
        remarks = []
        for item in diffs:
            prompt = (
                f"Review this change to {item.path}. Mark anything that must be fixed "
                f"before merging with {BLOCKING_MARK}.\n\n{item.hunk[: self.max_chars]}"
            )
            answer, outcome = await self.session.ask(prompt)
            remarks.append((item.path, outcome, answer))
        return remarks


async def main() -> int:
    diffs = split_diff(sys.stdin.read())
    if not diffs:
        print("nothing to review")
        return 0
    session = await ReviewSession.connect(os.environ.get("REVIEW_AGENT_URL", "http://localhost:9999"))
    try:
        remarks = await ReviewDesk(session).review(diffs)
    finally:
        await session.close()
    blocking = 0
    for path, outcome, answer in remarks:
        print(f"## {path} ({outcome})\n{answer or '(no remarks)'}\n")
        blocking += BLOCKING_MARK in answer
    return 1 if blocking else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
