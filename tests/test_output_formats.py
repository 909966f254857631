"""``--output-format json|sarif|github|gitlab|junit``, ``--statistics`` and ``--output-file``."""

from __future__ import annotations

import json
import re
import subprocess
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from a2alint import __version__
from a2alint.registry import load_rules
from conftest import FIXABLE, FIXABLE_AT, UNFIXABLE, write

SARIF_SCHEMA = Path(__file__).resolve().parents[2] / "shared" / "schemas" / "sarif-schema-2.1.0.json"
DIAGNOSTIC_KEYS = {
    "path", "line", "column", "end_line", "end_column", "code", "rule", "severity", "message", "suggestion", "fix",
    "related",
}


@pytest.fixture
def two_findings(project):
    """``pkg/b.py`` (a fixable AC107) and ``pkg/a.py`` (an AC107 without fix)."""
    write(project / "pkg" / "b.py", FIXABLE)
    write(project / "pkg" / "a.py", UNFIXABLE)
    write(project / "pkg" / "clean.py", "x = 1\n")
    return project


# --- json ---------------------------------------------------------------------------------------


def test_json_has_exactly_the_documented_shape(two_findings, check):
    run = check("--format", "json", "--select", "AC107", "pkg")
    assert run.exit_code == 1
    document = run.json()
    assert set(document) == {"tool", "version", "files", "diagnostics"}
    assert (document["tool"], document["version"], document["files"]) == ("a2alint", __version__, 3)
    for diagnostic in document["diagnostics"]:
        assert set(diagnostic) == DIAGNOSTIC_KEYS


def test_json_positions_are_1_based_and_the_fix_is_documented(two_findings, check):
    fixable, unfixable = check("--format", "json", "--select", "AC107", "pkg/b.py", "pkg/a.py").json()["diagnostics"][::-1]
    line, column = FIXABLE_AT
    assert (fixable["line"], fixable["column"], fixable["end_line"]) == (line, column, line)
    assert fixable["end_column"] == column + len("json.dumps(contract)")
    assert fixable["fix"] == {
        "applicability": "unsafe",
        "edits": [
            {
                "content": "json.dumps(contract, sort_keys=True)",
                "location": {"row": line, "column": column},
                "end_location": {"row": line, "column": column + len("json.dumps(contract)")},
            }
        ],
    }
    assert (unfixable["line"], unfixable["column"], unfixable["fix"]) == (2, 21, None)
    assert unfixable["severity"] == "error" and unfixable["rule"] == "unstable-contract-hash"
    assert unfixable["suggestion"].startswith("hash only the contract fields")


def test_json_is_sorted_by_path_line_column_code(two_findings, check):
    diagnostics = check("--format", "json", "--select", "AC107", "pkg/b.py", "pkg/a.py").json()["diagnostics"]
    assert [d["path"] for d in diagnostics] == ["pkg/a.py", "pkg/b.py"]


def test_json_paths_stay_as_given(two_findings, check):
    relative = check("--format", "json", "--select", "AC107", "pkg").json()["diagnostics"]
    assert {d["path"] for d in relative} == {"pkg/a.py", "pkg/b.py"}
    absolute = check("--format", "json", "--select", "AC107", str(two_findings / "pkg")).json()["diagnostics"]
    assert {d["path"] for d in absolute} == {str(two_findings / "pkg" / "a.py"), str(two_findings / "pkg" / "b.py")}


def test_json_without_findings(two_findings, check):
    run = check("--format", "json", "pkg/clean.py")
    assert run.exit_code == 0
    assert run.json() == {"tool": "a2alint", "version": __version__, "files": 1, "diagnostics": []}


# --- sarif --------------------------------------------------------------------------------------


def _sarif(check, *paths: str) -> dict:
    run = check("--format", "sarif", "--select", "AC107", *paths)
    assert run.exit_code == 1
    return run.json()


