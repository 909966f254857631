"""Baselines: adopt a2alint on existing code by hiding the findings it already has.

``a2alint check --write-baseline FILE`` records every current finding; ``--baseline FILE``
hides the recorded ones, so that only new findings fail the run. A finding is recorded by
its rule code, its path (relative to the baseline file's folder, so the file works from
any directory) and a fingerprint: a hash of the code, the path, the text of the lines
it flags with all whitespace removed, and its rank among the findings of the same code
and text in the file. Lines inserted or removed elsewhere, and re-indentation, keep a
finding hidden; a change to the code it flags, or one more identical finding, shows it.
"""

from __future__ import annotations

import errno
import hashlib
import io
import json
import os
import re
import tokenize
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from a2alint import __version__
from a2alint.diagnostics import Diagnostic
from a2alint.fixes import replace_file, split_lines
from a2alint.paths import read_regular, relative_to
from a2alint.runner import FileResult, read_source

VERSION = 1
_WHITESPACE = re.compile(r"\s+")


class BaselineError(Exception):
    """A baseline file that cannot be read or is not one."""


#: The most a baseline file may hold: far more than any baseline a2alint writes.
MAX_BASELINE_BYTES = 64 * 1024 * 1024


def _read_regular(file: Path) -> bytes:
    """The bytes of ``file``, a regular file of at most :data:`MAX_BASELINE_BYTES` (see
    :func:`read_regular`)."""
    try:
        return read_regular(file, MAX_BASELINE_BYTES)
    except OSError as error:
        if error.errno == errno.EFBIG:
            raise BaselineError(f"baseline {file}: larger than {MAX_BASELINE_BYTES // 1024 // 1024} MiB, more than a baseline holds") from None
        if error.errno == errno.EINVAL:
            raise BaselineError(f"baseline {file}: not a regular file") from None
        raise


def decode(data: bytes) -> str:
    """The text of a file's bytes as Python reads them (undecodable bytes replaced)."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return data.decode(encoding, errors="replace")
    except (SyntaxError, LookupError):
        return data.decode("utf-8", errors="replace")


def fingerprints(diagnostics: Iterable[Diagnostic], lines_of: Callable[[str], list[str]], root: Path, cwd: Path) -> list[tuple[str, str, str]]:
    """``(path, code, fingerprint)`` of each diagnostic, in order; ``lines_of(display)`` gives
    the lines of the file a diagnostic is in (as it was checked), paths are relative to ``root``."""
    keys = []
    ranks: Counter[tuple[str, str, str]] = Counter()
    for diagnostic in sorted(diagnostics, key=Diagnostic.sort_key):
        path = relative_to(diagnostic.path, root, cwd)
        lines = lines_of(diagnostic.path)
        text = _WHITESPACE.sub("", "".join(lines[max(diagnostic.line, 1) - 1 : max(diagnostic.end_line, diagnostic.line)]))
        rank = ranks[(path, diagnostic.code, text)]
        ranks[(path, diagnostic.code, text)] += 1
        digest = hashlib.sha256("\0".join((diagnostic.code, path, text, str(rank))).encode("utf-8", "surrogateescape"))
        keys.append((path, diagnostic.code, digest.hexdigest()[:20]))
    return keys


@dataclass
class Baseline:
    file: Path
    known: frozenset[tuple[str, str, str]]

    @classmethod
    def load(cls, file: Path) -> "Baseline":
        try:
            document = json.loads(_read_regular(file).decode("utf-8"))
        except FileNotFoundError:
            raise BaselineError(f"baseline {file}: no such file (write one with --write-baseline {file})") from None
        except OSError as error:
            raise BaselineError(f"baseline {file}: cannot read it: {error.strerror}") from None
        except RecursionError:
            raise BaselineError(f"baseline {file}: nested too deeply to be a baseline") from None
        except (ValueError, UnicodeDecodeError) as error:
            raise BaselineError(f"baseline {file}: not JSON: {error}") from None
        if not isinstance(document, dict) or document.get("version") != VERSION or not isinstance(document.get("findings"), list):
            raise BaselineError(f'baseline {file}: not an a2alint baseline (expected {{"version": {VERSION}, "findings": [...]}})')
        try:
            known = frozenset((str(f["path"]), str(f["code"]), str(f["fingerprint"])) for f in document["findings"])
        except (TypeError, KeyError) as error:
            raise BaselineError(f"baseline {file}: a finding without {error}: each needs path, code and fingerprint") from None
        return cls(file, known)

    def root(self, cwd: Path) -> Path:
        return Path(os.path.abspath(cwd / self.file)).parent

    def hide(self, diagnostics: list[Diagnostic], lines_of: Callable[[str], list[str]], cwd: Path) -> tuple[list[Diagnostic], int]:
        """The diagnostics the baseline does not record, and how many it hid."""
        ordered = sorted(diagnostics, key=Diagnostic.sort_key)
        keys = fingerprints(ordered, lines_of, self.root(cwd), cwd)
        kept = [d for d, key in zip(ordered, keys) if key not in self.known]
        return kept, len(ordered) - len(kept)


def write(file: Path, diagnostics: list[Diagnostic], lines_of: Callable[[str], list[str]], cwd: Path) -> int:
    """Record ``diagnostics`` in the baseline ``file`` (atomically); how many."""
    ordered = sorted(diagnostics, key=Diagnostic.sort_key)
    root = Path(os.path.abspath(cwd / file)).parent
    findings = [
        {"path": path, "code": code, "fingerprint": fingerprint, "line": d.line, "message": d.message}
        for d, (path, code, fingerprint) in zip(ordered, fingerprints(ordered, lines_of, root, cwd))
    ]
    document = {"version": VERSION, "tool": "a2alint", "tool_version": __version__, "findings": findings}
    target = cwd / file
    target.parent.mkdir(parents=True, exist_ok=True)
    replace_file(target, (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
    return len(findings)


def lines_reader(results: Iterable[FileResult], paths: dict[str, Path]) -> Callable[[str], list[str]]:
    """``lines_of(display)`` for :func:`fingerprints`: the text each file was checked in
    (after fixes) when the run kept it, else the file as it is now (by its path in ``paths``)."""
    checked = {r.display: r for r in results}
    cache: dict[str, list[str]] = {}

    def lines_of(display: str) -> list[str]:
        if display not in cache:
            result = checked.get(display)
            text = result and (result.fixed if result.fixed is not None else result.original)
            if text is None:
                try:
                    text = decode(result.data if result and result.data else read_source(paths.get(display) or Path(display)))
                except OSError:
                    text = ""
            cache[display] = split_lines(text)
        return cache[display]

    return lines_of
