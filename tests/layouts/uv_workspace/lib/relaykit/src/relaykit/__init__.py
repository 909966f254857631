"""Shared plumbing for talking to partner agents."""

from relaykit.peers import open_peer

__all__ = ["open_peer"]
