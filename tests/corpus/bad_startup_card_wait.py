"""The start-up of ok_startup_card_wait.py gone wrong: one caller waits for the card
with no deadline at all (``timeout=None``), another calls the retry loop bare, so a
peer that never serves its card is hammered for good."""

import asyncio
import logging
from dataclasses import dataclass, field

import httpx
from a2a.client import A2ACardResolver
from a2a.types import AgentCard

logger = logging.getLogger("startup")


@dataclass
class Startup:
    http: httpx.AsyncClient
    peers: list[str]
    cards: dict[str, AgentCard] = field(default_factory=dict)

    async def _until_published(self, url: str) -> AgentCard:
        while True:  # expect: AC202
            try:
                return await A2ACardResolver(self.http, url).get_agent_card()
            except httpx.HTTPError as exc:
                logger.info("waiting for %s: %s", url, exc)
                await asyncio.sleep(2)

    async def run(self) -> None:
        for url in self.peers:
            self.cards[url] = await asyncio.wait_for(self._until_published(url), timeout=None)


async def card_when_up(http: httpx.AsyncClient, base: str) -> dict:
    while True:  # expect: AC202
        response = await http.get(f"{base}/.well-known/agent-card.json")
        if response.status_code == 200:
            return response.json()
        await asyncio.sleep(1)


async def wait_for_registry(http: httpx.AsyncClient, base: str) -> dict | None:
    async with asyncio.timeout(30):
        first = await card_when_up(http, base)
    logger.info("registry up: %s", first.get("name"))
    return await card_when_up(http, base)  # a second wait, with no deadline


async def main(peers: list[str], registry: str) -> None:
    async with httpx.AsyncClient(timeout=5) as http:
        await Startup(http, peers).run()
        print(await wait_for_registry(http, registry))
