"""Ledger rows: the dataclass the service writes and the dicts the CSV importer writes."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone

from a2a.types import TaskState


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


@dataclass
class LedgerRow:
    remote_id: str
    partner: str
    summary: str
    state: TaskState = TaskState.submitted
    updated_at: str = field(default_factory=_now)

    def touch(self) -> None:
        self.updated_at = _now()


def imported_row(remote_id: str, partner: str, summary: str) -> dict:
    """What the CSV importer appends: same shape, plain strings."""
    return {"remote_id": remote_id, "partner": partner, "summary": summary, "state": "submitted", "updated_at": _now()}


def load_ledger(path: str) -> tuple[list[LedgerRow], list[dict]]:
    with open(path, encoding="utf-8") as fh:
        raw = json.load(fh)
    rows = [LedgerRow(**{**rec, "state": TaskState(rec["state"])}) for rec in raw.get("service", [])]
    return rows, list(raw.get("imported", []))


def save_ledger(path: str, rows: list[LedgerRow], imported: list[dict]) -> None:
    service = [{**asdict(row), "state": row.state.value} for row in rows]
    with open(path, "w", encoding="utf-8") as fh:
        json.dump({"service": service, "imported": imported}, fh, indent=2)
