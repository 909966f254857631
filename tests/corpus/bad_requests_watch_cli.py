"""a2a-watch: submit a job to an A2A 0.3 agent over raw JSON-RPC and watch it (requests).

Bugs: nothing freezes the peer's contract at send; the poll loop re-reads the
card on every iteration without a validator, and cancels the running task
when the card's securitySchemes differ from the ones seen at start
(send-then-cancel, instead of comparing before sending).
"""

from __future__ import annotations

import argparse
import sys
import time
import uuid

import requests

CARD_PATH = "/.well-known/agent-card.json"
TERMINAL = ("completed", "failed", "canceled", "rejected")


def rpc(method: str, params: dict) -> dict:
    return {"jsonrpc": "2.0", "id": str(uuid.uuid4()), "method": method, "params": params}


def submit(session: requests.Session, rpc_url: str, text: str) -> str:
    body = {
        "jsonrpc": "2.0",
        "id": str(uuid.uuid4()),
        "method": "message/send",
        "params": {"message": {"role": "user", "messageId": uuid.uuid4().hex, "parts": [{"kind": "text", "text": text}]}},
    }
    reply = session.post(rpc_url, json=body, timeout=30)  # expect: AC103
    reply.raise_for_status()
    return reply.json()["result"]["id"]


def watch(session: requests.Session, base_url: str, rpc_url: str, task_id: str, first_card: dict) -> dict:
    for attempt in range(240):
        task = session.post(rpc_url, json=rpc("tasks/get", {"id": task_id}), timeout=30).json()["result"]
        print(f"[{attempt:03}] {task['status']['state']}", file=sys.stderr)
        if task["status"]["state"] in TERMINAL:
            return task
        card = session.get(base_url + CARD_PATH, timeout=10).json()  # expect: AC101, AC104
        if card.get("securitySchemes") != first_card.get("securitySchemes"):
            session.post(rpc_url, json=rpc("tasks/cancel", {"id": task_id}), timeout=30)  # expect: AC105
            raise SystemExit(f"peer changed its security schemes; cancelled {task_id}")
        time.sleep(5)
    raise SystemExit(f"{task_id} did not finish in 20 minutes")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="a2a-watch")
    parser.add_argument("base_url")
    parser.add_argument("text")
    args = parser.parse_args(argv)
    with requests.Session() as session:
        first_card = session.get(args.base_url + CARD_PATH, timeout=10).json()
        rpc_url = first_card.get("url", args.base_url)
        task_id = submit(session, rpc_url, args.text)
        task = watch(session, args.base_url, rpc_url, task_id, first_card)
    for artifact in task.get("artifacts", []):
        print("".join(part.get("text", "") for part in artifact["parts"]))
    return 0 if task["status"]["state"] == "completed" else 1


if __name__ == "__main__":
    sys.exit(main())
