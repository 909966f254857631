"""ledgersync: nightly job that reconciles the delegation ledger with a partner agent.

Each ledger row stands for a piece of work delegated to the partner over A2A
(its `remote_id` is the id the partner gave it). Run with
`python -m ledgersync.sync LEDGER.json PARTNER_DOC.json`.

The signature of the partner's held agent document is checked first, as an
identity check only: the state written back to each row, dataclass rows and
the CSV importer's dict rows alike, is what the partner's own `tasks/get`
answers for it.
"""

from ledgersync.records import LedgerRow, load_ledger, save_ledger
from ledgersync.trust import identity_ok

__all__ = ["LedgerRow", "identity_ok", "load_ledger", "save_ledger"]
