"""a2a-pipe: a small command-line A2A client built on hand-rolled JSON-RPC and REST plumbing.

Usage:
  python client.py ask BASE_URL "text"      message/send through the JSON-RPC transport
  python client.py stream BASE_URL "text"   POST /message:stream on the peer's REST binding
  python client.py quick BASE_URL "text"    one-shot message/send without the transport

Every submission carries the fingerprint of the peer's contract terms, taken from
the document it is sent with; the transport refuses a submission without one.
"""

from __future__ import annotations

import json
import sys
import uuid
from urllib.parse import urljoin

import requests

from methods import audit
from terms import PIN_KEY, WELL_KNOWN, bearer, fetch_doc, fingerprint, rest_base
from transport import JsonRpcTransport


def _text(text: str, rest: bool = False) -> dict:
    if rest:
        return {"messageId": uuid.uuid4().hex, "role": "ROLE_USER", "parts": [{"text": text}]}
    return {"kind": "message", "role": "user", "messageId": uuid.uuid4().hex, "parts": [{"kind": "text", "text": text}]}


def ask(base: str, text: str) -> dict:
    peer = fetch_doc(base)
    pin = fingerprint(peer)
    rpc = JsonRpcTransport(peer["url"], bearer(peer))
    try:
        return rpc.call("message/send", {"message": _text(text), "metadata": {PIN_KEY: pin}})
    finally:
        rpc.close()


def stream(base: str, text: str):
    peer = fetch_doc(base)
    pin = fingerprint(peer)
    url = urljoin(rest_base(peer) or base, "/message:stream")
    body = {"message": _text(text, rest=True), "metadata": {PIN_KEY: pin}}
    audit(body)
    headers = {"Accept": "text/event-stream", "A2A-Version": "1.0", **bearer(peer)}
    with requests.post(url, json=body, headers=headers, stream=True, timeout=300) as resp:
        resp.raise_for_status()
        for line in resp.iter_lines(decode_unicode=True):
            if line and line.startswith("data:"):
                yield json.loads(line[len("data:"):])


def quick(base: str, text: str) -> dict:
    resp = requests.get(urljoin(base, WELL_KNOWN), timeout=10)
    resp.raise_for_status()
    peer_info = resp.json()
    pin = fingerprint(peer_info)
    body = {"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": {"message": _text(text), "metadata": {PIN_KEY: pin}}}
    resp = requests.post(peer_info["url"], json=body, headers=bearer(peer_info), timeout=60)
    resp.raise_for_status()
    return resp.json()["result"]


def main(argv: list[str]) -> int:
    if len(argv) != 4 or argv[1] not in {"ask", "stream", "quick"}:
        print(__doc__, file=sys.stderr)
        return 2
    command, base, text = argv[1:]
    if command == "stream":
        for event in stream(base, text):
            print(json.dumps(event))
    else:
        print(json.dumps(ask(base, text) if command == "ask" else quick(base, text), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
