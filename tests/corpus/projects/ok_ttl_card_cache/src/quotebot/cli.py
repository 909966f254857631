"""quotebot CLI: reads shipments from stdin and prints a freight quote for each.

Each line is ``ORIGIN DEST WEIGHT_KG``; every line becomes a new message/send
to the pricing agent (raw JSON-RPC over httpx, sync), built by
``remote.RemoteQuoter`` from the agent's document, which it caches for
``--ttl`` seconds. Each request carries a digest of the document's contract
fields.

When the TTL runs out the document is revalidated, not re-read: the client
keeps the ETag and sends If-None-Match, and on 304 the cached document stays.
A document served without an ETag is kept for the life of the process.
"""

from __future__ import annotations

import argparse
import os
import sys

from . import DEFAULT_AGENT
from .client import PricingClient
from .remote import QuoteRefused, RemoteQuoter


def parse_line(line: str) -> dict | None:
    fields = line.split()
    if len(fields) != 3:
        return None
    origin, dest, weight = fields
    try:
        return {"origin": origin.upper(), "destination": dest.upper(), "weightKg": float(weight)}
    except ValueError:
        return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="quotebot")
    parser.add_argument("--agent", default=os.environ.get("PRICING_AGENT", DEFAULT_AGENT))
    parser.add_argument("--ttl", type=float, default=300.0, help="seconds to keep the agent's document")
    args = parser.parse_args(argv)
    api = PricingClient(args.agent, api_key=os.environ.get("PRICING_API_KEY"))
    quoter = RemoteQuoter(api, ttl=args.ttl)
    failures = 0
    try:
        for line in sys.stdin:
            shipment = parse_line(line)
            if shipment is None:
                print(f"skipped: {line.strip()!r}", file=sys.stderr)
                continue
            try:
                quote = quoter.quote(shipment)
            except QuoteRefused as exc:
                failures += 1
                print(f"{shipment['origin']}->{shipment['destination']}: {exc}", file=sys.stderr)
                continue
            print(f"{shipment['origin']}->{shipment['destination']}: {quote['currency']} {quote['amount']:.2f}")
    finally:
        api.close()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
