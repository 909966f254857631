"""``a2alint rule``: aligned, and showing when a rule runs as the README does."""

from __future__ import annotations

import pytest



def test_rule_all_shows_when_a_rule_runs_as_the_readme_does(a2alint):
    lines = a2alint("rule", "--all").stdout.splitlines()
    (unused,) = [line for line in lines if line.startswith("AC001")]
    assert [column.strip() for column in unused.split("  ") if column][:3] == ["AC001", "unused-noqa", "warning, opt-in"]


def test_rule_all_aligns_every_column_of_every_row(a2alint, plugin_rule):
    """Rows of every kind (opt-in, preview, plain) start each column at the same place."""
    lines = a2alint("rule", "--all").stdout.splitlines()
    rows = a2alint("rule", "--all", "--format", "json").json()
    assert len(lines) == len(rows) and {"warning, preview", "warning, opt-in", "error"} <= {
        row["severity"] + ", preview" * row["preview"] + ", opt-in" * row["opt_in"] for row in rows
    }
    starts = set()
    for line, row in zip(lines, rows):
        name = line.index(row["name"], len(row["code"]))
        severity = line.index(row["severity"], name + len(row["name"]))
        summary = line.index(row["summary"], severity)
        starts.add((name, severity, summary))
        assert line.endswith(row["summary"])
    assert len(starts) == 1, starts
