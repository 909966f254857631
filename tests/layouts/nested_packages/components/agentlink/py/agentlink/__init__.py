"""Plain-HTTP helpers for the partner agents the platform settles with."""

from .cards import published_card

__all__ = ["published_card"]
