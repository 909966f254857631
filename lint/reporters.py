"""Output formats: text (also concise, full and grouped), json and json-lines, sarif,
github, gitlab, junit, rdjson, pylint, azure, and per-code statistics."""

from __future__ import annotations

import json
import os
import re
import unicodedata
from collections import Counter
from itertools import groupby
from pathlib import Path
from typing import IO, Callable, Iterable, Mapping, Sequence
from urllib.parse import quote

from a2alint import DOCS_URL, __version__
from a2alint.diagnostics import Diagnostic
from a2alint.paths import name_bytes, relative_to
from a2alint.rule import Rule

FORMATS = (
    "text", "concise", "full", "grouped", "json", "json-lines", "sarif", "github", "gitlab", "junit", "rdjson",
    "pylint", "azure",
)
#: When text output is coloured (``--color``).
COLORS = ("auto", "always", "never")
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_SARIF_LEVEL = {"error": "error", "warning": "warning"}
#: The key of a result's fingerprint in SARIF's ``partialFingerprints`` (the baseline's, version 1).
SARIF_FINGERPRINT = "a2alint/v1"
_GITLAB_SEVERITY = {"error": "major", "warning": "minor"}
#: A JUnit test case is named ``PACKAGE.CODE``, as ruff's are ``org.ruff.CODE``.
JUNIT_PACKAGE = "org.a2alint"
#: What a terminal would act on, or XML cannot hold (tab and newline excepted).
_UNPRINTABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f\ufffe\uffff]")
#: The same in a path, with tab, newline and the C1 controls: a name is never more than one line.
_UNPRINTABLE_IN_PATH = re.compile("[\x00-\x1f\x7f-\x9f\ufffe\uffff]")


def rule_url(code: str) -> str:
    return DOCS_URL.format(code=code)


