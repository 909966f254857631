"""``python -m pinning.run URL TEXT``: approve the partner's card once, then translate."""

from __future__ import annotations

import asyncio
import sys

import httpx
from a2a.client import ClientConfig, create_client
from a2a.types import GetExtendedAgentCardRequest

from pinning.session import PinnedJob


async def main(url: str, text: str) -> int:
    async with httpx.AsyncClient(timeout=60) as http:
        client = await create_client(url, client_config=ClientConfig(httpx_client=http, streaming=True))
        approved = await client.get_extended_agent_card(GetExtendedAgentCardRequest())
        print("\n".join(await PinnedJob(client, approved).translate(text)))
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1], sys.argv[2])))
