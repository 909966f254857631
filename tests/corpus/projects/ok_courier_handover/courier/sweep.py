"""The hourly sweep over deliveries still waiting on a partner."""

from __future__ import annotations

import logging

import httpx
import jwt
from jwcrypto import jwk
from sqlalchemy import select
from sqlalchemy.orm import Session

from courier.records import Delivery, Phase, Shipment
from courier.signatures import jwcrypto_holds, pyjwt_holds

log = logging.getLogger("courier.sweep")


def published_profile(http: httpx.Client, base: str) -> dict:
    answer = http.get(base.rstrip("/") + "/.well-known/agent-card.json", timeout=10)
    answer.raise_for_status()
    return answer.json()


def remote_state(http: httpx.Client, endpoint: str, remote_id: str) -> str:
    reply = http.post(endpoint, json={"jsonrpc": "2.0", "id": remote_id, "method": "tasks/get", "params": {"id": remote_id}}).json()
    return reply["result"]["status"]["state"]


def sweep_deliveries(http: httpx.Client, partners: dict[str, str], waiting: list[Delivery], keys: jwt.PyJWKClient) -> None:
    for name, base in partners.items():
        meta = published_profile(http, base)
        if not pyjwt_holds(meta, keys):
            log.warning("profile of %s does not verify", name)
            continue
        for delivery in waiting:
            if delivery.partner == name:
                delivery.phase = Phase(remote_state(http, base, delivery.remote_id))
                delivery.notes.append("state asked of the partner")


def sweep_shipments(db: Session, http: httpx.Client, partners: dict[str, str], keyset: jwk.JWKSet) -> int:
    moved = 0
    for name, base in partners.items():
        meta = published_profile(http, base)
        try:
            jwcrypto_holds(meta, keyset)
        except PermissionError:
            continue
        for row in db.scalars(select(Shipment).where(Shipment.partner == name)):
            observed = remote_state(http, base, row.remote_id)
            if observed != row.status:
                row.status = observed
                moved += 1
    db.commit()
    return moved


def recheck_directory(http: httpx.Client, directory: dict[str, dict], keys: jwt.PyJWKClient) -> list[str]:
    dropped = []
    for name, entry in directory.items():
        meta = published_profile(http, entry["base"])
        entry["skills"] = sorted(skill["id"] for skill in meta.get("skills", []))
        if not pyjwt_holds(meta, keys):
            entry["status"] = "rejected"
            dropped.append(name)
            continue
        entry["status"] = "listed"
    return dropped