class Style:
    """ANSI colour as ``--color`` asks. ``auto`` decides as ruff does: a non-empty
    ``FORCE_COLOR`` colours any stream, else a non-empty ``NO_COLOR`` none, else only a
    terminal is coloured."""

    def __init__(self, stream: IO[str], when: str = "auto") -> None:
        if when == "auto":
            self.color = bool(os.environ.get("FORCE_COLOR")) or (not os.environ.get("NO_COLOR") and stream.isatty())
        else:
            self.color = when == "always"

    def __call__(self, text: str, code: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.color else text


def write_text(
    diagnostics: list[Diagnostic],
    stream: IO[str],
    *,
    files: int,
    fixed: int = 0,
    quiet: bool = False,
    color: str = "auto",
    concise: bool = False,
    grouped: bool = False,
    source: Callable[[str], list[str]] | None = None,
    unsafe_fixes: bool = False,
    show_fixes: bool = False,
    applied: Mapping[str, list[Diagnostic]] | None = None,
) -> None:
    """``text``; ``concise``: one line per finding (for tools that read lines, as
    ``path:line:col: message``); with ``source`` (the lines of a checked file), ``full``:
    each finding with a frame of the code it flags; ``grouped``: the findings of each file
    under its name. ``show_fixes``: each finding's fix under it; ``applied``: the fixes
    applied per file, listed before the summary."""
    style = Style(stream, color)
    if grouped:
        stream.write(_grouped(diagnostics, style, unsafe_fixes))
    else:
        for d in diagnostics:
            if concise:
                stream.write(_headline(d, style, unsafe_fixes))
            else:
                stream.write(_finding(d, style, source and source(d.path), unsafe_fixes, show_fixes))
    if not quiet:
        _applied(stream, applied or {})
        _summary(diagnostics, stream, files, fixed, unsafe_fixes)


def write_fixes(
    diagnostics: list[Diagnostic], stream: IO[str], fixed: int, applied: Mapping[str, list[Diagnostic]], unsafe_fixes: bool
) -> None:
    """``--fix-only``'s report, ruff's: the fixes applied (listed per file, given ``applied``)
    and the unsafe ones ``--unsafe-fixes`` would add; no finding."""
    _applied(stream, applied)
    hidden = sum(1 for d in diagnostics if d.fix is not None and not fixable(d, unsafe_fixes))
    fixes = f"{hidden} {'additional ' if fixed else ''}fix{'es' if hidden != 1 else ''} available with --unsafe-fixes"
    if fixed:
        stream.write(f"Fixed {fixed} finding{'s' if fixed != 1 else ''}{f' ({fixes})' if hidden else ''}.\n")
    elif hidden:
        stream.write(f"No findings fixed ({fixes}).\n")


def _applied(stream: IO[str], applied: Mapping[str, list[Diagnostic]]) -> None:
    """``--show-fixes`` after ``--fix``, as ruff lists them: per file, each code's count."""
    total = sum(len(fixes) for fixes in applied.values())
    if not total:
        return
    stream.write(f"Fixed {total} finding{'s' if total != 1 else ''}:\n")
    for path in sorted(applied):
        counts = Counter((d.code, d.rule) for d in applied[path])
        stream.write(f"- {shown_path(path)}:\n")
        width = len(str(max(counts.values())))
        for (code, rule), count in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
            stream.write(f"    {count:>{width}} × {code} ({rule})\n")


def _summary(diagnostics: list[Diagnostic], stream: IO[str], files: int, fixed: int, unsafe_fixes: bool) -> None:
    """The lines after the findings (or the statistics): what was fixed, the total, and the fix hint."""
    if fixed:
        stream.write(f"Fixed {fixed} finding{'s' if fixed != 1 else ''}.\n")
    if diagnostics:
        count = len(diagnostics)
        stream.write(f"Found {count} finding{'s' if count != 1 else ''} in {files} file{'s' if files != 1 else ''} checked.\n")
        stream.write(_fix_hint(diagnostics, unsafe_fixes))
    else:
        stream.write(f"All checks passed ({files} file{'s' if files != 1 else ''} checked).\n")


def fixable(d: Diagnostic, unsafe_fixes: bool = False) -> bool:
    """Whether ``--fix`` would fix ``d`` (an unsafe fix only with ``--unsafe-fixes``)."""
    return d.fix is not None and (d.fix.applicability == "safe" or unsafe_fixes)


def _fix_hint(diagnostics: list[Diagnostic], unsafe_fixes: bool) -> str:
    """ruff's line after the count: how many ``--fix`` would fix, and how many unsafe fixes
    it leaves hidden unless ``--unsafe-fixes`` is given."""
    applicable = sum(1 for d in diagnostics if fixable(d, unsafe_fixes))
    hidden = sum(1 for d in diagnostics if d.fix is not None and not fixable(d, unsafe_fixes))
    hint = f" ({hidden} hidden fix{'es' if hidden != 1 else ''} can be enabled with the --unsafe-fixes option)" if hidden else ""
    if applicable:
        return f"[*] {applicable} fixable with the --fix option{hint}.\n"
    return f"No fixes available{hint}.\n" if hidden else ""


def _headline(d: Diagnostic, style: Style, unsafe_fixes: bool = False) -> str:
    return f"{style(f'{shown_path(d.path)}:{d.position()}:', '1')} {_coded_message(d, style, unsafe_fixes)}"


def _coded_message(d: Diagnostic, style: Style, unsafe_fixes: bool = False) -> str:
    """``CODE [*] message``: ``[*]`` when ``--fix`` can fix it."""
    marker = " [*]" if fixable(d, unsafe_fixes) else ""
    return f"{style(d.code, _severity_color(d))}{marker} {d.message}\n"


def _grouped(diagnostics: list[Diagnostic], style: Style, unsafe_fixes: bool = False) -> str:
    """Each file's name, then its findings as ``line:col CODE message``, the positions
    aligned, and a blank line: ruff's ``grouped``."""
    text = ""
    for path, in_file in groupby(diagnostics, key=lambda d: d.path):
        found = list(in_file)
        lines, columns = (max(len(str(getattr(d, key))) for d in found) for key in ("line", "column"))
        text += style(f"{shown_path(path)}:", "1") + "\n"
        for d in found:
            at = d.position() if d.cell is not None else f"{d.line:>{lines}}:{d.column:<{columns}}"
            text += f"  {at} {_coded_message(d, style, unsafe_fixes)}"
        text += "\n"
    return text


def _finding(
    d: Diagnostic, style: Style, lines: list[str] | None = None, unsafe_fixes: bool = False, show_fix: bool = False
) -> str:
    """A finding as ``text`` shows it: its line, then (given the file's ``lines``) the
    code frame, then ``help:``, (``show_fix``) ``fix:`` and ``note:`` lines."""
    text = _headline(d, style, unsafe_fixes) + (_frame(d, lines, style) if lines else "")
    if d.suggestion:
        text += f"  {style('help:', '1;36')} {d.suggestion}\n"
    if show_fix and d.fix is not None:
        needs = "" if fixable(d, unsafe_fixes) else " (unsafe: with --unsafe-fixes)"
        text += f"  {style('fix:', '1;32')} {d.fix.description or 'a fix'}{needs}\n"
    for note in d.related:
        text += f"  {style('note:', '1;34')} {shown_path(note.path)}:{note.position()}: {note.label}\n"
    return text


def _frame(d: Diagnostic, lines: list[str], style: Style) -> str:
    """The flagged line behind a line-number gutter, carets under the flagged range (to the
    end of the line when the range goes on), as ruff's ``full`` output frames it."""
    if not 1 <= d.line <= len(lines):
        return ""
    text = _printable(lines[d.line - 1].rstrip("\r\n"))
    start = min(d.column - 1, len(text))
    end = max(start, min(d.end_column - 1 if d.end_line == d.line else len(text), len(text)))
    carets = "^" * max(1, len(_blank(text[start:end])))
    number = str(d.row)
    gutter = style(f"{' ' * len(number)} |", "1;34")
    return (
        f"{gutter}\n{style(f'{number} |', '1;34')} {text}\n"
        f"{gutter} {_blank(text[:start])}{style(f'{carets} {d.code}', _severity_color(d))}\n{gutter}\n"
    )


def _blank(text: str) -> str:
    """Blank space as wide as ``text`` on a terminal (its tabs kept), to line carets up under it."""
    return "".join(
        "\t" if c == "\t" else "" if unicodedata.combining(c) else "  " if unicodedata.east_asian_width(c) in "WF" else " "
        for c in text
    )


def _printable(text: str) -> str:
    """``text`` with control characters shown as their symbols (ruff shows source so), one
    character for one: a checked file cannot drive the terminal, nor break an XML report."""
    return _UNPRINTABLE.sub(_symbol, text)


def shown_path(path: str) -> str:
    """``path`` as a line of output shows it: its control characters as their symbols, as
    :func:`_printable` shows source, so that a file name cannot forge a line of the report
    or drive the terminal. For display only: the file is read and written by its real name."""
    return one_line(path)


def one_line(text: str) -> str:
    """``text`` on one line, its control characters (newlines and tabs too) as their symbols:
    what a plug-in's message may hold is shown, never run by the terminal or read as a line."""
    return _UNPRINTABLE_IN_PATH.sub(_symbol, text)


def _symbol(match: re.Match[str]) -> str:
    char = match[0]
    if char < " ":
        return chr(0x2400 + ord(char))  # the Control Pictures block: \x1b is shown as U+241B
    return "\u2421" if char == "\x7f" else "\ufffd"


def _severity_color(d: Diagnostic) -> str:
    return "1;31" if d.severity == "error" else "1;33"


def write_json(diagnostics: list[Diagnostic], stream: IO[str], *, files: int) -> None:
    document = {
        "tool": "a2alint",
        "version": __version__,
        "files": files,
        "diagnostics": [d.to_json() for d in diagnostics],
    }
    json.dump(document, stream, indent=2)
    stream.write("\n")


def write_json_lines(diagnostics: list[Diagnostic], stream: IO[str]) -> None:
    """One finding a line, each the object ``json`` lists: for tools that stream."""
    for d in diagnostics:
        stream.write(json.dumps(d.to_json()) + "\n")


def _placed(d: Diagnostic) -> tuple[tuple[int, int, int, int], str]:
    """Where a report for a CI places ``d`` (line, column, end line, end column), and its
    message. A line of a notebook's cell is no line of the file, so a notebook's finding is
    placed on the file's first line, as ruff's GitHub and GitLab reports place it, and its
    message says where."""
    if d.cell is not None:
        return (1, 1, 1, 1), f"{d.position()}: {d.message}"
    return (d.line, d.column, d.end_line, d.end_column), d.message


def write_github(diagnostics: list[Diagnostic], stream: IO[str], cwd: Path) -> None:
    """Workflow commands that annotate the lines of a pull request. On GitHub Actions
    (``GITHUB_WORKSPACE`` set) the paths are from the repository's root, which the
    annotations are resolved against, whatever folder a2alint ran in."""
    workspace = os.environ.get("GITHUB_WORKSPACE")
    for d in diagnostics:
        level = "error" if d.severity == "error" else "warning"
        (line, column, end_line, end_column), message = _placed(d)
        if d.suggestion:
            message += f" (help: {d.suggestion})"
        for note in d.related:
            at = note.cell.shown(note.line) if note.cell else str(note.line)
            where = (at if note.cell else f"line {at}") if note.path == d.path else f"{shown_path(note.path)}:{at}"
            message += f"; note: {where}: {note.label}"
        path = relative_to(d.path, Path(workspace), cwd) if workspace else d.path
        props = (
            f"file={_escape_property(shown_path(path))},line={line},col={column},"
            f"endLine={end_line},endColumn={end_column},title={_escape_property(d.code)}"
        )
        stream.write(f"::{level} {props}::{_escape_data(f'{d.code} {message}')}\n")


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def write_pylint(diagnostics: list[Diagnostic], stream: IO[str]) -> None:
    """``path:line: [CODE] message``, as pylint's parseable output (and ruff's ``pylint``)."""
    for d in diagnostics:
        (line, _, _, _), message = _placed(d)
        stream.write(f"{shown_path(d.path)}:{line}: [{d.code}] {message}\n")


def write_azure(diagnostics: list[Diagnostic], stream: IO[str]) -> None:
    """Azure Pipelines logging commands, one per finding, as ruff's ``azure``."""
    for d in diagnostics:
        (line, column, _, _), message = _placed(d)
        props = (
            f"type={d.severity};sourcepath={_escape_azure(shown_path(d.path), True)};"
            f"linenumber={line};columnnumber={column};code={d.code};"
        )
        stream.write(f"##vso[task.logissue {props}]{_escape_azure(message)}\n")


def _escape_azure(text: str, in_property: bool = False) -> str:
    """Azure's escapes for a logging command: its data ends at a line's end, a property
    also at ``;`` and ``]``."""
    text = text.replace("%", "%AZP25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(";", "%3B").replace("]", "%5D") if in_property else text


#: The formats statistics have (the text styles print them alike; SARIF, annotations,
#: Code Quality and JUnit reports are reports of findings).
STATISTICS_FORMATS = ("text", "concise", "full", "grouped", "json")


def write_statistics(
    diagnostics: list[Diagnostic], stream: IO[str], fmt: str, *, files: int = 0, fixed: int = 0, quiet: bool = False,
    unsafe_fixes: bool = False,
) -> None:
    """A count per code, as ruff's: a code is fixable (``[*]``, ``"fixable"``) when ``--fix``
    would fix any of its findings; the text ends with the summary ``text`` prints."""
    counts = Counter(d.code for d in diagnostics)
    names = {d.code: d.rule for d in diagnostics}
    codes_fixable = {d.code for d in diagnostics if fixable(d, unsafe_fixes)}
    rows = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    if fmt == "json":
        json.dump(
            [{"code": c, "name": names[c], "count": n, "fixable": c in codes_fixable} for c, n in rows], stream, indent=2
        )
        stream.write("\n")
        return
    for code, count in rows:
        column = ("[*] " if code in codes_fixable else "[ ] ") if codes_fixable else ""
        stream.write(f"{count:>5}\t{code}\t{column}{names[code]}\n")
    if not quiet:
        _summary(diagnostics, stream, files, fixed, unsafe_fixes)


# --- SARIF ------------------------------------------------------------------------------


def _source_root(cwd: Path) -> Path:
    """The repository root (what code scanning resolves URIs against), else ``cwd``."""
    import subprocess  # here: only SARIF asks, and every other run starts faster without it

    try:
        out = subprocess.run(
            ["git", "rev-parse", "--show-toplevel"], cwd=cwd, capture_output=True, text=True, timeout=5
        )
        if out.returncode == 0 and out.stdout.strip():
            return Path(out.stdout.strip())
    except (OSError, subprocess.SubprocessError):
        pass
    return cwd


def _uri(path: str, root: Path, cwd: Path) -> str:
    """The file's URI, by its real name (a name that is not UTF-8 is shown escaped)."""
    absolute = (cwd / os.fsdecode(name_bytes(path))).resolve() if path != "-" else cwd / "-"
    try:
        relative = absolute.relative_to(root.resolve()).as_posix()
    except ValueError:
        return absolute.as_uri()
    return quote(os.fsencode(relative))


def _region(line: int, column: int, end_line: int | None = None, end_column: int | None = None) -> dict:
    region = {"startLine": line, "startColumn": column}
    if end_line is not None:
        region.update(endLine=end_line, endColumn=end_column)
    return region


def _with_help(d: Diagnostic, message: str | None = None) -> str:
    """The message (or ``message``), and the help on a line of its own (for reports with
    one text per finding)."""
    return (message or d.message) + (f"\nhelp: {d.suggestion}" if d.suggestion else "")


def _information_uri() -> str:
    return DOCS_URL.split("#")[0].format(code="").rstrip("/")


def sarif_rule(rule: type[Rule]) -> dict:
    docs = rule.documentation()
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary()},
        "fullDescription": {"text": docs.split("## What it does", 1)[-1].split("##", 1)[0].strip() or rule.summary()},
        "help": {"text": docs, "markdown": docs},
        "helpUri": rule_url(rule.code),
        "defaultConfiguration": {"level": _SARIF_LEVEL[rule.severity]},
        "properties": {"tags": ["a2a"] + (["preview"] if rule.preview else [])},
    }


