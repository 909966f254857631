"""fleet-diagnostics: asks the fleet agent to diagnose a host (JSON-RPC, protocol
0.3, plain requests) and, while the diagnosis runs, shows the agent's name and
version on the operators' status page. The page may be served by a replica
that is still warming up, so that read is retried a few times."""

import hashlib
import json
import logging
import time
import uuid

import requests

CARD = "/.well-known/agent-card.json"
log = logging.getLogger("fleet.diagnostics")


def fingerprint(card: dict) -> str:
    terms = {k: card.get(k) for k in ("protocolVersion", "securitySchemes", "security")}
    return hashlib.sha256(json.dumps(terms, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def diagnose(base: str, host: str) -> dict:
    card = requests.get(base + CARD, timeout=5).json()
    message = {"role": "user", "messageId": uuid.uuid4().hex, "parts": [{"kind": "text", "text": f"diagnose {host}"}],
               "metadata": {"contract": fingerprint(card)}}
    body = {"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": {"message": message}}
    task = requests.post(card["url"], json=body, timeout=30).json()["result"]

    about = None
    for attempt in range(4):
        try:
            about = requests.get(base + CARD, timeout=5).json()
        except (requests.RequestException, ValueError) as exc:
            log.warning("status card not readable yet (%s)", exc)
            time.sleep(attempt + 1)
            continue
        if about:
            break
    if about:
        log.info("status page: %s %s", about.get("name"), about.get("version"))
    return task
