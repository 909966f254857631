"""Helpers around a peer's card, shared by the desk's workflows.

Nothing here imports the SDK: callers hand in the resolver they hold.
"""

import logging

log = logging.getLogger(__name__)


async def read_card(resolver):
    card = await resolver.get_agent_card()
    log.debug("card of %s read", card.name)
    return card


def skill_ids(card) -> set[str]:
    return {skill.id for skill in card.skills}
