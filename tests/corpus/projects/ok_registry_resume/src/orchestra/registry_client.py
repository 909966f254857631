"""Client of the agent registry: an MCP server whose tools return published agent cards as JSON text."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from mcp import ClientSession
from mcp.client.streamable_http import streamablehttp_client
from mcp.types import CallToolResult

REGISTRY_URL = os.environ.get("ORCHESTRA_REGISTRY_URL", "http://localhost:10100/mcp")


class RegistryError(LookupError):
    pass


@asynccontextmanager
async def connect(url: str = REGISTRY_URL) -> AsyncIterator[ClientSession]:
    async with streamablehttp_client(url) as (read_stream, write_stream, _):
        async with ClientSession(read_stream, write_stream) as session:
            await session.initialize()
            yield session


async def find_agent(session: ClientSession, query: str) -> CallToolResult:
    """Ask the registry for the agent that best matches ``query`` (one card, as JSON text)."""
    result = await session.call_tool(name="find_agent", arguments={"query": query})
    if result.isError or not result.content:
        raise RegistryError(f"registry has no agent for {query!r}")
    return result
