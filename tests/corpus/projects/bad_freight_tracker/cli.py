"""freight-track book TEXT: books a shipment with the partner's agent and prints the final
state of the booking (exit 1 unless completed)."""

import sys
import uuid

import requests

from tracker import follow, partner_root


def book(root: str, text: str) -> str:
    message = {"messageId": uuid.uuid4().hex, "role": "ROLE_USER", "parts": [{"text": text}]}
    return requests.post(f"{root}/message:send", json={"message": message}, timeout=30).json()["task"]["id"]


def main(argv: list[str]) -> int:
    root = partner_root()
    state = follow(book(root, argv[1]))
    print(state)
    return 0 if state == "TASK_STATE_COMPLETED" else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
