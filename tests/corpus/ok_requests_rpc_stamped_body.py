"""Asks a forecasting agent over raw JSON-RPC with requests (A2A 0.3 wire format).

The JSON-RPC body is built first, then stamped: the caller's id and the digest of
the agent's contract, frozen when the card was read, go into ``params.metadata``
of the body that is posted.
"""

import hashlib
import json
import sys
import uuid

import requests

CARD_PATH = "/.well-known/agent-card.json"


def contract_of(card: dict) -> str:
    terms = {k: card.get(k) for k in ("protocolVersion", "securitySchemes", "security")}
    return hashlib.sha256(json.dumps(terms, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def ask(session: requests.Session, url: str, question: str, contract: str) -> dict:
    message = {"role": "user", "messageId": uuid.uuid4().hex, "parts": [{"kind": "text", "text": question}]}
    payload = {"jsonrpc": "2.0", "id": uuid.uuid4().hex, "method": "message/send", "params": {"message": message, "metadata": {}}}
    payload["params"]["metadata"]["caller"] = "forecast-cli"
    payload["params"]["metadata"]["terms"] = contract
    return session.post(url, json=payload, timeout=30).json()


def ask_again(session: requests.Session, url: str, question: str, contract: str, task_id: str) -> dict:
    message = {"role": "user", "messageId": uuid.uuid4().hex, "parts": [{"kind": "text", "text": question}]}
    payload = {"jsonrpc": "2.0", "id": uuid.uuid4().hex, "method": "message/send", "params": {"message": message, "metadata": {}}}
    payload["params"]["message"]["taskId"] = task_id
    payload["params"].setdefault("metadata", {})["terms"] = contract
    return session.post(url, json=payload, timeout=30).json()


def main(base: str, question: str) -> int:
    with requests.Session() as session:
        card = session.get(base.rstrip("/") + CARD_PATH, timeout=10).json()
        contract = contract_of(card)
        answer = ask(session, card["url"], question, contract)
        task = answer.get("result", {})
        if task.get("status", {}).get("state") == "input-required":
            answer = ask_again(session, card["url"], input("> "), contract, task["id"])
        print(json.dumps(answer, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
