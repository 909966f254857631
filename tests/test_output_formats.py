"""Every ``--output-format``, the ``output-format`` setting, ``--statistics`` and
``--output-file``. The reports are validated against the published formats kept in
``tests/data`` (see its README): the SARIF 2.1.0 schema, a JUnit XSD and GitLab's Code
Quality fields."""

from __future__ import annotations

import json
import re
import subprocess
import textwrap
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import jsonschema
import pytest
import xmlschema

from a2alint import __version__
from a2alint.registry import load_rules
from a2alint.reporters import FORMATS
from conftest import FIXABLE, FIXABLE_AT, UNFIXABLE, write

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
SARIF_SCHEMA = DATA / "sarif-schema-2.1.0.json"
JUNIT_XSD = DATA / "junit-10.xsd"
GITLAB_FIELDS = DATA / "gitlab-code-quality.json"
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


def schema_errors(document, schema_file: Path) -> list[str]:
    """Where ``document`` breaks the JSON schema in ``schema_file``."""
    schema = json.loads(schema_file.read_text(encoding="utf-8"))
    validator = jsonschema.validators.validator_for(schema)(schema, format_checker=jsonschema.FormatChecker())
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(document)]


def sarif_schema_errors(document: dict) -> list[str]:
    """Where ``document`` breaks the SARIF 2.1.0 schema."""
    return schema_errors(document, SARIF_SCHEMA)


def test_the_vendored_sarif_schema_is_the_published_one():
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    assert schema["title"] == "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema"
    assert schema["$id"].startswith("https://raw.githubusercontent.com/oasis-tcs/sarif-spec/")
    assert schema["properties"]["version"]["enum"] == ["2.1.0"]


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
    assert schema_errors(report, GITLAB_FIELDS) == []


def test_the_gitlab_field_list_refuses_what_gitlab_would_not_read():
    issue = {"description": "d", "check_name": "AC101", "fingerprint": "f", "severity": "major",
             "location": {"path": "pkg/a.py", "lines": {"begin": 1}}}
    assert schema_errors([issue], GITLAB_FIELDS) == []
    assert schema_errors([{**issue, "severity": "error"}], GITLAB_FIELDS)
    assert schema_errors([{**issue, "location": {"path": "/abs/a.py", "lines": {"begin": 1}}}], GITLAB_FIELDS)
    assert schema_errors([{key: value for key, value in issue.items() if key != "fingerprint"}], GITLAB_FIELDS)


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
    report = check("--output-format", "junit", *args).stdout
    xmlschema.XMLSchema(JUNIT_XSD).validate(report)  # raises, naming what breaks the XSD
    return ElementTree.fromstring(report)


def test_junit_has_a_test_case_per_finding_in_a_test_suite_per_file(two_findings, check):
    """As ruff writes it: CI that shows one failure per test case (Jenkins, CircleCI,
    Azure DevOps) then shows every finding, not the first of each file."""
    write(two_findings / "pkg" / "twice.py", UNFIXABLE + "def g(card): return hash(card.model_dump_json())\n")
    root = _junit(check, "--select", "AC107", "pkg")
    assert (root.get("name"), root.get("tests"), root.get("failures")) == ("a2alint", "5", "4")
    suites = {suite.get("name"): suite for suite in root.iter("testsuite")}
    assert list(suites) == ["pkg/a.py", "pkg/b.py", "pkg/clean.py", "pkg/twice.py"]
    twice = suites["pkg/twice.py"]
    assert (twice.get("tests"), twice.get("failures"), twice.get("package")) == ("2", "2", "org.a2alint")
    cases = list(twice.iter("testcase"))
    assert [(c.get("name"), c.get("classname"), c.get("line")) for c in cases] == [
        ("org.a2alint.AC107", "pkg/twice.py", "2"), ("org.a2alint.AC107", "pkg/twice.py", "3"),
    ]
    assert [len(list(case.iter("failure"))) for case in cases] == [1, 1]
    (failure,) = suites["pkg/a.py"].iter("failure")
    assert (failure.get("type"), failure.get("message")[:15]) == ("AC107", "built-in hash()")
    assert failure.text.startswith("pkg/a.py:2:21: AC107 built-in hash()") and "\n  help: " in failure.text


