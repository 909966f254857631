"""The host agent: picks a remote agent for a request and hands it off."""

from __future__ import annotations

import httpx

from remotes import RemoteAgent
from tools import hand_off


class HostAgent:
    def __init__(self) -> None:
        self._http = httpx.AsyncClient(timeout=20)

    async def summarize(self, text: str) -> str:
        remote = RemoteAgent("summarizer", "https://summarizer.internal", self._http)
        return await hand_off(remote, f"Summarize:\n{text}", "summarize")

    async def translate(self, text: str, language: str) -> str:
        remote = RemoteAgent("translator", "https://translator.internal", self._http)
        return await hand_off(remote, f"Translate into {language}:\n{text}", "translate")
