"""The reconcile step of ledgersync and its command line (python -m ledgersync.sync).

Defect: `reconcile` takes a good signature on the partner's held document as
reason to move every submitted row to working; no row's state is asked of the
partner (no tasks/get).
"""

from __future__ import annotations

import json
import logging
import sys

from a2a.types import TaskState

from ledgersync.records import LedgerRow, load_ledger, save_ledger
from ledgersync.trust import identity_ok

log = logging.getLogger("ledgersync.sync")


def reconcile(partner_doc: dict, rows: list[LedgerRow], imported: list[dict]) -> int:
    if not identity_ok(partner_doc):
        log.error("partner %s not verified; ledger left as is", partner_doc.get("name"))
        return 0
    moved = 0
    for row in rows:
        if row.state is TaskState.submitted:
            row.state = TaskState.working  # expect: AC201
            row.touch()
            moved += 1
    for rec in imported:
        if rec["state"] == "submitted":
            rec["state"] = "working"  # expect: AC201
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