def _fingerprinted(
    diagnostics: Iterable[Diagnostic], lines_of: Callable[[str], list[str]], root: Path, cwd: Path
) -> list[tuple[Diagnostic, str, str]]:
    """``(diagnostic, path, fingerprint)`` in sorted order: the path relative to ``root`` and
    the baseline's fingerprint, which a finding keeps across runs and moves of its lines."""
    from a2alint.baseline import fingerprints  # it reads files as the engine does: imported with it

    ordered = sorted(diagnostics, key=Diagnostic.sort_key)
    return [(d, path, fingerprint) for d, (path, _, fingerprint) in zip(ordered, fingerprints(ordered, lines_of, root, cwd))]


def write_sarif(
    diagnostics: list[Diagnostic], stream: IO[str], registry: dict[str, type[Rule]], cwd: Path,
    lines_of: Callable[[str], list[str]],
) -> None:
    root = _source_root(cwd)
    codes = list(registry)
    results = []
    for d, _, fingerprint in _fingerprinted(diagnostics, lines_of, root, cwd):
        uri = _uri(d.path, root, cwd)
        region, message = _placed(d)
        location = {"artifactLocation": {"uri": uri}, "region": _region(*region)}
        result: dict = {
            "ruleId": d.code,
            "ruleIndex": codes.index(d.code),
            "level": _SARIF_LEVEL[d.severity],
            "message": {"text": _with_help(d, message)},
            "locations": [{"physicalLocation": location}],
            # code scanning matches a result across pushes by these, not by its line
            "partialFingerprints": {SARIF_FINGERPRINT: fingerprint},
        }
        related = [
            {
                "id": index,
                "physicalLocation": {"artifactLocation": {"uri": _uri(n.path, root, cwd)}, "region": _region(*((1, 1) if n.cell else (n.line, n.column)))},
                "message": {"text": f"{n.position()}: {n.label}" if n.cell else n.label},
            }
            for index, n in enumerate(d.related, start=1)
        ]
        if related:
            result["relatedLocations"] = related
        if d.code_flow:
            finding = {"physicalLocation": location, "message": {"text": d.message}}
            steps = [finding if step == 0 else related[step - 1] for step in d.code_flow]
            result["codeFlows"] = [
                {
                    "message": {"text": "how the task reaches this finding"},
                    "threadFlows": [
                        {
                            "locations": [
                                {
                                    "location": {key: value for key, value in step.items() if key != "id"},
                                    "executionOrder": order,
                                }
                                for order, step in enumerate(steps, start=1)
                            ]
                        }
                    ],
                }
            ]
        if d.fix:
            result["fixes"] = [
                {
                    "description": {"text": d.fix.description or f"{d.fix.applicability} fix"},
                    "artifactChanges": [
                        {
                            "artifactLocation": {"uri": uri},
                            "replacements": [
                                {
                                    "deletedRegion": _region(e.start.line, e.start.column, e.end.line, e.end.column),
                                    "insertedContent": {"text": e.content},
                                }
                                for e in d.fix.edits
                            ],
                        }
                    ],
                }
            ]
        results.append(result)
    document = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "a2alint",
                        "version": __version__,
                        "informationUri": _information_uri(),
                        "rules": [sarif_rule(rule) for rule in registry.values()],
                    }
                },
                "results": results,
            }
        ],
    }
    json.dump(document, stream, indent=2)
    stream.write("\n")


