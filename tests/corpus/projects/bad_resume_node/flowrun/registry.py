"""PeerRegistry: where workflow nodes find the agents they delegate to."""

from __future__ import annotations

import logging

import httpx
from a2a.types import AgentCard

log = logging.getLogger(__name__)
WELL_KNOWN = "/.well-known/agent-card.json"


class UnknownPeer(KeyError):
    """No agent of that name is configured."""


class PeerRegistry:
    """Maps a peer name to its base URL; the peer's document is read on each lookup."""

    def __init__(self, http: httpx.AsyncClient, directory: dict[str, str]):
        self._http = http
        self._directory = dict(directory)

    @classmethod
    def parse(cls, http: httpx.AsyncClient, spec: str) -> PeerRegistry:
        """``"writer=https://w.example,legal=https://l.example"``"""
        pairs = (item.split("=", 1) for item in spec.split(",") if "=" in item)
        return cls(http, {name.strip(): url.strip() for name, url in pairs})

    async def lookup(self, name: str) -> AgentCard:
        try:
            base = self._directory[name]
        except KeyError:
            raise UnknownPeer(name) from None
        response = await self._http.get(base.rstrip("/") + WELL_KNOWN)  # expect: AC101
        response.raise_for_status()
        data = response.json()
        log.debug("resolved %s (version %s)", name, data.get("version"))
        return AgentCard.model_validate(data)
