"""A file's line endings change nothing a2alint reports: every corpus file that holds an
``AC107`` and every ``bad_`` project (whose findings rest on what other modules do),
written with CRLF and with CR-only line endings, has the findings (code, file, line) of
its LF copy. Python reads all three alike; so must the scans of a file's bytes that run
before it is parsed (its imports, the names it defines, a skip-file comment): a CR-only
module's imports were not seen, and a finding that rests on the module it imports was
lost (issue 28)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from test_corpus_projects import check

CORPUS = Path(__file__).parent / "corpus"


def _holds_ac107(paths) -> bool:
    return any("expect: AC107" in p.read_text(encoding="utf-8") for p in paths)


FILES = [p for p in sorted(CORPUS.glob("bad_*.py")) if _holds_ac107([p])]
PROJECTS = sorted(p for p in (CORPUS / "projects").glob("bad_*") if p.is_dir())


def _copy(case: Path, folder: Path, ending: bytes) -> Path:
    """``case`` (a file or a project folder) copied into ``folder`` with ``ending`` ending every line."""
    if case.is_dir():
        shutil.copytree(case, folder)
    else:
        folder.mkdir()
        shutil.copy(case, folder / case.name)
    for path in folder.rglob("*.py"):
        path.write_bytes(path.read_bytes().replace(b"\r\n", b"\n").replace(b"\n", ending))
    return folder


def _findings(folder: Path) -> list[tuple[str, str, int]]:
    return sorted((d["path"], d["code"], d["line"]) for d in check(folder)["diagnostics"])


def test_there_are_cases():
    assert len(FILES) >= 3 and sum(_holds_ac107(p.rglob("*.py")) for p in PROJECTS) >= 3


@pytest.mark.parametrize("case", FILES + PROJECTS, ids=[p.name for p in FILES + PROJECTS])
def test_crlf_and_cr_copies_report_what_the_lf_copy_does(case: Path, tmp_path: Path):
    expected = _findings(_copy(case, tmp_path / "lf", b"\n"))
    assert expected
    assert _findings(_copy(case, tmp_path / "crlf", b"\r\n")) == expected
    assert _findings(_copy(case, tmp_path / "cr", b"\r")) == expected


@pytest.mark.parametrize("ending", [b"\n", b"\r\n", b"\r"], ids=["lf", "crlf", "cr"])
def test_a_skip_file_comment_below_the_first_line_skips_the_file(ending: bytes, tmp_path: Path):
    folder = _copy(FILES[0], tmp_path / "case", ending)
    path = folder / FILES[0].name
    path.write_bytes(b'"""A module."""' + ending + b"# a2alint: skip-file" + ending + path.read_bytes())
    assert _findings(folder) == []
