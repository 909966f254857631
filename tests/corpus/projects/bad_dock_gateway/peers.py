"""Peer bookkeeping for the dock; the loader itself lives in wire."""

from wire import load_card


def peer_name(url: str) -> str:
    return url.split("//", 1)[-1].split("/", 1)[0]