def sarif_schema_errors(document: dict) -> list[str]:
    """Where ``document`` breaks the SARIF 2.1.0 schema (the test skips without the schema)."""
    if not SARIF_SCHEMA.is_file():
        pytest.skip(f"the SARIF 2.1.0 schema is not at {SARIF_SCHEMA} (it is in shared/ beside the repository)")
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    validator = jsonschema.validators.validator_for(schema)(schema, format_checker=jsonschema.FormatChecker())
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(document)]


def test_sarif_validates_against_the_2_1_0_schema(two_findings, check):
    document = _sarif(check, "pkg")
    assert all(result["partialFingerprints"] for result in document["runs"][0]["results"])
    assert sarif_schema_errors(document) == []
    assert len(document["runs"][0]["results"]) == 2


def test_sarif_driver_describes_every_rule(two_findings, check):
    driver = _sarif(check, "pkg")["runs"][0]["tool"]["driver"]
    assert (driver["name"], driver["version"]) == ("a2alint", __version__)
    assert [rule["id"] for rule in driver["rules"]] == list(load_rules())
    for rule in driver["rules"]:
        assert {"id", "name", "shortDescription", "fullDescription", "help", "helpUri", "defaultConfiguration"} <= set(rule)
        assert rule["shortDescription"]["text"] and rule["fullDescription"]["text"] and rule["help"]["text"]
        assert rule["helpUri"].startswith("https://") and rule["id"] in rule["helpUri"]
        assert rule["defaultConfiguration"]["level"] in {"error", "warning"}


def test_sarif_results_have_repo_relative_uris_regions_and_fixes(two_findings, check, monkeypatch):
    subprocess.run(["git", "init", "-q", str(two_findings)], check=True)
    monkeypatch.chdir(two_findings / "pkg")  # from inside the repository, URIs are from its root
    document = _sarif(check, ".")
    rules = document["runs"][0]["tool"]["driver"]["rules"]
    results = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]: r for r in document["runs"][0]["results"]}
    assert set(results) == {"pkg/a.py", "pkg/b.py"}
    fixed = results["pkg/b.py"]
    assert rules[fixed["ruleIndex"]]["id"] == fixed["ruleId"] == "AC107"
    assert fixed["level"] == "error"
    line, column = FIXABLE_AT
    assert fixed["locations"][0]["physicalLocation"]["region"]["startLine"] == line
    assert fixed["locations"][0]["physicalLocation"]["region"]["startColumn"] == column
    (change,) = fixed["fixes"][0]["artifactChanges"]
    assert change["artifactLocation"]["uri"] == "pkg/b.py"
    assert change["replacements"][0]["insertedContent"]["text"] == "json.dumps(contract, sort_keys=True)"
    assert "fixes" not in results["pkg/a.py"]


def _baseline_fingerprints(project: Path, check) -> dict[tuple[str, int], str]:
    """``(path, line) -> fingerprint`` of the AC107 findings, as the baseline records them."""
    assert check("--write-baseline", str(project / "baseline.json"), "--select", "AC107", "pkg").exit_code == 0
    findings = json.loads((project / "baseline.json").read_text(encoding="utf-8"))["findings"]
    return {(f["path"], f["line"]): f["fingerprint"] for f in findings}


def test_sarif_results_keep_the_baseline_fingerprint_across_line_moves(two_findings, check):
    subprocess.run(["git", "init", "-q", str(two_findings)], check=True)

    def fingerprints() -> dict[tuple[str, int], str]:
        document = _sarif(check, "pkg")
        return {
            (r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], r["locations"][0]["physicalLocation"]["region"]["startLine"]):
            r["partialFingerprints"]["a2alint/v1"]
            for r in document["runs"][0]["results"]
        }

    before = fingerprints()
    assert before == _baseline_fingerprints(two_findings, check)
    write(two_findings / "pkg" / "a.py", "# a new first line\n" + UNFIXABLE)
    assert fingerprints() == {(path, line + (path == "pkg/a.py")): fingerprint for (path, line), fingerprint in before.items()}


# --- gitlab -------------------------------------------------------------------------------------


