import hashlib
import json


def fingerprint(meta: dict) -> str:
    """Short digest of a peer's agent document, stored next to each job we hand it."""
    raw = json.dumps(meta, sort_keys=True)  # expect: AC107
    return hashlib.blake2b(raw.encode(), digest_size=16).hexdigest()
