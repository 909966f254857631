"""Output formats: text, json, sarif, github, and per-code statistics."""

from __future__ import annotations

import json
import os
import subprocess
from collections import Counter
from pathlib import Path
from typing import IO, Iterable
from urllib.parse import quote

from a2alint import DOCS_URL, __version__
from a2alint.diagnostics import Diagnostic
from a2alint.rule import Rule

FORMATS = ("text", "json", "sarif", "github")
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_SARIF_LEVEL = {"error": "error", "warning": "warning"}


def rule_url(code: str) -> str:
    return DOCS_URL.format(code=code)


class Style:
    """ANSI colour, only for a terminal and only without ``NO_COLOR``."""

    def __init__(self, stream: IO[str], color: bool | None = None) -> None:
        if color is None:
            color = stream.isatty() and not os.environ.get("NO_COLOR")
        self.color = color

    def __call__(self, text: str, code: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.color else text


def write_text(diagnostics: list[Diagnostic], stream: IO[str], *, files: int, fixed: int = 0, quiet: bool = False) -> None:
    style = Style(stream)
    for d in diagnostics:
        where = style(f"{d.path}:{d.line}:{d.column}:", "1")
        code = style(d.code, "1;31" if d.severity == "error" else "1;33")
        marker = " [*]" if d.fix and d.fix.applicability == "safe" else ""
        stream.write(f"{where} {code}{marker} {d.message}\n")
        if d.suggestion:
            stream.write(f"  {style('help:', '1;36')} {d.suggestion}\n")
        for note in d.related:
            stream.write(f"  {style('note:', '1;34')} {note.path}:{note.line}:{note.column}: {note.label}\n")
    if quiet:
        return
    if fixed:
        stream.write(f"Fixed {fixed} finding{'s' if fixed != 1 else ''}.\n")
    if diagnostics:
        fixable = sum(1 for d in diagnostics if d.fix and d.fix.applicability == "safe")
        hint = f" ({fixable} fixable with --fix)" if fixable else ""
        count = len(diagnostics)
        stream.write(f"Found {count} finding{'s' if count != 1 else ''} in {files} file{'s' if files != 1 else ''} checked{hint}.\n")
    else:
        stream.write(f"All checks passed ({files} file{'s' if files != 1 else ''} checked).\n")


def write_json(diagnostics: list[Diagnostic], stream: IO[str], *, files: int) -> None:
    document = {
        "tool": "a2alint",
        "version": __version__,
        "files": files,
        "diagnostics": [d.to_json() for d in diagnostics],
    }
    json.dump(document, stream, indent=2)
    stream.write("\n")


def write_github(diagnostics: list[Diagnostic], stream: IO[str]) -> None:
    for d in diagnostics:
        level = "error" if d.severity == "error" else "warning"
        message = d.message
        if d.suggestion:
            message += f" (help: {d.suggestion})"
        for note in d.related:
            where = f"line {note.line}" if note.path == d.path else f"{note.path}:{note.line}"
            message += f"; note: {where}: {note.label}"
        props = (
            f"file={_escape_property(d.path)},line={d.line},col={d.column},"
            f"endLine={d.end_line},endColumn={d.end_column},title={_escape_property(d.code)}"
        )
        stream.write(f"::{level} {props}::{_escape_data(f'{d.code} {message}')}\n")


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


#: The formats statistics have (SARIF and GitHub annotations are reports of findings).
STATISTICS_FORMATS = ("text", "json")


def write_statistics(diagnostics: list[Diagnostic], stream: IO[str], fmt: str) -> None:
    counts = Counter(d.code for d in diagnostics)
    names = {d.code: d.rule for d in diagnostics}
    fixable = {d.code for d in diagnostics if d.fix and d.fix.applicability == "safe"}
    rows = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    if fmt == "json":
        json.dump(
            [{"code": c, "name": names[c], "count": n, "fixable": c in fixable} for c, n in rows], stream, indent=2
        )
        stream.write("\n")
        return
    for code, count in rows:
        stream.write(f"{count:>5}\t{code}\t{'[*] ' if code in fixable else ''}{names[code]}\n")


# --- SARIF ------------------------------------------------------------------------------


def _source_root(cwd: Path) -> Path:
    """The repository root (what code scanning resolves URIs against), else ``cwd``."""
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
    absolute = (cwd / path).resolve() if path != "-" else cwd / "-"
    try:
        relative = absolute.relative_to(root.resolve()).as_posix()
    except ValueError:
        return absolute.as_uri()
    return quote(relative)


def _region(line: int, column: int, end_line: int | None = None, end_column: int | None = None) -> dict:
    region = {"startLine": line, "startColumn": column}
    if end_line is not None:
        region.update(endLine=end_line, endColumn=end_column)
    return region


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


def write_sarif(diagnostics: list[Diagnostic], stream: IO[str], registry: dict[str, type[Rule]], cwd: Path) -> None:
    root = _source_root(cwd)
    codes = list(registry)
    results = []
    for d in diagnostics:
        uri = _uri(d.path, root, cwd)
        location = {"artifactLocation": {"uri": uri}, "region": _region(d.line, d.column, d.end_line, d.end_column)}
        result: dict = {
            "ruleId": d.code,
            "ruleIndex": codes.index(d.code),
            "level": _SARIF_LEVEL[d.severity],
            "message": {"text": d.message + (f"\nhelp: {d.suggestion}" if d.suggestion else "")},
            "locations": [{"physicalLocation": location}],
        }
        related = [
            {
                "id": index,
                "physicalLocation": {"artifactLocation": {"uri": _uri(n.path, root, cwd)}, "region": _region(n.line, n.column)},
                "message": {"text": n.label},
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
                        "informationUri": DOCS_URL.split("#")[0].format(code="").rstrip("/"),
                        "rules": [sarif_rule(rule) for rule in registry.values()],
                    }
                },
                "results": results,
            }
        ],
    }
    json.dump(document, stream, indent=2)
    stream.write("\n")


def write(
    fmt: str,
    diagnostics: list[Diagnostic],
    stream: IO[str],
    *,
    files: int,
    registry: dict[str, type[Rule]],
    cwd: Path,
    fixed: int = 0,
    quiet: bool = False,
) -> None:
    if fmt == "json":
        write_json(diagnostics, stream, files=files)
    elif fmt == "sarif":
        write_sarif(diagnostics, stream, registry, cwd)
    elif fmt == "github":
        write_github(diagnostics, stream)
    else:
        write_text(diagnostics, stream, files=files, fixed=fixed, quiet=quiet)


def sorted_diagnostics(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    return sorted(diagnostics, key=Diagnostic.sort_key)
