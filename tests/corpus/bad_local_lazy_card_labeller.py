"""The labeller of ok_local_lazy_card_labeller.py gone wrong: the local its "lazy" fetch
tests is cleared on every item (or never set by the block it guards), so the card is
re-read on each pass, with no validator."""

import asyncio
import sys

import httpx
import requests
from a2a.client import A2ACardResolver


async def label_all(http: httpx.AsyncClient, url: str, items: list[str]):
    labelled = []
    for item in items:
        card = None  # reset each pass: the guard below always holds
        if card is None:
            card = await A2ACardResolver(http, url).get_agent_card()  # expect: AC104
        labelled.append((card.name, item))
    return labelled


def tag_rows(base_url: str, records: list[dict]) -> list[dict]:
    """The guard tests one local, the block fills another: the fetch runs for every row."""
    tagged, peer = [], None
    for record in records:
        if not peer:
            response = requests.get(f"{base_url}/.well-known/agent-card.json", timeout=10)  # expect: AC104
            response.raise_for_status()
            card = response.json()
        tagged.append({**record, "peer": card["name"], "version": card["version"]})
    return tagged


def main() -> None:
    url, *items = sys.argv[1:]

    async def labelled() -> list:
        async with httpx.AsyncClient(timeout=10) as http:
            return await label_all(http, url, items)

    print(asyncio.run(labelled()))
    print(tag_rows(url, [{"row": n} for n in range(len(items))]))


if __name__ == "__main__":
    main()
