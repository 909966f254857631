"""Waiting for a peer agent to come up: its card answering is what tells.

No SDK import here: the caller hands in whatever resolver it uses.
"""

import asyncio
import logging

log = logging.getLogger("waiting")


async def card_when_up(resolver, pause: float = 2.0, attempts: int = 30):
    for attempt in range(attempts):
        try:
            return await resolver.get_agent_card()
        except Exception as error:
            log.info("peer not up yet (attempt %d): %s", attempt + 1, error)
            await asyncio.sleep(pause)
    raise TimeoutError(f"peer did not come up after {attempts} attempts")
