"""What a run can reuse: each file's facts and each file's findings, keyed by content.

Entries live in the project's ``.a2alint_cache/`` (with a ``.gitignore`` inside, like
ruff's), or where ``--cache-dir`` or ``$A2ALINT_CACHE_DIR`` say:

- *facts*: the model of a module (its facts without the syntax tree), keyed by the file's
  bytes, path and settings: what another module's analysis asks of it when the file is
  not parsed in this run (a pre-commit run on a few files, the language server);
- *findings*: a file's diagnostics, keyed the same way and valid only while every module
  of the project's A2A code is unchanged (a digest of their contents is kept with them):
  a finding can rest on any module the file's values come from or go to.

Every entry is signed with a secret kept outside the checked tree (in the user's cache
folder), and one whose signature does not match is a miss: a cache committed to a
repository, copied from another machine or edited by hand is never trusted, and facts
are only unpickled once signed. Even a signed entry is checked before it is used
(defence in depth: findings against the schema the engine writes, facts unpickled into
the model's classes only), and entries are read only from regular files of a bounded
size. Writes are atomic, so two runs can share the cache; an entry that cannot be read
back is a miss, never an error.
"""

from __future__ import annotations

import hashlib
import hmac
import io
import json
import os
import pickle
import re
import shutil
import stat
import tempfile
from collections import OrderedDict
from dataclasses import replace
from pathlib import Path
from typing import Mapping

from a2alint import __version__, model as facts_module
from a2alint.config import ConfigError, SettingsResolver
from a2alint.diagnostics import Diagnostic
from a2alint.runner import MAX_BYTES

CACHE_DIR = ".a2alint_cache"
#: Overrides where the cache lives (``--cache-dir`` overrides it in turn).
CACHE_DIR_VARIABLE = "A2ALINT_CACHE_DIR"
#: Larger entries are not read back (a forged or corrupt one could be anything).
MAX_ENTRY_BYTES = 64 * 1024 * 1024
#: The longest message, suggestion, label or path a findings entry may hold (the engine's
#: are a few hundred characters).
MAX_TEXT = 16 * 1024
#: What marks the cache's folder as a2alint's (``clean`` removes no other).
GITIGNORE = "# Created by a2alint\n*\n"
#: Control characters (terminal escapes among them) never appear in what the engine says.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
#: Nor in a fix's text, but for the line breaks, tabs and form feeds of source code.
_CONTROL_IN_SOURCE = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f]")


def cache_folder(resolver: SettingsResolver, given: str | None = None) -> Path:
    """Where the cache of a run from ``resolver.cwd`` lives: ``given`` (``--cache-dir``),
    else ``$A2ALINT_CACHE_DIR``, else ``.a2alint_cache`` at the project root (the folder of
    the config file in use, else the current one), so that a run from a subfolder shares
    the project's cache instead of starting one of its own."""
    chosen = given or os.environ.get(CACHE_DIR_VARIABLE)
    if chosen:
        return Path(os.path.abspath(resolver.cwd / chosen))
    try:
        settings = resolver.for_path(resolver.cwd)
    except ConfigError:  # reported by the run itself; the cache stays where it runs
        return resolver.cwd / CACHE_DIR
    return (settings.root if settings.config_path is not None else resolver.cwd) / CACHE_DIR


def _read_regular(path: Path, limit: int) -> bytes | None:
    """The bytes of ``path`` if it is a regular file of at most ``limit`` bytes; never
    through a symbolic link, never from a FIFO (it would block) or a device."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        handle = os.open(path, flags)
    except OSError:
        return None
    try:
        info = os.fstat(handle)
        if stat.S_ISREG(info.st_mode) and info.st_size <= limit:
            with os.fdopen(handle, "rb", closefd=False) as stream:
                data = stream.read(limit + 1)  # it may have grown since
            return data if len(data) <= limit else None
    except OSError:
        pass
    finally:
        os.close(handle)
    return None


def _secret() -> bytes | None:
    """The signing key of this user's caches, made on first use; None when it cannot be kept."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "a2alint"
    path = base / "cache-key"
    found = _read_key(path)
    if found is not None:
        return found
    try:
        base.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=base, prefix=".key-")
        with os.fdopen(handle, "wb") as stream:
            stream.write(os.urandom(32))
        os.chmod(temporary, 0o600)
        try:
            os.link(temporary, path)  # first writer wins; the others read its key
        except FileExistsError:
            pass
        finally:
            os.unlink(temporary)
    except OSError:
        return None
    return _read_key(path)


def _read_key(path: Path) -> bytes | None:
    data = _read_regular(path, 4096)
    return data if data is not None and len(data) >= 32 else None


