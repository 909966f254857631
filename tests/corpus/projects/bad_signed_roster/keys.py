"""Who signs partner cards: the partner's JWKS, fetched once and kept by PyJWT."""

from a2a.utils.signing import create_signature_verifier
from jwt import PyJWK, PyJWKClient

_JWKS = PyJWKClient("https://keys.partner.example/jwks.json", cache_keys=True)


def _signing_key(kid: str | None, jku: str | None) -> PyJWK:
    return _JWKS.get_signing_key(kid) if kid else _JWKS.get_signing_keys()[0]


check_card_signature = create_signature_verifier(_signing_key, ["ES256", "RS256"])
