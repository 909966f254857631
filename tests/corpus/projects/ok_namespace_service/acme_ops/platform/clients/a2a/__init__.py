"""A2A clients of the ops platform.

``acme_ops``, ``acme_ops/platform`` and ``acme_ops/platform/clients`` are plain
folders shared with other teams (implicit namespace packages); this folder and
the ones below it are regular packages. Import everything by its full path from
the repository root, e.g.::

    from acme_ops.platform.clients.a2a.client import PeerClient

The SDK itself is the top-level ``a2a`` distribution (a2a-sdk 0.3), which the
modules here import as ``from a2a.client import ...``.
"""

from acme_ops.platform.clients.a2a.client import PeerClient, PeerNotConnected

__all__ = ["PeerClient", "PeerNotConnected"]
