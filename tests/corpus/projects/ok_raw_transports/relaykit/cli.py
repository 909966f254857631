"""relay: a small ops CLI that hands work to remote A2A agents over raw JSON-RPC.

No SDK: relaykit reads the peer's ``/.well-known/agent-card.json`` with a plain
GET and posts ``message/send`` bodies itself, three ways (a ``requests`` post
of a pre-serialised body, a stdlib ``urllib`` request, and a pydantic request
model posted by a generic helper). ``relay skill`` talks to our own skill bus,
which borrowed the JSON-RPC method name but is not an A2A agent.

    python -m relaykit.cli alert https://pager.example "disk 93% on db-7"
    python -m relaykit.cli report https://ledger.example rows.json
    python -m relaykit.cli ask https://helper.example "who owns db-7?"
    python -m relaykit.cli skill normalise-hosts '{"hosts": ["db-7"]}'

Every A2A submission carries, in its message metadata, the sha256 of the
canonical JSON of the contract terms (protocol version, security schemes and
requirements) of the very document the endpoint was taken from.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from . import RpcChannel, endpoint_of, fetch_descriptor, post_alert, run_skill, submit_report, terms_digest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="relay")
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("alert", "ask"):
        cmd = sub.add_parser(name)
        cmd.add_argument("base")
        cmd.add_argument("text")
    rep = sub.add_parser("report")
    rep.add_argument("base")
    rep.add_argument("rows", type=Path)
    sk = sub.add_parser("skill")
    sk.add_argument("skill_id")
    sk.add_argument("payload")
    opts = parser.parse_args(argv)

    if opts.command == "alert":
        out = post_alert(opts.base, opts.text)
    elif opts.command == "report":
        out = submit_report(opts.base, json.loads(opts.rows.read_text()))
    elif opts.command == "ask":
        doc = fetch_descriptor(opts.base)
        channel = RpcChannel(endpoint_of(doc), terms_digest(doc))
        out = channel.ask(opts.text)
    else:
        out = run_skill(opts.skill_id, json.loads(opts.payload))
    json.dump(out, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
