"""Partner cards, kept for a few minutes each (the directory rate-limits us)."""

from __future__ import annotations

import functools
import time

from relay.directory import partner_row

REFRESH_EVERY = 240


@functools.lru_cache(maxsize=128)
def _row_for(partner: str, window: int) -> dict:
    return partner_row(partner)


def card_of(partner: str) -> dict:
    return _row_for(partner, int(time.time() // REFRESH_EVERY))
