"""What a run can reuse: each file's facts and each file's findings, keyed by content.

Entries live in the project's ``.a2alint_cache/`` (with a ``.gitignore`` inside, like
ruff's), or where ``--cache-dir`` or ``$A2ALINT_CACHE_DIR`` say:

- *facts*: the model of a module (its facts without the syntax tree), keyed by the file's
  bytes, path and settings: what another module's analysis asks of it when the file is
  not parsed in this run (a pre-commit run on a few files, the language server);
- *findings*: a file's diagnostics, keyed the same way and valid only while every module
  of the project's A2A code is unchanged (a digest of their contents is kept with them):
  a finding can rest on any module the file's values come from or go to;
- *stamps*: what the bytes of each file of the project told the last run (their digest,
  whether they may matter, their import statements), by the file's ``stat``: a run on a
  few files (pre-commit) reads no other file that has not changed since.

Every entry is signed with a secret kept outside the checked tree (in the user's cache
folder), and one whose signature does not match is a miss: a cache committed to a
repository, copied from another machine or edited by hand is never trusted, and facts
are only unpickled once signed; a cache folder git tracks is not used at all. Even a
signed entry is checked before it is used (defence in depth: findings against the
schema the engine writes, facts unpickled into the model's classes only), and entries
are read only from regular files of a bounded size. Writes are atomic, so two runs can
share the cache; an entry that cannot be read back is a miss, never an error.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import io
import json
import marshal
import os
import pickle
import re
import shutil
import stat
import struct
import sys
import tempfile
import time
from collections import OrderedDict
from dataclasses import replace
from pathlib import Path
from typing import Mapping

from a2alint import __version__
from a2alint.config import ConfigError, SettingsResolver
from a2alint.diagnostics import Diagnostic
from a2alint.paths import read_regular

# The facts' classes (a2alint.model) and the runner import libcst: they are imported where
# facts and findings are read back, so the command's --version and rule load without them.

CACHE_DIR = ".a2alint_cache"
#: Overrides where the cache lives (``--cache-dir`` overrides it in turn).
CACHE_DIR_VARIABLE = "A2ALINT_CACHE_DIR"
#: Larger entries are not read back (a forged or corrupt one could be anything).
MAX_ENTRY_BYTES = 64 * 1024 * 1024
#: The longest message, suggestion, label or path a findings entry may hold (the engine's
#: are a few hundred characters).
MAX_TEXT = 16 * 1024
#: A larger git index is not read: the cache is then used, its entries still signed.
MAX_INDEX_BYTES = 512 * 1024 * 1024
#: What marks the cache's folder as a2alint's (``clean`` removes no other).
GITIGNORE = "# Created by a2alint\n*\n"
#: Control characters (terminal escapes among them) never appear in what the engine says.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
#: Nor in a fix's text, but for the line breaks, tabs and form feeds of source code.
_CONTROL_IN_SOURCE = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f]")
#: The cache folders already warned about in this process (the server makes a cache per configuration).
_WARNED: set[Path] = set()


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


@functools.lru_cache(maxsize=None)
def build_id() -> str:
    """The version and a digest of this installation's code (``0.1.0+3f2a...``): two
    builds with one version string (a fork, an editable install being changed) never
    share cache entries. Its files are read once per process (about 2 ms)."""
    from a2alint import rules

    digest = hashlib.sha256()
    for package in (Path(__file__).parent, Path(rules.__file__).parent):
        for path in sorted(package.glob("*.py")):
            digest.update(f"{package.name}/{path.name}\0".encode())
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return f"{__version__}+{digest.hexdigest()[:16]}"


def _read_regular(path: Path, limit: int) -> bytes | None:
    """The bytes of ``path`` if it is a regular file of at most ``limit`` bytes, never
    through a symbolic link (see :func:`read_regular`); else None."""
    try:
        return read_regular(path, limit, follow_links=False)
    except OSError:
        return None


def _key_folder() -> Path | None:
    """Where this user's cache key lives: ``$XDG_CACHE_HOME/a2alint``, else
    ``~/.cache/a2alint``. A user without a home folder (``HOME`` unset and no passwd entry:
    a container's ``--user``) gets a private folder of their own in the temporary folder,
    as git and pip go on without one, and is told where; None when none can be had."""
    configured = os.environ.get("XDG_CACHE_HOME")
    if configured:
        return Path(configured) / "a2alint"
    try:
        return Path.home() / ".cache" / "a2alint"
    except (RuntimeError, KeyError):  # (KeyError: some Pythons let pwd's through)
        pass
    uid = os.getuid() if hasattr(os, "getuid") else None
    folder = Path(tempfile.gettempdir()) / f"a2alint-{uid if uid is not None else 'user'}"
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        info = folder.lstat()
    except OSError:
        return None
    if not stat.S_ISDIR(info.st_mode) or (uid is not None and info.st_uid != uid) or info.st_mode & 0o077:
        return None  # another user's, or open to others: its key could be theirs
    print(
        f"a2alint: warning: no home folder (HOME is not set and the user has no passwd entry): "
        f"the cache's signing key is kept in {folder}; set XDG_CACHE_HOME to choose another folder",
        file=sys.stderr,
    )
    return folder


def _secret() -> bytes | None:
    """The signing key of this user's caches, made on first use; None when it cannot be kept."""
    base = _key_folder()
    if base is None:
        return None
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
        self.directory = folder / build_id()
        self.rules = rules
        self.usable = True
        self._key: bytes | None = None
        self.remember = remember
        #: Whether findings are served from the cache (``--verbose`` checks every file, so
        #: that what it tells of each one is complete; they are still written).
        self.serves_findings = True
        self._remembered: OrderedDict[str, object] = OrderedDict()  # key -> model, or its pickle

    @property
    def secret(self) -> bytes | None:
        """The key entries are signed with; None when the cache is not used (git tracks its
        folder, or no key can be kept)."""
        if self._key is None and self.usable:
            self._key = None if self._tracked() else _secret()
            self.usable = self._key is not None
        return self._key

    def _tracked(self) -> bool:
        """Whether git tracks the folder: a cache that came with the repository is not
        this user's, and writing to it would change tracked files. Said once."""
        tracked = tracked_in_git(self.folder)
        if tracked is not None and self.folder not in _WARNED:
            _WARNED.add(self.folder)
            print(
                f"a2alint: warning: the cache folder {self.folder} is tracked by git; running without the cache "
                f"(untrack it with: git rm -r --cached {tracked})",
                file=sys.stderr,
            )
        return tracked is not None

    @staticmethod
    def key(content: bytes, display: str, fingerprint: str) -> str:
        """The key of a file's entries: ``content`` is the digest of its bytes (:func:`digest`)."""
        digest = hashlib.sha256()
        for part in (build_id().encode(), fingerprint.encode(), display.encode("utf-8", "surrogateescape"), content):
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
        """Make the folders of an entry. One that is a symbolic link is not written through
        (a repository could point its cache, or the version folder in it, anywhere); the
        project's own ``.a2alint_cache`` neither: a cache folder named on purpose may be one."""
        if not self.folder.exists():
            self.folder.mkdir(parents=True, exist_ok=True)
            (self.folder / ".gitignore").write_text(GITIGNORE, encoding="utf-8")
        links = [f for f in (self.directory, folder) if os.path.islink(f)]
        if os.path.islink(self.folder) and self.folder.name == CACHE_DIR:
            links.insert(0, self.folder)
        if links:
            print(f"a2alint: warning: the cache folder {links[0]} is a symbolic link; running without the cache", file=sys.stderr)
            raise OSError(f"{links[0]} is a symbolic link")
        for inside in (self.directory, folder):
            inside.mkdir(exist_ok=True)

    # -- findings --
    def get(self, key: str, depends: str = "") -> list[Diagnostic] | None:
        """A file's diagnostics, if they were computed for the same project (``depends``)."""
        payload = self._read(key, "json") if self.serves_findings else None
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
        from a2alint.model import ModuleModel

        try:
            model = _FactsUnpickler(io.BytesIO(payload)).load()
        except Exception:
            return None
        if not isinstance(model, ModuleModel):
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

    # -- stamps --
    def stamps(self) -> "Stamps":
        """What the last run learnt from the project's files, by their stamps."""
        payload = self._read(_STAMPS_KEY, "stamps")
        try:
            known = marshal.loads(payload) if payload is not None else {}
        except (ValueError, EOFError, TypeError):
            known = {}
        return Stamps(self, known if isinstance(known, dict) else {})

    def _keep(self, key: str, entry: object) -> None:
        if self.remember:
            self._remembered[key] = entry
            self._remembered.move_to_end(key)
            while len(self._remembered) > self.remember:
                self._remembered.popitem(last=False)


def digest(data: bytes) -> bytes:
    """The digest of a file's bytes that keys its entries."""
    return hashlib.sha256(data).digest()


_STAMPS_KEY = hashlib.sha256(b"stamps").hexdigest()
#: A file changed this recently (ns) is not stamped: another write within the same tick
#: of the file system's clock would leave its stamp as it is (git's "racily clean" entries).
RACY_NS = 2_000_000_000


def stamp_of(path: Path) -> tuple[int, ...] | None:
    """A file's ``stat`` as far as it tells a change: size, times and inode. Any write moves
    the change time, which no program can set back."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino, info.st_dev)


class Scanned:
    """What the bytes of one file tell before any parse, as far as a run asked: their
    :func:`digest`, whether they may matter (by the API settings the prefilter used), and
    their import statements. ``stamp``: the file's stamp when it was read, None when that
    is too recent to vouch for the bytes (see :data:`RACY_NS`)."""

    __slots__ = ("stamp", "digest", "matters", "statements")

    def __init__(self, stamp: tuple[int, ...] | None, digest: bytes | None = None, matters: dict | None = None, statements: tuple | None = None) -> None:
        self.stamp, self.digest, self.matters, self.statements = stamp, digest, matters if matters is not None else {}, statements

    def entry(self) -> tuple:
        return (self.stamp, self.digest, self.matters, self.statements)


class Stamps:
    """The :class:`Scanned` record of each project file the last run read, by path: a file
    whose stamp is the one recorded is not read again unless its bytes are needed (parsed,
    or scanned in a way the record does not cover). Kept whole for each run: the records of
    the files it saw, as the last run that wrote them left them."""

    def __init__(self, cache: Cache, known: dict) -> None:
        self.cache, self.known = cache, known

    def vouched(self, path: Path, limit: int) -> Scanned | None:
        """The record of ``path`` if its stamp is the recorded one, and it is small enough to check."""
        entry = self.known.get(str(path))
        if not isinstance(entry, tuple) or len(entry) != 4:
            return None
        stamp = stamp_of(path)
        if stamp is None or entry[0] != stamp or stamp[0] > limit:
            return None
        if not (isinstance(entry[1], (bytes, type(None))) and isinstance(entry[2], dict) and isinstance(entry[3], (tuple, type(None)))):
            return None  # not what this version writes
        return Scanned(entry[0], entry[1], dict(entry[2]), entry[3])  # (its answers may grow: compared at save)

    @staticmethod
    def stamped(path: Path) -> Scanned:
        """A record for ``path`` about to be read (stamped before the read: a write during it
        changes the stamp; never once a write may still go unseen)."""
        stamp = stamp_of(path)
        if stamp is not None and time.time_ns() - max(stamp[1], stamp[2]) < RACY_NS:
            stamp = None
        return Scanned(stamp)

    def save(self, records: Mapping[Path, Scanned]) -> None:
        """Keep ``records`` for the next run (written only when they differ from the last)."""
        entries = {str(path): record.entry() for path, record in records.items() if record.stamp is not None}
        if entries != self.known:
            self.cache._write(_STAMPS_KEY, "stamps", marshal.dumps(entries))
            self.known = entries


def _signature(secret: bytes, key: str, kind: str, payload: bytes) -> bytes:
    return hmac.new(secret, key.encode() + b"\0" + kind.encode() + b"\0" + payload, hashlib.sha256).digest()


class _FactsUnpickler(pickle.Unpickler):
    """Unpickles a module's facts and nothing else: the only names it resolves are the
    classes of :mod:`a2alint.model`, so a payload, even signed, calls no function (none
    that could run a command, allocate without bound or loop); what it builds is as
    large as the payload, which is bounded."""

    def find_class(self, module: str, name: str):
        from a2alint import model as facts_module

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
    from a2alint.runner import MAX_BYTES

    entry = _fields(entry, _DIAGNOSTIC, _DIAGNOSTIC_EXTRAS)
    rule = rules.get(entry["code"]) if isinstance(entry["code"], str) else None
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


# -- git --
def tracked_in_git(folder: Path) -> str | None:
    """``folder``'s path in the git work tree that holds it, if git tracks it or anything
    in it; read from the work tree's index (git is not run). None when no index says so,
    or none can be read."""
    try:
        found = _work_tree(folder)
        if found is None:
            return None
        relative, git_dir = found
        name = b"" if relative == "." else relative.encode("utf-8", "surrogateescape")
        # A split index keeps most entries in a shared index beside it, named in its
        # ``link`` extension: with no shared index there, no extension needs reading.
        links = any(git_dir.glob("sharedindex.*"))
        index, deleted = _read_regular(git_dir / "index", MAX_INDEX_BYTES), b""
        while index is not None:
            tracks, shared = _index_tracks(index, name, links, deleted)
            if tracks:
                return relative
            if shared is None:
                break
            (file_name, deleted), links = shared, False  # a shared index is not split again
            index = _read_regular(git_dir / file_name, MAX_INDEX_BYTES)
    except (OSError, ValueError, IndexError, struct.error):  # not an index git would read
        pass
    return None


def _work_tree(folder: Path) -> tuple[str, Path] | None:
    """``folder``'s path in the nearest git work tree above it (``/``-separated) and that
    work tree's git directory (``.git``, or where a ``.git`` file points: a linked work
    tree's, a submodule's)."""
    for top in (folder, *folder.parents):
        git_dir = top / ".git"
        if git_dir.is_file():
            pointer = (_read_regular(git_dir, 4096) or b"").decode("utf-8", "surrogateescape")
            if not pointer.startswith("gitdir:"):
                return None
            git_dir = top / pointer[len("gitdir:") :].strip()
        elif not git_dir.is_dir():
            continue
        return folder.relative_to(top).as_posix(), git_dir
    return None


#: What a split index says of its shared index: its file name, and the bitmap of its entries deleted.
SharedIndex = tuple[str, bytes]


def _index_tracks(index: bytes, name: bytes, links: bool, deleted: bytes) -> tuple[bool, SharedIndex | None]:
    """Whether a git index (format 2, 3 or 4: gitformat-index(5)) has an entry at ``name``
    or under it, but for the entries ``deleted`` marks; and, when ``links``, what its
    ``link`` extension says of the shared index it was split from. ValueError when it is
    not such an index. Object names may be SHA-1 or SHA-256: the size that keeps every
    entry's recorded name length true is the one the index uses."""
    signature, version, count = struct.unpack_from(">4sII", index)
    if signature != b"DIRC" or version not in (2, 3, 4):
        raise ValueError("not a git index")
    # Formats 2 and 3 store each path whole: with neither the folder's path nor a sparse
    # index's extension (whose folder entries may hold it) in the bytes, no entry is there.
    if version < 4 and not links and name not in index and b"sdir" not in index:
        return False, None
    for hash_size in (20, 32):
        try:
            return _scan_index(index, version, count, hash_size, name, links, deleted)
        except (ValueError, IndexError, struct.error):
            continue
    raise ValueError("not a git index")