# --- GitLab Code Quality and JUnit ------------------------------------------------------


def write_gitlab(diagnostics: list[Diagnostic], stream: IO[str], cwd: Path, lines_of: Callable[[str], list[str]]) -> None:
    """A GitLab Code Quality report: paths from the repository root, as GitLab resolves
    them; the fingerprint tells GitLab a finding is the same one in another pipeline."""
    report = [
        {
            "description": f"{d.code} {_placed(d)[1]}",
            "check_name": d.code,
            "fingerprint": fingerprint,
            "severity": _GITLAB_SEVERITY[d.severity],
            "location": {"path": path, "lines": {"begin": _placed(d)[0][0]}},
        }
        for d, path, fingerprint in _fingerprinted(diagnostics, lines_of, _source_root(cwd), cwd)
    ]
    json.dump(report, stream, indent=2)
    stream.write("\n")


def write_junit(diagnostics: list[Diagnostic], stream: IO[str], files: Sequence[str]) -> None:
    """JUnit XML, as ruff writes it: a test suite per checked file (``files``) and a test
    case per finding, named ``org.a2alint.CODE`` with the file as its class, so that CI
    that shows one failure per test case (Jenkins, CircleCI, Azure DevOps) shows each
    finding; a file without findings has one passing test case."""
    import xml.etree.ElementTree as ElementTree  # here: only this report needs it

    cases: dict[str, list[Diagnostic]] = {path: [] for path in files}
    for d in diagnostics:
        cases.setdefault(d.path, []).append(d)
    tests = sum(len(found) or 1 for found in cases.values())
    suites = ElementTree.Element("testsuites", name="a2alint", tests=str(tests), failures=str(len(diagnostics)), errors="0")
    plain = Style(stream, "never")
    for path, found in cases.items():
        name = shown_path(path)
        suite = ElementTree.SubElement(
            suites, "testsuite", name=name, tests=str(len(found) or 1), failures=str(len(found)), errors="0",
            skipped="0", package=JUNIT_PACKAGE, file=name,
        )
        if not found:
            ElementTree.SubElement(suite, "testcase", name=f"{JUNIT_PACKAGE}.passed", classname=name, file=name)
        for d in found:
            case = ElementTree.SubElement(
                suite, "testcase", name=f"{JUNIT_PACKAGE}.{d.code}", classname=name, file=name, line=str(_placed(d)[0][0])
            )
            failure = ElementTree.SubElement(case, "failure", message=_printable(d.message), type=d.code)
            failure.text = _printable(_finding(d, plain))
    ElementTree.indent(suites)
    stream.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    stream.write(ElementTree.tostring(suites, encoding="unicode"))
    stream.write("\n")


