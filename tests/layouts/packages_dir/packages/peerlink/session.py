"""Connections to partner agents over a2a-sdk 1.x."""

from a2a.client import create_client

_open: dict = {}


async def connect(url: str):
    """The client for ``url``, made once per process."""
    if url not in _open:
        _open[url] = await create_client(url)
    return _open[url]
