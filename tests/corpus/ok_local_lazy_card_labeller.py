"""A batch labeller that resolves the peer's card lazily, on the first item that needs
it, and keeps it in a local for the rest of the batch: the fetch runs once per call
(as ``if self.card is None:`` would on an object), so the card is not re-read."""

import asyncio
import sys

import httpx
import requests
from a2a.client import A2ACardResolver


async def label_all(http: httpx.AsyncClient, url: str, items: list[str]):
    card = None
    labelled = []
    for item in items:
        if card is None:  # fetched once, on the first item
            card = await A2ACardResolver(http, url).get_agent_card()
        labelled.append((card.name, item))
    return labelled


def tag_rows(base_url: str, rows: list[dict]) -> list[dict]:
    """The same with requests: only rows that name the peer need its card."""
    peer = None
    out = []
    for row in rows:
        if not row.get("needs_peer"):
            out.append(row)
            continue
        if not peer:
            response = requests.get(f"{base_url}/.well-known/agent-card.json", timeout=10)
            response.raise_for_status()
            peer = response.json()
        out.append({**row, "peer": peer["name"], "version": peer["version"]})
    return out


async def main(url: str, items: list[str]) -> None:
    async with httpx.AsyncClient(timeout=10) as http:
        for card_name, item in await label_all(http, url, items):
            print(f"{card_name}\t{item}")
    for row in tag_rows(url, [{"id": i, "needs_peer": i % 2 == 0} for i in range(4)]):
        print(row)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2:]))
