"""Orchestrator start-up: each peer may still be booting, so its card is retried until
it is served, and every caller bounds that wait with a deadline (``asyncio.wait_for`` or
an ``asyncio.timeout`` block): no retry storm, the start-up gives up on a dead peer."""

import asyncio
import logging

import httpx
from a2a.client import A2ACardResolver
from a2a.types import AgentCard

log = logging.getLogger(__name__)


class Startup:
    def __init__(self, http: httpx.AsyncClient, peers: list[str]):
        self.http = http
        self.peers = peers
        self.cards: dict[str, AgentCard] = {}

    async def _until_published(self, url: str) -> AgentCard:
        while True:
            try:
                return await A2ACardResolver(self.http, url).get_agent_card()
            except httpx.HTTPError as exc:
                log.info("waiting for %s: %s", url, exc)
                await asyncio.sleep(2)

    async def run(self, budget_s: float = 60.0) -> None:
        for url in self.peers:
            try:
                self.cards[url] = await asyncio.wait_for(self._until_published(url), timeout=budget_s)
            except asyncio.TimeoutError:
                log.error("peer %s did not come up within %.0fs; skipping it", url, budget_s)


async def card_when_up(http: httpx.AsyncClient, base: str) -> dict:
    while True:
        response = await http.get(f"{base}/.well-known/agent-card.json")
        if response.status_code == 200:
            return response.json()
        await asyncio.sleep(1)


async def wait_for_registry(http: httpx.AsyncClient, base: str) -> dict | None:
    try:
        async with asyncio.timeout(30):
            return await card_when_up(http, base)
    except TimeoutError:
        return None


async def main(peers: list[str], registry: str) -> None:
    async with httpx.AsyncClient(timeout=5) as http:
        await Startup(http, peers).run()
        print(await wait_for_registry(http, registry))
