"""A routing agent that refuses to route when a peer's advertised modes change."""

from a2a.client import A2ACardResolver


class PeerChanged(RuntimeError):
    pass


async def route(resolver: A2ACardResolver, cached_card, request):
    fresh_card = await resolver.get_agent_card()
    # Capability drift is recoverable; blocking on it stops healthy delegations.
    if fresh_card.default_input_modes != cached_card.default_input_modes:
        raise PeerChanged(request.peer)
    return fresh_card
