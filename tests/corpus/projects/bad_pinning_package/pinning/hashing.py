import hashlib
import json


def terms_digest(card) -> str:
    terms = {"protocolVersion": card.protocol_version, "security": card.security}
    return hashlib.sha256(json.dumps(terms).encode()).hexdigest()  # expect: AC107
