"""Contract pinning kept apart from the transport: it stamps the link it is handed."""

import hashlib
import json

CONTRACT_FIELDS = ("protocolVersion", "securitySchemes", "security")


def stamp(link, card: dict) -> None:
    canonical = json.dumps({k: card.get(k) for k in CONTRACT_FIELDS}, sort_keys=True, separators=(",", ":"))
    link.terms_sha256 = hashlib.sha256(canonical.encode()).hexdigest()