class Cache:
    """The cache in ``folder`` (see :func:`cache_folder`), for a run that knows ``rules``;
    ``remember``: how many modules' facts to keep in memory as well, for a process that
    runs again and again (the language server)."""

    def __init__(self, folder: Path, rules: Mapping[str, type], remember: int = 0) -> None:
        self.folder = folder
        self.directory = folder / __version__
        self.rules = rules
        self.usable = True
        self._key: bytes | None = None
        self.remember = remember
        self._remembered: OrderedDict[str, object] = OrderedDict()  # key -> model, or its pickle

    @property
    def secret(self) -> bytes | None:
        if self._key is None and self.usable:
            self._key = _secret()
            self.usable = self._key is not None
        return self._key


    @staticmethod
    def key(data: bytes, display: str, fingerprint: str) -> str:
        digest = hashlib.sha256()
        for part in (__version__.encode(), fingerprint.encode(), display.encode("utf-8", "surrogateescape"), data):
            digest.update(len(part).to_bytes(8, "big"))
            digest.update(part)
        return digest.hexdigest()

    def _path(self, key: str, kind: str) -> Path:
        return self.directory / key[:2] / f"{key[2:]}.{kind}"

    # -- signed entries --
    def _read(self, key: str, kind: str) -> bytes | None:
        secret = self.secret
        if secret is None:
            return None
        raw = _read_regular(self._path(key, kind), MAX_ENTRY_BYTES)
        if raw is None:
            return None
        signature, payload = raw[:32], raw[32:]
        return payload if hmac.compare_digest(signature, _signature(secret, key, kind, payload)) else None

    def _write(self, key: str, kind: str, payload: bytes) -> None:
        secret = self.secret
        if secret is None or len(payload) + 32 > MAX_ENTRY_BYTES:  # one that would not be read back
            return
        path = self._path(key, kind)
        try:
            self._prepare(path.parent)
            handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
            try:
                with os.fdopen(handle, "wb") as stream:
                    stream.write(_signature(secret, key, kind, payload) + payload)
                os.replace(temporary, path)
            except BaseException:
                try:
                    os.unlink(temporary)
                except OSError:
                    pass
                raise
        except OSError:
            self.usable = False  # a read-only tree: lint on without caching

    def _prepare(self, folder: Path) -> None:
        if not self.folder.exists():
            self.folder.mkdir(parents=True, exist_ok=True)
            (self.folder / ".gitignore").write_text(GITIGNORE, encoding="utf-8")
        folder.mkdir(parents=True, exist_ok=True)

    # -- findings --
    def get(self, key: str, depends: str = "") -> list[Diagnostic] | None:
        """A file's diagnostics, if they were computed for the same project (``depends``)."""
        payload = self._read(key, "json")
        if payload is None:
            return None
        try:
            data = json.loads(payload)
            if not isinstance(data, dict) or data.get("depends") != depends or not isinstance(data.get("diagnostics"), list):
                return None
            return [_load(item, self.rules) for item in data["diagnostics"]]
        except (ValueError, RecursionError):
            return None

    def put(self, key: str, diagnostics: list[Diagnostic], depends: str = "") -> None:
        payload = json.dumps({"depends": depends, "diagnostics": [_dump(d) for d in diagnostics]})
        self._write(key, "json", payload.encode("utf-8"))

    # -- facts --
    def get_facts(self, key: str):
        """A module's model (facts only), as a run that parsed it kept it."""
        if key in self._remembered:
            self._remembered.move_to_end(key)
            found = self._remembered[key]
            if not isinstance(found, bytes):
                return found
            payload: bytes | None = found
        else:
            payload = self._read(key, "facts")
        if payload is None:
            return None
        try:
            model = _FactsUnpickler(io.BytesIO(payload)).load()
        except Exception:
            return None
        if not isinstance(model, facts_module.ModuleModel):
            return None
        self._keep(key, model)
        return model

    def put_facts(self, key: str, model) -> None:
        try:
            payload = pickle.dumps(model, protocol=pickle.HIGHEST_PROTOCOL)
        except (RecursionError, pickle.PicklingError, TypeError):
            return
        self._write(key, "facts", payload)
        self._keep(key, payload)  # the model itself holds the syntax tree: keep its facts

    def _keep(self, key: str, entry: object) -> None:
        if self.remember:
            self._remembered[key] = entry
            self._remembered.move_to_end(key)
            while len(self._remembered) > self.remember:
                self._remembered.popitem(last=False)


def _signature(secret: bytes, key: str, kind: str, payload: bytes) -> bytes:
    return hmac.new(secret, key.encode() + b"\0" + kind.encode() + b"\0" + payload, hashlib.sha256).digest()


