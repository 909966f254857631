"""The labelled corpus written outside the team (``../shared/corpus``), scored by its own scorer.

It lives beside the repository, not in it: a clone without it skips this test. Its
cases are never copied here; what a miss teaches is a test of our own in
``tests/corpus/``. This test holds the line the corpus measured: no rule may lose a
true finding or gain a false one, and the totals stay at or above the floor.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"

#: What the corpus measured at the last change to the analysis (P 1.000, R 1.000): per code, at least
#: these true findings and at most these false ones.
FLOOR = {
    "AC101": (14, 0),
    "AC102": (5, 0),
    "AC103": (6, 0),
    "AC104": (13, 0),
    "AC105": (5, 0),
    "AC106": (5, 0),
    "AC107": (5, 0),
    "AC201": (6, 0),
    "AC202": (6, 0),
}
MIN_PRECISION, MIN_RECALL = 0.98, 0.98

ROW = re.compile(r"^(AC\d{3})\s+(\d+)\s+(\d+)\s+(\d+)$", re.MULTILINE)


def a2alint_script() -> str:
    beside = Path(sys.executable).with_name("a2alint")
    found = str(beside) if beside.exists() else shutil.which("a2alint")
    if not found:
        pytest.skip("no a2alint script installed beside this interpreter")
    return found


@pytest.mark.skipif(not (CORPUS / "score.py").is_file(), reason=f"the stranger corpus is not at {CORPUS}")
def test_the_stranger_corpus_holds_its_floor():
    scored = subprocess.run(
        [sys.executable, "score.py", "cases", a2alint_script(), "--min-p", str(MIN_PRECISION), "--min-r", str(MIN_RECALL)],
        cwd=CORPUS, capture_output=True, text=True, timeout=600,
    )
    rows = {code: (int(tp), int(fp)) for code, tp, fp, _ in ROW.findall(scored.stdout)}
    assert set(rows) == set(FLOOR), scored.stdout + scored.stderr
    for code, (least_true, most_false) in FLOOR.items():
        true, false = rows[code]
        assert true >= least_true and false <= most_false, f"{code}: tp {true} fp {false}\n{scored.stdout}"
    assert scored.returncode == 0, scored.stdout