def test_junit_keeps_a_passing_test_case_for_a_file_without_findings(two_findings, check):
    run = check("--output-format", "junit", "pkg/clean.py")
    assert run.exit_code == 0
    (suite,) = _junit(check, "pkg/clean.py").iter("testsuite")
    (case,) = suite.iter("testcase")
    assert (suite.get("tests"), suite.get("failures")) == ("1", "0")
    assert (case.get("name"), case.get("classname"), list(case)) == ("org.a2alint.passed", "pkg/clean.py", [])


def test_junit_stays_xml_whatever_a_file_name_holds(project, check):
    write(project / "odd\x1b\x01<&>.py", UNFIXABLE)
    (case,) = _junit(check, "--select", "AC107", ".").iter("testcase")
    assert case.get("classname") == "odd\u241b\u2401<&>.py"


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


def test_github_paths_are_from_the_workspace_root_on_actions(two_findings, check, monkeypatch):
    """GitHub resolves an annotation's file from the repository's root (GITHUB_WORKSPACE),
    as code scanning and GitLab do theirs: a run from a subfolder still lands on the line."""
    monkeypatch.chdir(two_findings / "pkg")
    assert GITHUB_LINE.match(check("--format", "github", "--select", "AC107", "a.py").stdout)["file"] == "a.py"
    monkeypatch.setenv("GITHUB_WORKSPACE", str(two_findings))
    lines = check("--format", "github", "--select", "AC107", ".").stdout.splitlines()
    assert [GITHUB_LINE.match(line)["file"] for line in lines] == ["pkg/a.py", "pkg/b.py"]
    named = check("--format", "github", "--select", "AC107", str(two_findings / "pkg" / "a.py")).stdout
    assert GITHUB_LINE.match(named)["file"] == "pkg/a.py"


def _readme_sample(item: str) -> str:
    """The ``text`` block under the README's output format ``item``."""
    text = (ROOT / "README.md").read_text(encoding="utf-8").split(f"- `{item}`:", 1)[1]
    return text.split("```text\n", 1)[1].split("```", 1)[0]


def test_the_readme_shows_an_error_and_a_warning_annotation_as_printed(check, monkeypatch):
    shown = [line.strip() for line in _readme_sample("github").splitlines() if line.strip()]
    assert [GITHUB_LINE.match(line)["level"] for line in shown] == ["error", "warning"]
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("GITHUB_WORKSPACE", str(ROOT))
    printed = check("--no-cache", "--output-format", "github", "--select", "AC106,AC107", "examples/contract_digest.py", "examples/router.py")
    assert set(shown) <= set(printed.stdout.splitlines())


def test_the_readme_grouped_sample_is_what_grouped_prints(check, monkeypatch):
    monkeypatch.chdir(ROOT)
    printed = check("--no-cache", "--output-format", "grouped", "examples/contract_digest.py").stdout
    assert printed.startswith(textwrap.dedent(_readme_sample("grouped")))


def test_github_escapes_newlines_and_property_separators(project, check):
    write(project / "a,b:c.py", UNFIXABLE)
    (line,) = check("--format", "github", "--select", "AC107", "a,b:c.py").stdout.splitlines()
    assert line.startswith("::error file=a%2Cb%3Ac.py,line=2,")


# --- json-lines, rdjson, pylint, azure, grouped ------------------------------------------------


