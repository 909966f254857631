"""Routing host agent for the support desk.

``dispatch`` re-exports what the ADK app needs: the host (``RoutingAgent``),
the per-peer connection wrapper and the discovery helper. ``adk web`` and the
Cloud Run entry point both import ``dispatch.root_agent``.
"""

from .connection import RemoteAgentConnection
from .discovery import discover_peers
from .host import RoutingAgent, build_root_agent

__all__ = [
    "RemoteAgentConnection",
    "RoutingAgent",
    "build_root_agent",
    "discover_peers",
    "root_agent",
]


def __getattr__(name: str):
    if name == "root_agent":
        return build_root_agent()
    raise AttributeError(name)
