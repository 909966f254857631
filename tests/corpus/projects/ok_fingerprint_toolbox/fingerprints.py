import hashlib
import json


def fingerprint(meta: dict) -> str:
    """Short digest of a peer's contract terms, stored next to each job we hand it."""
    terms = {key: meta.get(key) for key in ("protocolVersion", "securitySchemes", "security")}
    raw = json.dumps(terms, sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(raw.encode(), digest_size=16).hexdigest()