def test_json_lines_is_one_json_diagnostic_a_line(two_findings, check):
    run = check("--output-format", "json-lines", "--select", "AC107", "pkg")
    assert run.exit_code == 1
    lines = [json.loads(line) for line in run.stdout.splitlines()]
    assert lines == check("--format", "json", "--select", "AC107", "pkg").json()["diagnostics"]
    assert len(lines) == 2 and set(lines[0]) == DIAGNOSTIC_KEYS
    assert check("--output-format", "json-lines", "pkg/clean.py").stdout == ""


def test_rdjson_is_reviewdogs_diagnostic_format(two_findings, check):
    run = check("--output-format", "rdjson", "--select", "AC107", "pkg")
    assert run.exit_code == 1
    document = run.json()
    assert document["source"]["name"] == "a2alint" and document["source"]["url"].startswith("https://")
    unfixable, fixable = document["diagnostics"]
    line, column = FIXABLE_AT
    end = column + len("json.dumps(contract)")
    assert fixable["location"] == {"path": "pkg/b.py", "range": {"start": {"line": line, "column": column}, "end": {"line": line, "column": end}}}
    assert fixable["severity"] == "ERROR"
    assert fixable["code"]["value"] == "AC107" and fixable["code"]["url"].endswith("AC107")
    assert fixable["suggestions"] == [
        {"range": {"start": {"line": line, "column": column}, "end": {"line": line, "column": end}},
         "text": "json.dumps(contract, sort_keys=True)"}
    ]
    assert "suggestions" not in unfixable
    assert unfixable["message"].startswith("built-in hash()") and "\nhelp: " in unfixable["message"]


def test_rdjson_carries_the_related_locations(project, check):
    example = load_rules()["AC105"].INVALID[0]
    write(project / "cancel.py", textwrap.dedent(getattr(example, "source", example)))
    diagnostic = check("--output-format", "rdjson", "--select", "AC105", "cancel.py").json()["diagnostics"][0]
    assert diagnostic["severity"] == "ERROR"
    assert diagnostic["related_locations"] and all(
        {"message", "location"} == set(related) and related["location"]["path"] == "cancel.py"
        for related in diagnostic["related_locations"]
    )


def test_pylint_lines(two_findings, check):
    run = check("--output-format", "pylint", "--select", "AC107", "pkg")
    assert run.exit_code == 1
    assert run.stdout.splitlines() == [
        "pkg/a.py:2: [AC107] built-in hash() of Agent Card data is salted per process and differs between peers",
        f"pkg/b.py:{FIXABLE_AT[0]}: [AC107] json.dumps of Agent Card data without sort_keys=True feeds a hash; key order varies between peers",
    ]


def test_azure_logging_commands(project, check):
    write(project / "a;b].py", UNFIXABLE)
    write(project / "send.py", "from a2a.client import A2AClient\nasync def f(c, m):\n    return await c.send_message(m)\n")
    run = check("--output-format", "azure", "--select", "AC103,AC107", ".")
    assert run.exit_code == 1
    assert run.stdout.splitlines() == [
        "##vso[task.logissue type=error;sourcepath=a%3Bb%5D.py;linenumber=2;columnnumber=21;code=AC107;]"
        "built-in hash() of Agent Card data is salted per process and differs between peers",
        "##vso[task.logissue type=warning;sourcepath=send.py;linenumber=3;columnnumber=18;code=AC103;]"
        "task sent without a frozen contract: no contract hash or card digest is captured for it",
    ]


def test_grouped_lists_each_files_findings_under_its_name(two_findings, check):
    write(two_findings / "pkg" / "twice.py", UNFIXABLE + "\n" * 8 + "def g(card): return hash(card.model_dump_json())\n")
    run = check("--output-format", "grouped", "--select", "AC107", "pkg")
    assert run.exit_code == 1
    line, column = FIXABLE_AT
    assert run.stdout == (
        "pkg/a.py:\n  2:21 AC107 built-in hash() of Agent Card data is salted per process and differs between peers\n\n"
        f"pkg/b.py:\n  {line}:{column} AC107 json.dumps of Agent Card data without sort_keys=True feeds a hash; key order varies between peers\n\n"
        "pkg/twice.py:\n"
        "   2:21 AC107 built-in hash() of Agent Card data is salted per process and differs between peers\n"
        "  11:21 AC107 built-in hash() of Agent Card data is salted per process and differs between peers\n\n"
        "Found 4 findings in 4 files checked.\n"
        "No fixes available (1 hidden fix can be enabled with the --unsafe-fixes option).\n"
    )
    assert check("--output-format", "grouped", "-q", "pkg/clean.py").stdout == ""