# --- reviewdog ----------------------------------------------------------------------------------


def write_rdjson(diagnostics: list[Diagnostic], stream: IO[str]) -> None:
    """reviewdog's Diagnostic Format (rdjson), as ruff writes it: a fix's edits are
    suggestions a reviewer can apply, the related places are related locations."""

    def span(line: int, column: int, end_line: int | None = None, end_column: int | None = None) -> dict:
        start = {"line": line, "column": column}
        return {"start": start, "end": {"line": end_line, "column": end_column}} if end_line else {"start": start}

    found = []
    for d in diagnostics:
        region, message = _placed(d)
        diagnostic: dict = {
            "message": _with_help(d, message),
            "location": {"path": d.path, "range": span(*region)},
            "severity": d.severity.upper(),
            "code": {"value": d.code, "url": rule_url(d.code)},
        }
        if d.fix:
            diagnostic["suggestions"] = [
                {"range": span(e.start.line, e.start.column, e.end.line, e.end.column), "text": e.content}
                for e in d.fix.edits
            ]
        if d.related:
            diagnostic["related_locations"] = [
                {"message": n.label, "location": {"path": n.path, "range": span(n.line, n.column)}} for n in d.related
            ]
        found.append(diagnostic)
    json.dump({"source": {"name": "a2alint", "url": _information_uri()}, "diagnostics": found}, stream, indent=2)
    stream.write("\n")


