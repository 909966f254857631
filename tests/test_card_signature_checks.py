"""A signature check of the card, in each JOSE library's spelling: the state a task's
record gets after it is the card's word (AC201); a check of a token that is not made
from the card (a push notification's JWT) is not a check of the card."""

from __future__ import annotations

import pytest

from a2alint.runner import lint_source

#: What makes the compact token from the fetched card (its detached JWS).
PROLOGUE = '''
import base64, json
import httpx

def settle(rows: list[dict], base: str, key):
    doc = httpx.get(base + "/.well-known/agent-card.json").json()
    body = json.dumps({k: v for k, v in doc.items() if k != "signatures"}, sort_keys=True).encode()
    payload = base64.urlsafe_b64encode(body).rstrip(b"=").decode()
    sig = doc["signatures"][0]
    token = sig["protected"] + "." + payload + "." + sig["signature"]
'''
#: The check, spelled as each library has it, then the state set once it passes.
CHECKS = {
    "pyjwt": ("import jwt", "jwt.decode(token, key, algorithms=['ES256'])"),
    "pyjwt alias": ("from jwt import decode as jws_decode", "jws_decode(token, key, algorithms=['ES256'])"),
    "pyjws method": ("from jwt import PyJWS", "PyJWS().decode_complete(token, key=key, algorithms=['ES256'])"),
    "python-jose": ("from jose import jws", "jws.verify(token, key, algorithms=['ES256'])"),
    "jwcrypto jwt": ("from jwcrypto import jwt as jose_jwt", "jose_jwt.JWT(jwt=token, key=key)"),
}
EPILOGUE = '''
    for row in rows:
        row["status"] = "completed"
'''


def source(imports: str, check: str, token: str = "token") -> str:
    return imports + "\n" + PROLOGUE + f"    {check.replace('token', token, 1)}" + EPILOGUE


@pytest.mark.parametrize("library", sorted(CHECKS))
def test_a_check_of_a_token_made_from_the_card_guards_the_state(library):
    imports, check = CHECKS[library]
    found = [(d.code, d.line) for d in lint_source(source(imports, check), "settle.py", select=("AC201",)).diagnostics]
    assert found == [("AC201", source(imports, check).splitlines().index('        row["status"] = "completed"') + 1)]


@pytest.mark.parametrize("library", sorted(CHECKS))
def test_a_check_of_another_token_does_not(library):
    imports, check = CHECKS[library]
    text = source(imports, check, token="bearer").replace("key):", "key, bearer: str):")
    assert lint_source(text, "settle.py", select=("AC201",)).diagnostics == []


LISTINGS = '''
import httpx
from a2a.client import A2ACardResolver
from a2a.utils.signing import SignatureVerificationError, create_signature_verifier


async def refresh_listings(http: httpx.AsyncClient, listings: list[dict], keys) -> int:
    verify = create_signature_verifier(keys, ["ES256"])
    rejected = 0
    for listing in listings:
        card = await A2ACardResolver(http, listing["base_url"]).get_agent_card()
        listing["offers"] = sorted(skill.id for skill in card.skills)
        try:
            verify(card)
        except SignatureVerificationError:
            listing["status"] = "rejected"
            rejected += 1
            continue
        listing["status"] = "listed"
    return rejected
'''


def test_a_listing_that_keeps_the_cards_skills_under_a_key_of_its_own_is_no_task():
    """A partner listing holds what the card offers (``listing["offers"]``) and nothing of a
    task: its status, rejected when the signature fails, is not a task's state."""
    assert lint_source(LISTINGS, "listings.py").diagnostics == []
