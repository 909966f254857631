"""ledgersync: nightly job that reconciles the delegation ledger with a partner agent.

Each ledger row stands for a piece of work delegated to the partner over A2A
(its `remote_id` is the id the partner gave it). Run with
`python -m ledgersync.sync LEDGER.json PARTNER_DOC.json`.

Defect (ledgersync/sync.py, `reconcile`): after checking the signature of the
partner's held agent document, the job moves every `submitted` row, the
LedgerRow dataclass rows and the plain dict rows of the CSV importer alike,
to `working`, without asking the partner about any of them. A valid signature
says who the partner is, not what it is doing with a given piece of work.
"""

from ledgersync.records import LedgerRow, load_ledger, save_ledger
from ledgersync.trust import identity_ok

__all__ = ["LedgerRow", "identity_ok", "load_ledger", "save_ledger"]