def test_gitlab_code_quality_report(two_findings, check, monkeypatch):
    subprocess.run(["git", "init", "-q", str(two_findings)], check=True)
    write(two_findings / "pkg" / "send.py", "from a2a.client import A2AClient\nasync def f(c, m):\n    return await c.send_message(m)\n")
    monkeypatch.chdir(two_findings / "pkg")  # paths are from the repository root, as GitLab reads them
    run = check("--output-format", "gitlab", "--select", "AC103,AC107", ".")
    assert run.exit_code == 1
    report = run.json()
    assert [(i["location"]["path"], i["location"]["lines"]["begin"], i["check_name"], i["severity"]) for i in report] == [
        ("pkg/a.py", 2, "AC107", "major"),
        ("pkg/b.py", FIXABLE_AT[0], "AC107", "major"),
        ("pkg/send.py", 3, "AC103", "minor"),
    ]
    for issue in report:
        assert set(issue) == {"description", "check_name", "fingerprint", "severity", "location"}
        assert issue["description"].startswith(issue["check_name"] + " ")
    assert len({issue["fingerprint"] for issue in report}) == 3


def test_gitlab_fingerprints_are_the_baselines_and_survive_line_moves(two_findings, check):
    def fingerprints() -> dict[tuple[str, int], str]:
        report = check("--output-format", "gitlab", "--select", "AC107", "pkg").json()
        return {(i["location"]["path"], i["location"]["lines"]["begin"]): i["fingerprint"] for i in report}

    before = fingerprints()
    assert before == _baseline_fingerprints(two_findings, check)
    assert fingerprints() == before  # and again from the cache
    write(two_findings / "pkg" / "b.py", "\n\n" + FIXABLE)
    assert fingerprints() == {(path, line + 2 * (path == "pkg/b.py")): fingerprint for (path, line), fingerprint in before.items()}


def test_gitlab_without_findings_is_an_empty_list(two_findings, check):
    run = check("--output-format", "gitlab", "pkg/clean.py")
    assert (run.exit_code, run.json()) == (0, [])


# --- junit --------------------------------------------------------------------------------------


def _junit(check, *args: str) -> ElementTree.Element:
    return ElementTree.fromstring(check("--output-format", "junit", *args).stdout)


def test_junit_has_a_test_case_per_checked_file_and_a_failure_per_finding(two_findings, check):
    write(two_findings / "pkg" / "twice.py", UNFIXABLE + "def g(card): return hash(card.model_dump_json())\n")
    root = _junit(check, "--select", "AC107", "pkg")
    (suite,) = root.iter("testsuite")
    assert (suite.get("name"), suite.get("tests"), suite.get("failures")) == ("a2alint", "4", "3")
    cases = {case.get("name"): case for case in suite.iter("testcase")}
    assert set(cases) == {"pkg/a.py", "pkg/b.py", "pkg/clean.py", "pkg/twice.py"}
    assert {case.get("classname") for case in cases.values()} == {"a2alint"}
    assert list(cases["pkg/clean.py"]) == []  # a file without findings passes
    assert [f.get("type") for f in cases["pkg/twice.py"].iter("failure")] == ["AC107", "AC107"]
    (failure,) = cases["pkg/a.py"].iter("failure")
    assert failure.get("message").startswith("built-in hash()")
    assert failure.text.startswith("pkg/a.py:2:21: AC107 built-in hash()") and "\n  help: " in failure.text


def test_junit_without_findings_passes_every_file(two_findings, check):
    run = check("--output-format", "junit", "pkg/clean.py")
    assert run.exit_code == 0
    (case,) = ElementTree.fromstring(run.stdout).iter("testcase")
    assert case.get("name") == "pkg/clean.py" and list(case) == []


def test_junit_stays_xml_whatever_a_file_name_holds(project, check):
    write(project / "odd\x1b\x01<&>.py", UNFIXABLE)
    (case,) = _junit(check, "--select", "AC107", ".").iter("testcase")
    assert case.get("name") == "odd\u241b\u2401<&>.py"


# --- github -------------------------------------------------------------------------------------

