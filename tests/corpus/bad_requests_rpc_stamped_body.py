"""Asks a forecasting agent over raw JSON-RPC with requests (A2A 0.3 wire format).

The JSON-RPC body is built first, then stamped: the caller's id and a trace hash
go into ``params.metadata`` of the body that is posted.

Defect: the stamp is a hash of the question, not of the agent's contract: no
contract is frozen for the task, and the card read at start is only used for
its URL.
"""

import hashlib
import json
import sys
import uuid

import requests

CARD_PATH = "/.well-known/agent-card.json"


def ask(session: requests.Session, url: str, question: str) -> dict:
    message = {"role": "user", "messageId": uuid.uuid4().hex, "parts": [{"kind": "text", "text": question}]}
    payload = {"jsonrpc": "2.0", "id": uuid.uuid4().hex, "method": "message/send", "params": {"message": message, "metadata": {}}}
    meta = payload["params"]["metadata"]
    meta["caller"] = "forecast-cli"
    meta["terms"] = hashlib.sha256(question.encode()).hexdigest()
    return session.post(url, json=payload, timeout=30).json()  # expect: AC103


def ask_again(session: requests.Session, url: str, question: str, task_id: str) -> dict:
    message = {"role": "user", "messageId": uuid.uuid4().hex, "parts": [{"kind": "text", "text": question}]}
    payload = {"jsonrpc": "2.0", "id": uuid.uuid4().hex, "method": "message/send", "params": {"message": message, "metadata": {}}}
    payload["params"]["message"]["taskId"] = task_id
    payload["params"].setdefault("metadata", {})["terms"] = hashlib.sha256(task_id.encode()).hexdigest()
    return session.post(url, json=payload, timeout=30).json()  # expect: AC103


def main(base: str, question: str) -> int:
    with requests.Session() as session:
        card = session.get(base.rstrip("/") + CARD_PATH, timeout=10).json()
        answer = ask(session, card["url"], question)
        task = answer.get("result", {})
        if task.get("status", {}).get("state") == "input-required":
            answer = ask_again(session, card["url"], input("> "), task["id"])
        print(json.dumps(answer, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
