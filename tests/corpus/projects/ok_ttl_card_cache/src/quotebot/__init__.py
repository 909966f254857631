"""quotebot: asks the freight-pricing agent for quotes over A2A JSON-RPC.

Layout (installed from ``src/``):

    cli       command line, one quote per input line (entry point ``quotebot``)
    remote    RemoteQuoter: caches the agent's document and builds each request
    client    PricingClient: the thin httpx wrapper that talks to the agent
"""

from .client import PricingClient
from .remote import RemoteQuoter

__all__ = ["PricingClient", "RemoteQuoter"]
__version__ = "1.2.0"

DEFAULT_AGENT = "https://pricing.freight.example.com"
