"""Per-file results cached by content, effective settings and a2alint version.

Entries live in ``.a2alint_cache/`` (with a ``.gitignore`` inside, like
ruff's). Writes are atomic, so two runs can share the cache; an entry that
cannot be read back is a miss, never an error.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from dataclasses import replace
from pathlib import Path

from a2alint import __version__
from a2alint.diagnostics import Diagnostic

CACHE_DIR = ".a2alint_cache"


class Cache:
    def __init__(self, root: Path) -> None:
        self.directory = root / CACHE_DIR / __version__
        self.usable = True

    @staticmethod
    def key(data: bytes, display: str, fingerprint: str) -> str:
        digest = hashlib.sha256()
        for part in (__version__.encode(), fingerprint.encode(), display.encode("utf-8", "surrogateescape"), data):
            digest.update(len(part).to_bytes(8, "big"))
            digest.update(part)
        return digest.hexdigest()

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key[2:]}.json"

    def get(self, key: str) -> list[Diagnostic] | None:
        try:
            data = json.loads(self._path(key).read_text(encoding="utf-8"))
            if not isinstance(data, list):
                return None
            return [_load(item) for item in data]
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None

    def put(self, key: str, diagnostics: list[Diagnostic]) -> None:
        if not self.usable:
            return
        path = self._path(key)
        try:
            self._prepare(path.parent)
            handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                json.dump([_dump(d) for d in diagnostics], stream)
            os.replace(temporary, path)
        except OSError:
            self.usable = False  # a read-only tree: lint on without caching

    def _prepare(self, folder: Path) -> None:
        top = self.directory.parent
        if not top.exists():
            top.mkdir(parents=True, exist_ok=True)
            (top / ".gitignore").write_text("# Created by a2alint\n*\n", encoding="utf-8")
        folder.mkdir(parents=True, exist_ok=True)


def _dump(diagnostic: Diagnostic) -> dict:
    """The JSON output form plus what it leaves out (the fix's description and the code
    flow, shown in SARIF)."""
    entry = diagnostic.to_json()
    if diagnostic.fix:
        entry["fix_description"] = diagnostic.fix.description
    if diagnostic.code_flow:
        entry["code_flow"] = list(diagnostic.code_flow)
    return entry


def _load(entry: dict) -> Diagnostic:
    diagnostic = Diagnostic.from_json(entry)
    if diagnostic.fix and entry.get("fix_description"):
        diagnostic = replace(diagnostic, fix=replace(diagnostic.fix, description=str(entry["fix_description"])))
    return diagnostic


def clean(root: Path) -> bool:
    """Remove the cache under ``root``; whether there was one."""
    folder = root / CACHE_DIR
    if not folder.exists():
        return False
    shutil.rmtree(folder, ignore_errors=True)
    return True
