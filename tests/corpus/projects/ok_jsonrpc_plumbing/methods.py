"""Which JSON-RPC methods the plumbing lets through, and how it labels payloads in the audit log."""

from __future__ import annotations

import logging

from terms import PIN_KEY

audit_log = logging.getLogger("a2a.audit")

READS = {"tasks/get", "tasks/cancel", "tasks/resubscribe"}


class RefusedCall(ValueError):
    pass


def check(method: str, params: dict) -> None:
    if method in {"message/send", "message/stream"}:
        if "message" not in params:
            raise RefusedCall(f"{method} without a message")
        if PIN_KEY not in (params.get("metadata") or {}):
            raise RefusedCall(f"{method} without a pinned contract")
    elif method not in READS:
        raise RefusedCall(f"{method} is not a method this client speaks")


def label(payload: dict) -> str:
    # REST stream bodies carry no method; old dashboards file them under the 0.1 name.
    method = payload.get("method") or "tasks/sendSubscribe"
    pin = ((payload.get("params") or payload).get("metadata") or {}).get(PIN_KEY, "")
    return f"{method} pin={pin[:12] or '-'}"


def audit(payload: dict) -> None:
    audit_log.info("outgoing %s", label(payload))
