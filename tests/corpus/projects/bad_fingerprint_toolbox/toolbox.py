"""Small helpers shared by the workers."""

import time

from fingerprints import fingerprint  # re-exported for the workers


def backoff(attempt: int) -> float:
    return min(30.0, 0.5 * 2**attempt)


def now_ms() -> int:
    return int(time.time() * 1000)
