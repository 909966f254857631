"""Partner profiles are signed (detached JWS over the canonical JSON, keys from JWKS)."""

from __future__ import annotations

import base64
import json

import jwt
from jwcrypto import jwk, jws
from jwcrypto import jwt as jose_jwt
from jwcrypto.common import JWException


def _detached(profile: dict) -> str:
    body = {k: v for k, v in profile.items() if k != "signatures"}
    raw = json.dumps(body, sort_keys=True, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def pyjwt_holds(profile: dict, keys: jwt.PyJWKClient) -> bool:
    payload = _detached(profile)
    for entry in profile.get("signatures") or []:
        compact = ".".join((entry["protected"], payload, entry["signature"]))
        try:
            jwt.decode(compact, keys.get_signing_key_from_jwt(compact).key, algorithms=["ES256", "RS256"])
        except jwt.InvalidTokenError:
            continue
        return True
    return False


def jwcrypto_holds(profile: dict, keyset: jwk.JWKSet) -> None:
    payload = _detached(profile)
    for entry in profile.get("signatures") or []:
        try:
            jws.JWS().deserialize(f"{entry['protected']}.{payload}.{entry['signature']}", key=keyset)
            return
        except JWException:
            continue
    raise PermissionError("no signature on the profile holds")


def push_claims(bearer: str, keyset: jwk.JWKSet) -> dict:
    token = jose_jwt.JWT(jwt=bearer, key=keyset, expected_type="JWS")
    return json.loads(token.claims)