# --- the output-format setting and `rule --output-format` ----------------------------------------


def test_output_format_setting_is_the_default_and_the_option_wins(two_findings, check):
    write(two_findings / "pyproject.toml", '[tool.a2alint]\noutput-format = "pylint"\n')
    assert check("--select", "AC107", "pkg/a.py").stdout.startswith("pkg/a.py:2: [AC107] ")
    assert check("--select", "AC107", "--output-format", "concise", "pkg/a.py").stdout.startswith("pkg/a.py:2:21: AC107 ")
    assert "output-format = \"pylint\"" in check("--show-settings").stdout


@pytest.mark.parametrize("value", ['"xml"', "3", '["json"]'])
def test_a_bad_output_format_setting_is_a_config_error(two_findings, check, value):
    write(two_findings / "pyproject.toml", f"[tool.a2alint]\noutput-format = {value}\n")
    run = check("pkg")
    assert run.exit_code == 2
    assert "pyproject.toml" in run.stderr and "'output-format'" in run.stderr and "json-lines" in run.stderr


def test_rule_output_format_json_has_the_fields_of_ruffs(a2alint):
    run = a2alint("rule", "AC107", "--output-format", "json")
    assert run.exit_code == 0
    page = run.json()
    assert {"name", "code", "linter", "summary", "explanation", "fix", "preview"} <= set(page)
    assert (page["code"], page["name"], page["linter"], page["preview"]) == ("AC107", "unstable-contract-hash", "a2alint", False)
    assert page["fix"] == "Fix is sometimes available."
    assert page["explanation"].startswith(page["summary"]) and "## What it does" in page["explanation"]
    assert a2alint("rule", "AC101", "--output-format", "json").json()["fix"] == "Fix is not available."
    assert a2alint("rule", "AC107", "--output-format", "text").stdout.startswith("# AC107 unstable-contract-hash")


def test_rules_that_say_they_have_no_fix_have_none_in_their_examples():
    """``fix_availability`` is what the rule's own examples show (a rule with fixes says so)."""
    from a2alint.rule import Files
    from a2alint.runner import lint_source

    for code, rule in load_rules().items():
        sources = [e.source if hasattr(e, "source") else e for e in rule.INVALID if not isinstance(e, Files)]
        fixed = any(
            d.fix for source in sources
            for d in lint_source(textwrap.dedent(source), select=(code,), report_unused_noqa=code == "AC001").diagnostics
        )
        assert fixed == (rule.fix_availability != "None"), code


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


@pytest.mark.parametrize("output_format", ["concise", "full", "grouped"])
def test_statistics_in_every_text_style_are_the_texts(two_findings, check, output_format):
    run = check("--statistics", "--output-format", output_format, "--select", "AC107", "pkg")
    assert run.exit_code == 1
    assert run.stdout == check("--statistics", "--select", "AC107", "pkg").stdout


@pytest.mark.parametrize("output_format", ["json-lines", "sarif", "github", "gitlab", "junit", "rdjson", "pylint", "azure"])
def test_statistics_in_a_report_format_is_refused(two_findings, check, output_format):
    run = check("--statistics", "--output-format", output_format, "pkg")
    assert run.exit_code == 2 and "--statistics" in run.stderr and output_format in run.stderr
    assert run.stdout == ""


@pytest.mark.parametrize("output_format", FORMATS)
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