def _scan_index(
    index: bytes, version: int, count: int, hash_size: int, name: bytes, links: bool, deleted: bytes
) -> tuple[bool, SharedIndex | None]:
    """:func:`_index_tracks`, for object names of ``hash_size`` bytes. Entries are sorted
    by path, bytewise, so the paths that begin with ``name`` are all in one run: past it,
    without extensions to read, there is nothing more to find."""
    inside = name + b"/" if name else b""
    position, path = 12, b""
    for number in range(count):
        start = position
        flags = index[start + 40 + hash_size] << 8 | index[start + 41 + hash_size]  # after the stat data and object name
        position = start + 42 + hash_size + (2 if version >= 3 and flags & 0x4000 else 0)
        if version == 4:  # the previous path, cut by a number of bytes at its end, then the rest
            cut, position = (index[position], position + 1) if index[position] < 0x80 else _varint(index, position)
            end = index.index(b"\0", position)
            if cut > len(path):
                raise ValueError("bad path compression")
            path = path[: len(path) - cut] + index[position:end]
            position = end + 1
        else:  # the path, then 1 to 8 NULs to a multiple of 8 bytes
            end = index.index(b"\0", position)
            path = index[position:end]
            position = start + (end - start + 8) // 8 * 8
        if flags & 0xFFF != len(path) and flags & 0xFFF != 0xFFF:  # 0xFFF: that long or longer
            raise ValueError("an entry's name length is not its own")
        if number >> 3 < len(deleted) and deleted[number >> 3] >> (number & 7) & 1:
            continue
        if path.startswith(name):
            if len(path) == len(name) or path.startswith(inside):  # the folder itself (a link, say), or in it
                return True, None
        elif path > name:
            if not links:
                return False, None
        elif path.endswith(b"/") and inside.startswith(path):  # a sparse index's folder that holds it
            return True, None
    while links and position + 8 <= len(index) - hash_size:  # the extensions, then the checksum
        signature, size = struct.unpack_from(">4sI", index, position)
        if signature == b"link":  # the shared index's object name, then its delete bitmap
            shared = index[position + 8 : position + 8 + hash_size]
            return False, (f"sharedindex.{shared.hex()}", _ewah_bits(index, position + 8 + hash_size))
        position += 8 + size
    return False, None


