"""The README stays true: its rule table is the registry's, its sample output what the examples print."""

import io
import re
from pathlib import Path

from a2alint.registry import load_rules, markdown_table
from a2alint.reporters import write_text
from a2alint.runner import lint_source

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_rule_table_matches_registry():
    text = README.read_text(encoding="utf-8")
    table = text.split("<!-- rules:start -->\n", 1)[1].split("<!-- rules:end -->", 1)[0]
    assert table == markdown_table(load_rules())


def test_readme_shows_both_setup_commands():
    text = README.read_text(encoding="utf-8")
    assert "pip install . && a2alint check examples/" in text
    assert "pip install '.[test]' && python -m pytest" in text
    ci = (README.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert "pip install '.[test]' && python -m pytest" in ci


def test_readme_sample_output_is_what_checking_the_examples_prints():
    """Each finding the README shows (its line, help and notes) is printed exactly so."""
    text = README.read_text(encoding="utf-8")
    sample = text.split("Part of what the first command prints:", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    blocks = re.split(r"\n(?=examples/)", sample.strip())
    assert len(blocks) >= 2
    for block in blocks:
        path = block.split(":", 1)[0]
        output = io.StringIO()
        diagnostics = lint_source((README.parent / path).read_text(encoding="utf-8"), path=path).diagnostics
        write_text(diagnostics, output, files=1, quiet=True, color="never")
        assert block in re.split(r"\n(?=examples/)", output.getvalue().strip())
