"""Helpers for pinning a peer's terms; the public names live in the submodules."""

from .hashing import terms_digest

__all__ = ["terms_digest"]
