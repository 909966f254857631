"""Runbook worker for the acme ops platform.

Walks an incident runbook step by step and asks the remediation agent (a remote
A2A peer, reached through ``acme_ops.platform.clients.a2a``) what to do at each
step. When the agent needs more details it leaves its answer open and the worker
passes the operator's reply back on the same conversation.

Run from the repository root (``acme_ops`` and ``platform`` are plain folders,
not packages)::

    python -m acme_ops.platform.runbook_worker INC-4411 runbooks/disk_pressure.txt

Known defect: the session's send (``RunbookSession.ask``, in
``clients/a2a/session.py``) hands the message to the peer client without any
frozen contract. The peer's descriptor is read once at connect, but no digest of
its protocol version and security requirements is taken there or in the
session, and none rides along in the message metadata, so nothing can later
tell whether the agent still works under the authorization it accepted.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from acme_ops.platform.clients.a2a.client import PeerClient
from acme_ops.platform.clients.a2a.session import RunbookSession

REMEDIATION_URL = os.environ.get("ACME_REMEDIATION_URL", "http://remediation.ops.internal:9000")


def load_steps(path: str) -> list[str]:
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]


async def work(incident: str, runbook: str) -> int:
    peer = PeerClient(REMEDIATION_URL, token=os.environ.get("ACME_OPS_TOKEN"))
    session = RunbookSession(peer, incident)
    try:
        await session.open()
        for number, step in enumerate(load_steps(runbook), start=1):
            turn = await session.ask(f"Step {number}: {step}")
            while turn.waiting:
                print(f"[{incident}] agent asks: {turn.answer}")
                turn = await session.ask(input("> "))
            print(f"[{incident}] step {number} -> {turn.state}: {turn.answer}")
            if turn.state in ("failed", "rejected"):
                return 1
    finally:
        await peer.close()
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit("usage: runbook_worker INCIDENT RUNBOOK")
    sys.exit(asyncio.run(work(sys.argv[1], sys.argv[2])))