def write(
    fmt: str,
    diagnostics: list[Diagnostic],
    stream: IO[str],
    *,
    files: Sequence[str],
    lines_of: Callable[[str], list[str]],
    registry: dict[str, type[Rule]],
    cwd: Path,
    fixed: int = 0,
    quiet: bool = False,
    color: str = "auto",
    unsafe_fixes: bool = False,
    show_fixes: bool = False,
    applied: Mapping[str, list[Diagnostic]] | None = None,
) -> None:
    """The report of a run in ``fmt``: ``files`` are the display paths of the files checked,
    ``lines_of(path)`` the lines of one as it was checked (for code frames and fingerprints);
    ``unsafe_fixes``: whether ``--fix`` would apply unsafe fixes too; ``show_fixes`` and
    ``applied``: see :func:`write_text`."""
    if fmt == "json":
        write_json(diagnostics, stream, files=len(files))
    elif fmt == "json-lines":
        write_json_lines(diagnostics, stream)
    elif fmt == "sarif":
        write_sarif(diagnostics, stream, registry, cwd, lines_of)
    elif fmt == "github":
        write_github(diagnostics, stream, cwd)
    elif fmt == "gitlab":
        write_gitlab(diagnostics, stream, cwd, lines_of)
    elif fmt == "junit":
        write_junit(diagnostics, stream, files)
    elif fmt == "rdjson":
        write_rdjson(diagnostics, stream)
    elif fmt == "pylint":
        write_pylint(diagnostics, stream)
    elif fmt == "azure":
        write_azure(diagnostics, stream)
    else:
        write_text(
            diagnostics, stream, files=len(files), fixed=fixed, quiet=quiet, color=color,
            concise=fmt == "concise", grouped=fmt == "grouped", source=lines_of if fmt == "full" else None,
            unsafe_fixes=unsafe_fixes, show_fixes=show_fixes, applied=applied,
        )


def sorted_diagnostics(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    return sorted(diagnostics, key=Diagnostic.sort_key)
