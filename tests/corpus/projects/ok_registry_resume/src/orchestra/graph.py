"""Workflow: an ordered list of AgentNodes, run until one pauses for input."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator

from a2a.types import AgentCard

from orchestra import registry_client
from orchestra.node import AgentNode, Phase

log = logging.getLogger(__name__)


class Workflow:
    def __init__(self, nodes: list[AgentNode]) -> None:
        self.nodes = nodes
        self.cursor = 0
        self.carry = ""

    @property
    def paused(self) -> AgentNode | None:
        node = self.nodes[self.cursor] if self.cursor < len(self.nodes) else None
        return node if node is not None and node.phase == Phase.PAUSED else None

    async def _resolve_all(self) -> None:
        async with registry_client.connect() as session:
            for node in self.nodes:
                result = await registry_client.find_agent(session, node.query)
                node.bind(AgentCard(**json.loads(result.content[0].text)))

    async def start(self, brief: str) -> AsyncIterator[str]:
        self.carry = brief
        await self._resolve_all()
        async for line in self._drive(None):
            yield line

    async def resume(self, answer: str) -> AsyncIterator[str]:
        """Re-run the paused node with the user's answer, on the agent it was bound to at start."""
        if self.paused is None:
            raise RuntimeError("nothing to resume")
        async for line in self._drive(answer):
            yield line

    async def _drive(self, answer: str | None) -> AsyncIterator[str]:
        while self.cursor < len(self.nodes):
            node = self.nodes[self.cursor]
            text = answer if answer is not None else self.carry
            answer = None
            async for line in node.run_node(text):
                yield line
            if node.phase != Phase.DONE:
                return
            self.carry = "\n".join(node.results) or self.carry
            self.cursor += 1
        log.info("workflow finished after %d steps", len(self.nodes))
