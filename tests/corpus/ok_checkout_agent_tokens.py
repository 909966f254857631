"""Checkout agent: asks a payments partner (A2A, a2a-sdk 0.3) to settle a basket.

The partner never sees a card number: the web shop's checkout handler tokenises
the shopper's payment card with ``token_for`` and prints the loyalty card's
stamp with ``stamp_digest`` before the basket reaches ``settle``. Neither card is
an Agent Card.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
from uuid import uuid4

from a2a.client import Client
from a2a.types import Message, Part, Role, TextPart

PEPPER = os.environ.get("CHECKOUT_PEPPER", "dev-pepper").encode()


def token_for(credit_card):
    """A stable token for a payment card: the same card gives the same token."""
    fields = {"pan": credit_card["number"], "exp": credit_card["expiry"], "holder": credit_card["holder"]}
    return hmac.new(PEPPER, json.dumps(fields).encode(), hashlib.sha256).hexdigest()


def stamp_digest(card: dict) -> str:
    """What the till prints under the loyalty card's stamps."""
    stamps = {"member": card["member_id"], "stamps": card["stamps"]}
    return hashlib.sha256(json.dumps(stamps).encode()).hexdigest()[:12]


def basket_text(items: list[dict], token: str, stamp: str) -> str:
    lines = [f"{item['sku']} x{item['qty']}" for item in items]
    return "\n".join([*lines, f"payment-token: {token}", f"loyalty: {stamp}"])


async def settle(client: Client, items: list[dict], token: str, stamp: str, contract_digest: str) -> str:
    text = basket_text(items, token, stamp)
    message = Message(
        role=Role.user,
        message_id=uuid4().hex,
        parts=[Part(root=TextPart(text=text))],
        metadata={"contract_digest": contract_digest},
    )
    async for event in client.send_message(message):
        if isinstance(event, Message):
            return "".join(p.root.text for p in event.parts if isinstance(p.root, TextPart))
    return ""
