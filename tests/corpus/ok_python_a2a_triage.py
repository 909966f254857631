"""Support-desk CLI: hand a ticket to the triage agent (python-a2a, synchronous).

python-a2a's A2AClient reads the agent card in its constructor, once. The
contract it advertised then (protocol version and authentication) is frozen
into the message metadata; a long-running triage is polled a bounded number
of times and cancelled when the budget runs out.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time

from python_a2a import A2AClient, Message, MessageRole, TextContent

MAX_POLLS = 40
POLL_EVERY_S = 3.0
DONE = ("completed", "failed", "canceled")


def freeze_contract(client: A2AClient) -> str:
    card = client.agent_card
    contract = {"protocolVersion": card.protocol_version, "authentication": card.authentication}
    return hashlib.sha256(json.dumps(contract, sort_keys=True, separators=(",", ":"), default=str).encode()).hexdigest()


def triage(endpoint: str, ticket: str) -> str:
    client = A2AClient(endpoint, timeout=60)
    frozen = freeze_contract(client)
    message = Message(
        content=TextContent(text=ticket),
        role=MessageRole.USER,
        metadata={"contract_digest": frozen, "source": "support-cli"},
    )
    reply = client.send_message(message)
    task_id = (reply.metadata or {}).get("task_id")
    if task_id is None:
        return reply.content.text
    for attempt in range(MAX_POLLS):
        task = client.get_task(task_id)
        if task.status.state.value in DONE:
            return task.artifacts[0]["parts"][0]["text"] if task.artifacts else task.status.state.value
        time.sleep(POLL_EVERY_S)
    client.cancel_task(task_id)  # out of budget: a retry count, not card data
    return f"triage of {task_id} did not finish after {MAX_POLLS} polls; cancelled"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="triage")
    parser.add_argument("--agent", default="http://localhost:5000")
    parser.add_argument("ticket", nargs="?", help="ticket text (default: read stdin)")
    args = parser.parse_args(argv)
    text = args.ticket or sys.stdin.read()
    if not text.strip():
        parser.error("empty ticket")
    print(triage(args.agent, text))
    return 0


if __name__ == "__main__":
    sys.exit(main())
