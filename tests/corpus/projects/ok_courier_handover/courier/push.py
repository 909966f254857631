"""Partners push task updates; each push carries a short-lived JWT."""

from __future__ import annotations

from a2a.types import Task
from jwcrypto import jwk

from courier.records import Delivery, Phase
from courier.signatures import push_claims


def on_push(bearer: str, body: dict, keyset: jwk.JWKSet, deliveries: dict[str, Delivery]) -> None:
    claims = push_claims(bearer, keyset)
    pushed = Task.model_validate(body)
    delivery = deliveries.get(pushed.id)
    if delivery is None or claims.get("sub") != delivery.partner:
        return
    delivery.phase = Phase(pushed.status.state.value)