GITHUB_LINE = re.compile(
    r"^::(?P<level>error|warning) file=(?P<file>[^,]+),line=(?P<line>\d+),col=(?P<col>\d+),"
    r"endLine=(?P<end_line>\d+),endColumn=(?P<end_col>\d+),title=(?P<title>[A-Z]+\d+)::(?P<message>.+)$"
)


def test_github_annotations_one_line_per_finding(two_findings, check):
    run = check("--format", "github", "--select", "AC107", "pkg")
    assert run.exit_code == 1
    matches = [GITHUB_LINE.match(line) for line in run.stdout.splitlines()]
    assert all(matches) and len(matches) == 2
    first, second = (m.groupdict() for m in matches)
    assert (first["level"], first["file"], first["line"], first["col"], first["title"]) == ("error", "pkg/a.py", "2", "21", "AC107")
    assert (second["file"], second["line"], second["col"]) == ("pkg/b.py", *map(str, FIXABLE_AT))
    assert "built-in hash()" in first["message"]


def test_github_warning_level_rules_are_warnings(project, check):
    write(project / "n.py", "import a2a\nx = 1  # noqa: AC107\n")
    (line,) = check("--format", "github", "--report-unused-noqa", "n.py").stdout.splitlines()
    assert GITHUB_LINE.match(line).group("level", "title") == ("warning", "AC001")


def test_github_escapes_newlines_and_property_separators(project, check):
    write(project / "a,b:c.py", UNFIXABLE)
    (line,) = check("--format", "github", "--select", "AC107", "a,b:c.py").stdout.splitlines()
    assert line.startswith("::error file=a%2Cb%3Ac.py,line=2,")


# --- statistics and the output file ------------------------------------------------------------


def test_statistics_text_counts_per_code(two_findings, check):
    run = check("--statistics", "--select", "AC107", "pkg")
    assert run.exit_code == 1
    assert run.stdout.splitlines() == [
        "    2\tAC107\tunstable-contract-hash",
        "Found 2 findings in 3 files checked.",
        "No fixes available (1 hidden fix can be enabled with the --unsafe-fixes option).",
    ]


def test_statistics_json(two_findings, check):
    run = check("--statistics", "--format", "json", "--select", "AC107", "pkg")
    assert run.json() == [{"code": "AC107", "name": "unstable-contract-hash", "count": 2, "fixable": False}]
    run = check("--statistics", "--format", "json", "--select", "AC107", "--unsafe-fixes", "pkg")
    assert run.json() == [{"code": "AC107", "name": "unstable-contract-hash", "count": 2, "fixable": True}]


@pytest.mark.parametrize("output_format", ["concise", "full"])
def test_statistics_in_every_text_style_are_the_texts(two_findings, check, output_format):
    run = check("--statistics", "--output-format", output_format, "--select", "AC107", "pkg")
    assert run.exit_code == 1
    assert run.stdout == check("--statistics", "--select", "AC107", "pkg").stdout


@pytest.mark.parametrize("output_format", ["sarif", "github", "gitlab", "junit"])
def test_statistics_in_a_report_format_is_refused(two_findings, check, output_format):
    run = check("--statistics", "--output-format", output_format, "pkg")
    assert run.exit_code == 2 and "--statistics" in run.stderr and output_format in run.stderr
    assert run.stdout == ""


@pytest.mark.parametrize("output_format", ["text", "concise", "full", "json", "sarif", "github", "gitlab", "junit"])
def test_output_file_receives_the_report_instead_of_stdout(two_findings, check, output_format):
    run = check("--format", output_format, "--select", "AC107", "-o", "reports/out.txt", "pkg")
    assert run.exit_code == 1
    assert run.stdout == ""
    assert "pkg/a.py" in (two_findings / "reports" / "out.txt").read_text(encoding="utf-8")


def test_output_file_that_cannot_be_written_is_exit_2(two_findings, check):
    write(two_findings / "taken", "a file, not a folder")
    run = check("-o", "taken/out.txt", "pkg")
    assert run.exit_code == 2
    assert "taken/out.txt" in run.stderr
