"""The README stays true: its rule table is the registry's."""

from pathlib import Path

from a2alint.registry import load_rules, markdown_table

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
