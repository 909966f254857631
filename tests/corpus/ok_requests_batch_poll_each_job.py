"""Re-index a list of repositories through a peer indexing agent (requests, raw JSON-RPC).

Every repository is its own task: the card is revalidated (If-None-Match) before
the job is sent, and the job is polled until it ends before the next repository.
The card read for repository N+1 can only route that new task.
"""

import hashlib
import json
import time
import uuid

import requests

PEER = "https://indexer.internal"
ENDED = {"completed", "failed", "canceled", "rejected"}


def digest(card: dict) -> str:
    governing = {k: card.get(k) for k in ("protocolVersion", "securitySchemes", "security")}
    return hashlib.sha256(json.dumps(governing, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def rpc(endpoint: str, method: str, params: dict) -> dict:
    body = {"jsonrpc": "2.0", "id": uuid.uuid4().hex, "method": method, "params": params}
    return requests.post(endpoint, json=body, timeout=30).json()["result"]


def reindex(repos: list[str]) -> list[tuple[str, str]]:
    session = requests.Session()
    card, validator, report = {}, "", []
    for repo in repos:
        got = session.get(f"{PEER}/.well-known/agent-card.json", headers={"If-None-Match": validator}, timeout=10)
        if got.status_code == 200:
            card, validator = got.json(), got.headers.get("ETag", "")
        if "JSONRPC" not in (card.get("preferredTransport"), *[i.get("transport") for i in card.get("additionalInterfaces", [])]):
            raise SystemExit(f"{PEER} no longer offers JSON-RPC")
        message = {"role": "user", "messageId": uuid.uuid4().hex, "parts": [{"kind": "text", "text": f"reindex {repo}"}]}
        job_id = rpc(card["url"], "message/send", {"message": message, "metadata": {"contract_hash": digest(card)}})["id"]
        state = "submitted"
        while state not in ENDED:
            time.sleep(5)
            state = rpc(card["url"], "tasks/get", {"id": job_id})["status"]["state"]
        report.append((repo, state))
    return report
