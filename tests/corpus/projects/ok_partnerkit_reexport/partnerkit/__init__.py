"""partnerkit: the little client library the ops team shares for talking to partner agents."""

from .cards import card_of
from .rpc import call

__all__ = ["call", "card_of"]
