import httpx


def card_of(base: str) -> dict:
    """The partner's published card."""
    return httpx.get(base.rstrip("/") + "/.well-known/agent.json", timeout=5).json()
