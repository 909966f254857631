"""How a PeerClient delivers a message to the SDK client.

Only the blocking strategy is in use today. A streaming strategy lived here
until the remediation agent dropped SSE support; the interface it shared with
SyncStrategy is kept small on purpose:

    execute(message) -> the last event the SDK yielded, or None
    close()          -> release the SDK client

Strategies never look at the peer's descriptor; PeerClient hands them a ready
SDK client.
"""

from acme_ops.platform.clients.a2a.strategies.sync import DeliveryError, SyncStrategy

__all__ = ["DeliveryError", "SyncStrategy"]
