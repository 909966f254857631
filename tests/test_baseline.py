"""``--write-baseline`` and ``--baseline``: adopting a2alint on code that already has findings."""

from __future__ import annotations

import json

import pytest

from conftest import FIXABLE, UNFIXABLE, write

#: Two AC107 findings (lines 2 and 3) that differ only in their function's name.
LEGACY = UNFIXABLE + "def g(card): return hash(card.model_dump_json())\n"
NEW = "def h(card): return hash(card.model_dump_json())\n"


@pytest.fixture
def legacy(project, check):
    """A project with two recorded findings in ``pkg/legacy.py`` (baseline: ``baseline.json``)."""
    path = write(project / "pkg" / "legacy.py", LEGACY)
    run = check("--write-baseline", "baseline.json", ".")
    assert (run.exit_code, run.stdout) == (0, "Recorded 2 findings in baseline.json.\n")
    return path


def _found(check, *args: str) -> tuple[int, list[tuple[str, int]], str]:
    run = check("--format", "json", "--select", "AC107", *args)
    return run.exit_code, [(d["path"], d["line"]) for d in run.json()["diagnostics"]], run.stderr


def test_write_baseline_records_each_finding_by_path_code_and_fingerprint(project, legacy):
    document = json.loads((project / "baseline.json").read_text())
    assert document["version"] == 1
    assert [(f["path"], f["code"], f["line"]) for f in document["findings"]] == [("pkg/legacy.py", "AC107", 2), ("pkg/legacy.py", "AC107", 3)]
    assert len({f["fingerprint"] for f in document["findings"]}) == 2


def test_recorded_findings_are_hidden_and_the_run_passes(check, legacy):
    assert _found(check, "--baseline", "baseline.json", ".") == (0, [], "a2alint: 2 findings hidden by the baseline baseline.json\n")
    assert check("-q", "--baseline", "baseline.json", ".").stderr == ""


@pytest.mark.parametrize(
    "edit",
    [
        lambda text: "# a new first line\n\n\nimport os\n" + text,  # lines inserted above
        lambda text: text.replace("\ndef ", "\nif True:\n    def "),  # re-indented
        lambda text: text.replace("\n", "\r\n"),  # line endings
        lambda text: text + "\n\nx = 1\n",  # lines added below
    ],
)
def test_unrelated_edits_keep_recorded_findings_hidden(check, legacy, edit):
    legacy.write_text(edit(LEGACY))
    assert _found(check, "--baseline", "baseline.json", ".")[:2] == (0, [])


def test_a_new_finding_still_fails_the_run(check, legacy):
    legacy.write_text("# moved down\n" + LEGACY + NEW)
    assert _found(check, "--baseline", "baseline.json", ".")[:2] == (1, [("pkg/legacy.py", 5)])


def test_one_more_copy_of_a_recorded_line_is_a_new_finding(check, legacy):
    legacy.write_text(LEGACY + "def g(card): return hash(card.model_dump_json())\n")
    code, found, _ = _found(check, "--baseline", "baseline.json", ".")
    assert code == 1 and len(found) == 1


def test_changing_the_flagged_code_shows_the_finding_again(check, legacy):
    legacy.write_text(LEGACY.replace("def g(card): return hash(card.model_dump_json())", "def g(card): return hash(card.model_dump())"))
    assert _found(check, "--baseline", "baseline.json", ".")[:2] == (1, [("pkg/legacy.py", 3)])


def test_the_same_code_in_another_file_is_not_hidden(check, legacy, project):
    write(project / "pkg" / "copy.py", LEGACY)
    assert _found(check, "--baseline", "baseline.json", ".")[:2] == (1, [("pkg/copy.py", 2), ("pkg/copy.py", 3)])


def test_the_baseline_works_from_any_folder_and_path_spelling(check, legacy, project, monkeypatch):
    assert _found(check, "--baseline", "baseline.json", "./pkg/legacy.py")[:2] == (0, [])
    assert _found(check, "--baseline", str(project / "baseline.json"), str(project / "pkg"))[:2] == (0, [])
    monkeypatch.chdir(project / "pkg")
    assert _found(check, "--baseline", "../baseline.json", ".")[:2] == (0, [])


def test_unparsable_files_can_be_recorded_too(project, check):
    write(project / "old.py", "import a2a\nprint 'python 2'\n")
    assert check("--write-baseline", "b.json", ".").exit_code == 0
    assert check("--baseline", "b.json", ".").exit_code == 0


def test_reports_and_statistics_leave_hidden_findings_out(project, check, legacy):
    write(project / "new.py", UNFIXABLE)
    for output_format in ("json", "sarif", "github"):
        run = check("--format", output_format, "--baseline", "baseline.json", ".")
        assert run.exit_code == 1 and "legacy.py" not in run.stdout and "new.py" in run.stdout
    run = check("--statistics", "--baseline", "baseline.json", ".")
    assert run.stdout.split()[0] == "1"


def test_fixes_apply_with_a_baseline_and_the_rest_stays_hidden(project, check, legacy):
    fixable = write(project / "fixable.py", FIXABLE)
    assert check("--fix", "--unsafe-fixes", "--baseline", "baseline.json", ".").exit_code == 0
    assert "sort_keys=True" in fixable.read_text()


@pytest.mark.parametrize(
    "content, message",
    [
        (None, "baseline missing.json: no such file (write one with --write-baseline missing.json)"),
        ("{not json", "baseline missing.json: not JSON"),
        ('{"version": 99, "findings": []}', "not an a2alint baseline"),
        ('["a list"]', "not an a2alint baseline"),
        ('{"version": 1, "findings": [{"path": "a.py"}]}', "each needs path, code and fingerprint"),
        ('{"version": 1, "findings": [17]}', "each needs path, code and fingerprint"),
    ],
)
def test_a_missing_or_malformed_baseline_is_exit_2(project, check, content, message):
    write(project / "bad.py", UNFIXABLE)
    if content is not None:
        write(project / "missing.json", content)
    run = check("--baseline", "missing.json", ".")
    assert run.exit_code == 2
    assert run.stderr.startswith("a2alint: error: ") and message in run.stderr
    assert run.stdout == ""


def test_write_baseline_with_fix_is_a_usage_error(project, check):
    write(project / "bad.py", UNFIXABLE)
    run = check("--fix", "--unsafe-fixes", "--write-baseline", "b.json", ".")
    assert run.exit_code == 2 and "--write-baseline" in run.stderr
    assert not (project / "b.json").exists()


def test_rewriting_the_baseline_drops_fixed_findings(project, check, legacy):
    legacy.write_text(UNFIXABLE)
    assert check("--write-baseline", "baseline.json", ".").stdout == "Recorded 1 finding in baseline.json.\n"
    assert len(json.loads((project / "baseline.json").read_text())["findings"]) == 1