def _varint(data: bytes, position: int) -> tuple[int, int]:
    """Git's offset encoding (varint.c): the value and where the bytes after it start."""
    byte = data[position]
    value = byte & 0x7F
    while byte & 0x80:
        position += 1
        byte = data[position]
        value = ((value + 1) << 7) | (byte & 0x7F)
    return value, position + 1


def _ewah_bits(data: bytes, position: int) -> bytes:
    """Git's EWAH bitmap at ``position`` (ewah/ewah_io.c) as a plain one, bit ``n`` in bit
    ``n % 8`` of byte ``n // 8``. It holds its size in bits and in 64-bit words, then the
    words: each marker word says how many words of one bit follow (bits 1 to 32; the bit
    in bit 0) and how many literal words after them (bits 33 to 63)."""
    bits, words = struct.unpack_from(">II", data, position)
    if bits > MAX_INDEX_BYTES // 62:  # more than a shared index within the bound has entries
        raise ValueError("not a delete bitmap")
    values = struct.unpack_from(f">{words}Q", data, position + 8)
    bitmap = bytearray((bits + 63) // 64 * 8)
    byte = item = 0
    while item < words and byte < len(bitmap):
        marker = values[item]
        run, literals = (marker >> 1) & 0xFFFFFFFF, marker >> 33
        end = min(byte + 8 * run, len(bitmap))
        if marker & 1:
            bitmap[byte:end] = b"\xff" * (end - byte)
        byte = end
        for word in values[item + 1 : item + 1 + literals]:
            end = min(byte + 8, len(bitmap))
            bitmap[byte:end] = word.to_bytes(8, "little")[: end - byte]
            byte = end
        item += 1 + literals
    return bytes(bitmap)


def clean(folder: Path) -> bool:
    """Remove the cache ``folder``; whether there was one. ValueError for a folder the
    cache did not make (without its ``.gitignore``): ``--cache-dir`` may name any folder."""
    if not folder.exists():
        return False
    if _read_regular(folder / ".gitignore", 4096) != GITIGNORE.encode():
        raise ValueError(f"{folder} is not a cache a2alint made (it has no .gitignore of a2alint's): not removed")
    shutil.rmtree(folder, ignore_errors=True)
    return True
