"""Partner cards, read once per process (the directory rate-limits us)."""

from __future__ import annotations

import functools

from relay.directory import partner_row


@functools.lru_cache(maxsize=128)
def _row_for(partner: str) -> dict:
    return partner_row(partner)


def card_of(partner: str) -> dict:
    return _row_for(partner)
