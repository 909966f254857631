import hashlib
import json


def terms_digest(card: dict) -> str:
    """What the settlement agent promised when a day was handed over: kept on the task."""
    terms = {k: card.get(k) for k in ("protocolVersion", "securitySchemes", "securityRequirements")}
    return hashlib.sha256(json.dumps(terms, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
