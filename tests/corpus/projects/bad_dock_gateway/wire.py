import requests

CARD_PATH = "/.well-known/agent-card.json"


def load_card(base_url: str) -> dict:
    resp = requests.get(base_url.rstrip("/") + CARD_PATH, timeout=5)
    resp.raise_for_status()
    return resp.json()
