import httpx


def partner_profile(http: httpx.Client, base: str) -> dict:
    reply = http.get(base.rstrip("/") + "/.well-known/agent-card.json", timeout=10)
    reply.raise_for_status()
    return reply.json()
