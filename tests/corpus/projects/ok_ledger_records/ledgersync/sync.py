"""The reconcile step of ledgersync and its command line (python -m ledgersync.sync).

The signature check only establishes who the partner is; each row's state is
what the partner's tasks/get answers for it.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import uuid

import requests
from a2a.types import TaskState

from ledgersync.records import LedgerRow, load_ledger, save_ledger
from ledgersync.trust import identity_ok

log = logging.getLogger("ledgersync.sync")


def _status_of(endpoint: str, remote_id: str) -> str:
    body = {"jsonrpc": "2.0", "id": uuid.uuid4().hex, "method": "tasks/get", "params": {"id": remote_id, "historyLength": 0}}
    token = os.environ.get("PARTNER_TOKEN")
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    reply = requests.post(endpoint, json=body, headers=headers, timeout=15).json()
    if reply.get("error"):
        raise RuntimeError(f"tasks/get {remote_id}: {reply['error'].get('message')}")
    return reply["result"]["status"]["state"]


def reconcile(partner_doc: dict, rows: list[LedgerRow], imported: list[dict]) -> int:
    if not identity_ok(partner_doc):
        log.error("partner %s not verified; ledger left as is", partner_doc.get("name"))
        return 0
    endpoint = partner_doc["url"]
    moved = 0
    for row in rows:
        observed = TaskState(_status_of(endpoint, row.remote_id))
        if observed is not row.state:
            row.state = observed
            row.touch()
            moved += 1
    for rec in imported:
        observed = _status_of(endpoint, rec["remote_id"])
        if observed != rec["state"]:
            rec["state"] = observed
            moved += 1
    return moved


def main(argv: list[str]) -> int:
    logging.basicConfig(level=logging.INFO)
    ledger_path, doc_path = argv[1], argv[2]
    with open(doc_path, encoding="utf-8") as fh:
        partner_doc = json.load(fh)
    rows, imported = load_ledger(ledger_path)
    moved = reconcile(partner_doc, rows, imported)
    save_ledger(ledger_path, rows, imported)
    log.info("%d ledger rows moved on", moved)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
