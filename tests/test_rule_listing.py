"""``a2alint rule`` and ``--version``: aligned, as the README shows them, and without the engine."""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import UNFIXABLE, write
from a2alint.registry import load_rules, pages_in_source, rule_pages


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


def test_the_rule_pages_say_what_the_rule_classes_say():
    """The pages are read from the rule modules' source: they must not drift from the classes."""
    pages, classes = rule_pages(), load_rules()
    assert list(pages) == list(classes)
    for code, rule in classes.items():
        page = pages[code]
        assert (page.name, page.severity, page.preview, page.opt_in) == (rule.name, rule.severity, rule.preview, rule.opt_in)
        assert (page.summary(), page.documentation()) == (rule.summary(), rule.documentation())


@pytest.mark.parametrize(
    "source",
    ["class R(Rule):\n    code = 'AC9' + '99'\n    name = 'r'\n", "class R(BaseRule):\n    code = 'AC999'\n    name = 'r'\n"],
)
def test_a_rule_module_that_only_its_classes_can_describe_is_imported(source):
    assert pages_in_source(source) is None


PROBE = """
import sys
from a2alint.cli import main
try:
    main(sys.argv[1:], prog_name="a2alint")
except SystemExit as leaving:
    code = leaving.code
print("libcst" in sys.modules, code, file=sys.stderr)
"""


@pytest.mark.parametrize(
    "command, engine",
    [
        (["--version"], False),
        (["rule", "AC101"], False),
        (["rule", "--all"], False),
        (["rule", "--all", "--format", "json"], False),
        (["check", "p.py"], True),  # the probe sees libcst when it is imported
    ],
)
def test_version_and_rule_answer_without_importing_libcst(tmp_path, command, engine):
    write(tmp_path / "p.py", UNFIXABLE)
    done = subprocess.run([sys.executable, "-c", PROBE, *command], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.stdout
    assert done.stderr.splitlines()[-1] == f"{engine} {1 if engine else 0}"
