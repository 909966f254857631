"""Two file names that print alike stay two files, and SARIF points at the real one."""

from __future__ import annotations

import os
import sys

import pytest

from conftest import FIXABLE, UNFIXABLE

pytestmark = pytest.mark.skipif(sys.platform == "darwin", reason="macOS refuses file names that are not UTF-8")


def _make(project, raw: bytes, text: str) -> None:
    with open(os.path.join(os.fsencode(project), raw), "w", encoding="utf-8") as stream:
        stream.write(text)


def test_a_non_utf8_name_and_its_escape_spelled_out_are_two_files(project, check):
    _make(project, b"caf\xe9.py", UNFIXABLE)
    _make(project, b"caf\\xe9.py", UNFIXABLE)
    run = check("--no-cache", "--format", "json", ".")
    assert sorted(run.paths()) == ["caf\\\\xe9.py", "caf\\xe9.py"]


def test_fix_fixes_both_files_that_print_alike(project, check):
    _make(project, b"caf\xe9.py", FIXABLE)
    _make(project, b"caf\\xe9.py", FIXABLE)
    run = check("--no-cache", "--fix", "--unsafe-fixes", ".")
    assert "changed on disk" not in run.stderr, run.stderr
    for raw in (b"caf\xe9.py", b"caf\\xe9.py"):
        with open(os.path.join(os.fsencode(project), raw), encoding="utf-8") as stream:
            assert "sort_keys=True" in stream.read(), raw


def test_sarif_points_at_the_real_bytes_of_the_name(project, check):
    _make(project, b"caf\xe9.py", UNFIXABLE)
    run = check("--no-cache", "--format", "sarif", ".")
    uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run.json()["runs"][0]["results"]]
    assert uris and all(uri.endswith("caf%E9.py") for uri in uris), uris