class _FactsUnpickler(pickle.Unpickler):
    """Unpickles a module's facts and nothing else: the only names it resolves are the
    classes of :mod:`a2alint.model`, so a payload, even signed, calls no function (none
    that could run a command, allocate without bound or loop); what it builds is as
    large as the payload, which is bounded."""

    def find_class(self, module: str, name: str):
        found = getattr(facts_module, name, None) if module == facts_module.__name__ else None
        if isinstance(found, type) and found.__module__ == module:
            return found
        raise pickle.UnpicklingError(f"{module}.{name} is not a class of a module's facts")


def _dump(diagnostic: Diagnostic) -> dict:
    """The JSON output form plus what it leaves out (the fix's description and the code
    flow, shown in SARIF)."""
    entry = diagnostic.to_json()
    if diagnostic.fix:
        entry["fix_description"] = diagnostic.fix.description
    if diagnostic.code_flow:
        entry["code_flow"] = list(diagnostic.code_flow)
    return entry


def _load(entry: object, rules: Mapping[str, type]) -> Diagnostic:
    """The diagnostic ``entry`` holds, if it is one :func:`_dump` writes for one of
    ``rules``; ValueError otherwise (a wrong type, a field missing or unknown, a code,
    name or severity no rule has, text too long or with control characters)."""
    entry = _fields(entry, _DIAGNOSTIC, _DIAGNOSTIC_EXTRAS)
    rule = rules.get(entry["code"])
    if rule is None or (entry["rule"], entry["severity"]) != (rule.name, rule.severity):
        raise ValueError(f"not a finding of a known rule: {entry['code']!r:.40}")
    positions = [entry["line"], entry["column"], entry["end_line"], entry["end_column"]]
    texts = [entry["path"], entry["message"], *([entry["suggestion"]] if entry["suggestion"] is not None else [])]
    if entry["fix"] is not None:
        fix = _fields(entry["fix"], ("applicability", "edits"))
        if fix["applicability"] not in ("safe", "unsafe"):
            raise ValueError("not a fix's applicability")
        for edit in _list(fix["edits"]):
            edit = _fields(edit, ("content", "location", "end_location"))
            _text(edit["content"], MAX_BYTES, _CONTROL_IN_SOURCE)
            for place in (edit["location"], edit["end_location"]):
                positions += _fields(place, ("row", "column")).values()
        texts += [entry["fix_description"]] if "fix_description" in entry else []
    elif "fix_description" in entry:
        raise ValueError("a fix's description without a fix")
    for related in _list(entry["related"]):
        related = _fields(related, ("path", "line", "column", "label"))
        texts += [related["path"], related["label"]]
        positions += [related["line"], related["column"]]
    for value in positions:
        _position(value)
    for value in texts:
        _text(value)
    if any(type(step) is not int or not 0 <= step <= len(entry["related"]) for step in _list(entry.get("code_flow", []))):
        raise ValueError("not a code flow through the related places")
    diagnostic = Diagnostic.from_json(entry)
    if diagnostic.fix is not None and "fix_description" in entry:
        diagnostic = replace(diagnostic, fix=replace(diagnostic.fix, description=entry["fix_description"]))
    return diagnostic


#: The fields of a findings entry: what ``Diagnostic.to_json`` writes, and what ``_dump`` adds.
_DIAGNOSTIC = (
    "path", "line", "column", "end_line", "end_column", "code", "rule", "severity", "message", "suggestion", "fix", "related",
)
_DIAGNOSTIC_EXTRAS = ("fix_description", "code_flow")


def _fields(value: object, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> dict:
    """``value``, if it is an object with the ``required`` fields and no others than ``optional``."""
    if not isinstance(value, dict) or not set(required) <= value.keys() <= {*required, *optional}:
        raise ValueError(f"not an object with the fields {', '.join(required)}")
    return value


def _position(value: object) -> None:
    """``value`` is a 1-based line or column: an integer (``True`` is not one)."""
    if type(value) is not int or not 1 <= value < 2**31:
        raise ValueError(f"not a line or column: {value!r:.40}")


def _text(value: object, limit: int = MAX_TEXT, control: re.Pattern = _CONTROL) -> None:
    """``value`` is text as the engine writes it: a string of at most ``limit``
    characters, none of them ``control`` characters (a terminal escape, say)."""
    if not isinstance(value, str) or len(value) > limit or control.search(value):
        raise ValueError("not text the engine writes")


def _list(value: object) -> list:
    if not isinstance(value, list):
        raise ValueError("not a list")
    return value


def clean(folder: Path) -> bool:
    """Remove the cache ``folder``; whether there was one. ValueError for a folder the
    cache did not make (without its ``.gitignore``): ``--cache-dir`` may name any folder."""
    if not folder.exists():
        return False
    if _read_regular(folder / ".gitignore", 4096) != GITIGNORE.encode():
        raise ValueError(f"{folder} is not a cache a2alint made (it has no .gitignore of a2alint's): not removed")
    shutil.rmtree(folder, ignore_errors=True)
    return True
