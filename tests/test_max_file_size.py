"""The size limit is about what a2alint must parse: a large file that cannot matter is
skipped (read in bounded chunks, never whole); one that may hold A2A code is AC000, and
``max-file-size`` moves the limit."""

from __future__ import annotations

from conftest import UNFIXABLE, write

#: A generated table well over the default limit of 1 MiB.
TABLE = "ROWS = [\n" + "    (1, 'a row of a generated table'),\n" * 40_000 + "]\n"


def _codes(run) -> list[str]:
    return sorted(run.codes())


def test_a_large_file_that_cannot_matter_is_skipped(project, check):
    write(project / "table.py", TABLE)
    assert len(TABLE) > 1024 * 1024
    run = check("--no-cache", "--format", "json", "table.py")
    assert (run.exit_code, _codes(run)) == (0, []), run.stderr


def test_a_large_file_that_names_a2a_past_its_first_mebibyte_is_ac000(project, check):
    write(project / "late.py", TABLE + "from a2a.client import A2ACardResolver\n")
    run = check("--no-cache", "--format", "json", "late.py")
    assert (run.exit_code, _codes(run)) == (1, ["AC000"])
    assert "max-file-size" in run.json()["diagnostics"][0]["message"]


def test_max_file_size_lets_a_larger_a2a_file_be_checked(project, check):
    write(project / "big.py", UNFIXABLE + TABLE)
    assert _codes(check("--no-cache", "--format", "json", "big.py")) == ["AC000"]
    write(project / "a2alint.toml", "max-file-size = 4194304\n")
    assert _codes(check("--no-cache", "--format", "json", "big.py")) == ["AC107"]


def test_a_small_limit_refuses_what_it_must(project, check):
    write(project / "a2alint.toml", "max-file-size = 20\n")
    write(project / "bad.py", UNFIXABLE)
    run = check("--no-cache", "--format", "json", "bad.py")
    assert _codes(run) == ["AC000"] and "more than 20 bytes" in run.json()["diagnostics"][0]["message"]


def test_a_bad_max_file_size_is_exit_2_naming_the_key(project, check):
    write(project / "a2alint.toml", 'max-file-size = "big"\n')
    write(project / "bad.py", UNFIXABLE)
    run = check("bad.py")
    assert run.exit_code == 2 and "max-file-size" in run.stderr and "a2alint.toml" in run.stderr
