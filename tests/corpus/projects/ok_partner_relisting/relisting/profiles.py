"""Where partner profiles come from, and whether their signature holds."""

import base64
import json

import httpx
import jwt


def published_profile(http: httpx.Client, base: str) -> dict:
    answer = http.get(base.rstrip("/") + "/.well-known/agent-card.json", timeout=10)
    answer.raise_for_status()
    return answer.json()


def signed_by_partner(profile: dict, keys: jwt.PyJWKClient) -> bool:
    body = {k: v for k, v in profile.items() if k != "signatures"}
    payload = base64.urlsafe_b64encode(json.dumps(body, sort_keys=True).encode()).rstrip(b"=").decode()
    for entry in profile.get("signatures") or []:
        compact = ".".join((entry["protected"], payload, entry["signature"]))
        try:
            jwt.decode(compact, keys.get_signing_key_from_jwt(compact).key, algorithms=["ES256"])
        except jwt.InvalidTokenError:
            continue
        return True
    return False
