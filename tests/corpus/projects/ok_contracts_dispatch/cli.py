"""Orchestrator CLI: hands one request to a worker agent and tells observer agents about it.

Usage: python cli.py WORKER_URL "request text" [OBSERVER_URL ...]

Every message/send, to the worker and to each observer, carries the sha256 of
the peer's contract terms (canonical JSON: sorted keys, fixed separators) in
its metadata, computed from the document it was sent with.
"""

from __future__ import annotations

import asyncio
import json
import sys

import aiohttp

from dispatch import delegate, notify

WELL_KNOWN = "/.well-known/agent-card.json"


async def discover(session: aiohttp.ClientSession, base_urls: list[str]) -> dict[str, dict]:
    found: dict[str, dict] = {}
    for base in base_urls:
        async with session.get(base.rstrip("/") + WELL_KNOWN) as resp:
            resp.raise_for_status()
            found[base] = await resp.json(content_type=None)
    return found


async def run(worker_url: str, text: str, observer_urls: list[str]) -> int:
    timeout = aiohttp.ClientTimeout(total=60)
    async with aiohttp.ClientSession(timeout=timeout) as session:
        profiles = await discover(session, [worker_url, *observer_urls])
        result = await delegate(session, profiles[worker_url], text)
        print(json.dumps({"id": result.get("id"), "kind": result.get("kind"), "digest": result["metadata"]["contract_digest"]}))
        heads_up = f"{profiles[worker_url].get('name', worker_url)} took on: {text[:80]}"
        for base in observer_urls:
            await notify(session, profiles[base], heads_up)
    return 0


def main(argv: list[str]) -> int:
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    return asyncio.run(run(argv[1], argv[2], argv[3:]))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
