"""What the dock exposes to the rest of the service."""

from peers import load_card, peer_name

__all__ = ["load_card", "peer_name"]
