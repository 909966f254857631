"""Settings: defaults, ``[tool.a2alint]`` files and command-line overrides.

Precedence is the command line (its options over its ``--config KEY=VALUE``
settings) over the nearest config file over the file it extends over defaults. The
nearest config of a file is the first of ``.a2alint.toml``, ``a2alint.toml``
or a ``pyproject.toml`` with a ``[tool.a2alint]`` table, looking upward from
the file's directory. A bad file is a :class:`ConfigError` naming the file,
the key and what was expected; the command line turns it into exit 2.
"""

from __future__ import annotations

import hashlib
import json
import operator
import re
import shlex
import sys
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable

from a2alint import __version__
from a2alint.globs import Patterns, made_absolute, matched, unreadable_pattern
from a2alint.paths import nearest, read_regular, resolved
from a2alint.reporters import FORMATS

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

CONFIG_NAMES = (".a2alint.toml", "a2alint.toml", "pyproject.toml")
ROLES = ("card-fetch", "send", "get-task", "cancel", "subscribe", "verify-signature", "contract-capture")
DEFAULT_EXCLUDE = (
    ".bzr", ".direnv", ".eggs", ".git", ".hg", ".ipynb_checkpoints", ".mypy_cache", ".nox",
    ".pants.d", ".pytest_cache", ".pytype", ".ruff_cache", ".a2alint_cache", ".svn", ".tox",
    ".venv", ".vscode", "__pypackages__", "__pycache__", "_build", "buck-out", "build", "dist",
    "node_modules", "site-packages", "venv",
)


class ConfigError(Exception):
    """A configuration problem the user must fix; printed without a traceback."""


class SelectionError(ConfigError):
    """Rule selectors that name no rule."""


@dataclass(frozen=True)
class Layer:
    """One source of rule selection: the config file or the command line."""

    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()


#: The selection before any config or option: every rule, built-in or an installed
#: plug-in's (flake8's convention), but those that are preview or opt-in.
DEFAULT_LAYER = Layer(select=("ALL",))

#: Why a selection that enables no rule is an error (exit 2), not a run that passes.
NOTHING_CHECKED = "an empty selection checks nothing"

#: The largest ``max-file-size``: a file is read whole, and parsed.
MAX_FILE_SIZE_LIMIT = 1 << 30
#: The default ``max-file-size``: 1 MiB, far above any hand-written client module.
DEFAULT_MAX_FILE_SIZE = 1024 * 1024


@dataclass(frozen=True)
class Settings:
    root: Path
    config_path: Path | None = None
    layers: tuple[Layer, ...] = (DEFAULT_LAYER,)
    preview: bool = False
    exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    extend_exclude: tuple[str, ...] = ()
    extend_include: tuple[str, ...] = ()
    respect_gitignore: bool = True
    #: Apply the excludes to paths named on the command line too (``--force-exclude``).
    force_exclude: bool = False
    #: Files larger than this are not parsed: one that may hold A2A code is an ``AC000``.
    max_file_size: int = DEFAULT_MAX_FILE_SIZE
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    #: Folders the project's modules are imported from that the layout does not show
    #: (``src``: absolute paths), besides those found (see :class:`~a2alint.project.ModuleIndex`).
    src: tuple[Path, ...] = ()
    rule_options: dict[str, dict[str, Any]] = field(default_factory=dict, hash=False, compare=False)
    api: dict[str, tuple[str, ...]] = field(default_factory=dict, hash=False, compare=False)
    #: ``output-format``: the report's format when ``--output-format`` does not say (None: text).
    output_format: str | None = None
    #: Where the settings came from, each over the ones before it (for ``--show-settings``).
    sources: tuple[str, ...] = field(default=(), compare=False)

    # -- rule selection --
    def enabled_codes(self, registry: dict[str, type]) -> frozenset[str]:
        """Codes that run, by ruff's rules: later layers win, the more specific selector wins."""
        check_selectors(
            (s for layer in self.layers for s in (*(layer.select or ()), *layer.extend_select, *layer.ignore)), registry
        )
        enabled: set[str] = set()
        for layer in self.layers:
            positives = (*(layer.select or ()), *layer.extend_select)
            base = set() if layer.select is not None else set(enabled)
            for code, rule in registry.items():
                plus = _best_match(code, positives)
                minus = _best_match(code, layer.ignore)
                explicit = code in positives
                if minus >= 0 and minus >= plus:
                    base.discard(code)
                elif plus >= 0 and (explicit or not _needs_explicit(rule, self.preview)):
                    base.add(code)
            enabled = base
        if not enabled:  # as an empty selector is: a run that checks nothing must not pass
            where = ", ".join(self.sources) or "the defaults"
            raise SelectionError(f"{where}: no rule is left enabled, and {NOTHING_CHECKED}; select a rule or ignore fewer")
        return frozenset(enabled)

    def ignored_for(self, path: Path) -> set[str]:
        """Codes that ``per-file-ignores`` switches off for ``path``."""
        codes: set[str] = set()
        for pattern, selectors in self.per_file_ignores:
            if matches(path, pattern, self.root):
                codes.update(selectors)
        return codes

    def is_excluded(self, path: Path, is_dir: bool) -> bool:
        return matched(self._exclusions, path, is_dir)

    @cached_property
    def _exclusions(self) -> tuple[Patterns, ...]:
        return Patterns.configured((*self.exclude, *self.extend_exclude), self.root)

    def is_included(self, path: Path) -> bool:
        """``path`` (a file) is one of the ``extend-include`` patterns'."""
        return matched(self._inclusions, path, is_dir=False)

    @cached_property
    def _inclusions(self) -> tuple[Patterns, ...]:
        return Patterns.configured(self.extend_include, self.root)

    def is_excluded_with_parents(self, path: Path) -> bool:
        """For a path named on the command line: excluded itself or below an excluded folder."""
        absolute, root = resolved(path), resolved(self.root)
        inside = [p for p in (absolute, *absolute.parents) if p.is_relative_to(root) and p != root]
        return any(
            self.is_excluded(p, p != absolute or p.is_dir())
            for p in (inside if absolute.is_relative_to(root) else [absolute])
        )

    def with_overrides(self, overrides: "Overrides") -> "Settings":
        changes: dict[str, Any] = {}
        if overrides.layer != Layer():
            changes["layers"] = (*self.layers, overrides.layer)
        if overrides.preview is not None:
            changes["preview"] = overrides.preview
        if overrides.force_exclude is not None:
            changes["force_exclude"] = overrides.force_exclude
        if overrides.extend_exclude:  # relative to the current directory, not to the config's
            command_line = (made_absolute(pattern, Path.cwd()) for pattern in overrides.extend_exclude)
            changes["extend_exclude"] = (*self.extend_exclude, *command_line)
        if changes:
            changes["sources"] = (*self.sources, f"command line: {overrides.as_options()}")
        return replace(self, **changes) if changes else self

    def inherited_by(self, path: Path) -> "Settings":
        """These settings as the start of the config file ``path`` that extends them: rooted
        at its folder, their path patterns still meaning the paths they meant from here."""

        def anchored(patterns: tuple[str, ...]) -> tuple[str, ...]:
            return tuple(made_absolute(pattern, self.root) for pattern in patterns)

        return replace(
            self,
            root=path.parent,
            config_path=path,
            exclude=anchored(self.exclude),
            extend_exclude=anchored(self.extend_exclude),
            extend_include=anchored(self.extend_include),
            per_file_ignores=tuple((made_absolute(pattern, self.root), codes) for pattern, codes in self.per_file_ignores),
        )

    def fingerprint(self, enabled: Iterable[str]) -> str:
        """What changes the findings of a file: for the cache key."""
        data = {
            "enabled": sorted(enabled),
            "preview": self.preview,
            "max_file_size": self.max_file_size,
            "per_file_ignores": self.per_file_ignores,
            "src": [str(folder) for folder in self.src],
            "rules": self.rule_options,
            "api": self.api,
        }
        return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()


@dataclass(frozen=True)
class Overrides:
    """What the command line says about settings."""

    layer: Layer = Layer()
    preview: bool | None = None
    extend_exclude: tuple[str, ...] = ()
    force_exclude: bool | None = None
    #: ``--config KEY=VALUE`` settings: (how the command line gave it, the table it reads as).
    tables: tuple[tuple[str, dict[str, Any]], ...] = ()

    def as_options(self) -> str:
        """The options besides ``tables``, as the command line spells them."""
        lists = (
            ("--select", self.layer.select or ()),
            ("--extend-select", self.layer.extend_select),
            ("--ignore", self.layer.ignore),
            ("--extend-exclude", self.extend_exclude),
        )
        words = [f"{option} {','.join(values)}" for option, values in lists if values]
        if self.preview is not None:
            words.append("--preview" if self.preview else "--no-preview")
        if self.force_exclude is not None:
            words.append("--force-exclude" if self.force_exclude else "--no-force-exclude")
        return " ".join(words)


def _needs_explicit(rule: type, preview: bool) -> bool:
    return bool(getattr(rule, "opt_in", False)) or (bool(getattr(rule, "preview", False)) and not preview)


def _best_match(code: str, selectors: Iterable[str]) -> int:
    """Length of the most specific selector matching ``code`` (``ALL`` is 0), or -1."""
    best = -1
    for selector in selectors:
        if selector == "ALL":
            best = max(best, 0)
        elif code.startswith(selector):
            best = max(best, len(selector))
    return best


def check_selectors(selectors: Iterable[str], registry: dict[str, type]) -> None:
    """Raise a :class:`SelectionError` that names every selector matching no rule."""
    unknown = list(dict.fromkeys(s for s in selectors if s != "ALL" and not any(c.startswith(s) for c in registry)))
    if unknown:
        raise SelectionError(f"unknown rule selector{'s' if len(unknown) > 1 else ''}: {', '.join(unknown)}")


def matches(path: Path, pattern: str, root: Path) -> bool:
    """Whether the ``per-file-ignores`` pattern (relative to ``root``) covers the file
    ``path``: as a ``.gitignore`` line would (see :mod:`a2alint.globs`), or with a leading
    ``!``, every file the rest does not match (ruff's meaning: a single pattern has nothing
    to take back)."""
    negated = pattern.startswith("!")
    return negated != matched(Patterns.configured((pattern.removeprefix("!"),), root), path, is_dir=False)


# --- reading files -------------------------------------------------------------------

_KEYS: dict[str, str] = {
    "select": "a list of rule codes or prefixes",
    "extend-select": "a list of rule codes or prefixes",
    "ignore": "a list of rule codes or prefixes",
    "preview": "true or false",
    "exclude": "a list of glob patterns",
    "extend-exclude": "a list of glob patterns",
    "extend-include": "a list of glob patterns",
    "respect-gitignore": "true or false",
    "force-exclude": "true or false",
    "max-file-size": "a positive number of bytes up to 1 GiB (1073741824), e.g. 4194304 for 4 MiB",
    "per-file-ignores": "a table of glob pattern = list of rule codes",
    "src": "a list of folders the project's modules are imported from, relative to the config file",
    "rules": "a table of [tool.a2alint.rules.CODE] option tables",
    "api": "a table of role = list of qualified-name patterns",
    "extend": "the path of a config file to inherit settings from, relative to this one",
    "required-version": "a version or comma-separated version clauses, e.g. '>=0.1' or '0.1.0'",
    "output-format": f"one of: {', '.join(FORMATS)}",
}


def _toml(source: str, text: str) -> dict[str, Any]:
    """``text`` read as TOML. tomllib recurses once per nested array or inline table:
    a document nested deeper than the recursion limit allows is refused as malformed."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{source}: not valid TOML: {error}") from None
    except RecursionError:
        raise ConfigError(f"{source}: not valid TOML: nested too deeply to read") from None


#: The largest config file read: far beyond any real one (a pyproject.toml is kilobytes).
MAX_CONFIG_BYTES = 16 * 1024 * 1024


def _read(path: Path) -> bytes:
    """The bytes of the config file ``path``: a regular file of at most
    :data:`MAX_CONFIG_BYTES` (a FIFO or ``/dev/zero`` named as one is refused, not read)."""
    try:
        return read_regular(path, MAX_CONFIG_BYTES)
    except OSError as error:
        raise ConfigError(f"{path}: cannot read: {error.strerror}") from None


def _table_in(path: Path, data: bytes) -> dict[str, Any] | None:
    """The a2alint table of the config file ``path`` holding ``data``; None for a
    pyproject.toml without one."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ConfigError(f"{path}: not UTF-8, as TOML must be: {error}") from None
    if path.name != "pyproject.toml":
        return _toml(str(path), text)  # a2alint.toml holds the settings at its top level, like ruff.toml
    document = _toml(str(path), _own_lines(text) or text)
    tool = document.get("tool", {})
    if not isinstance(tool, dict):
        raise ConfigError(f"{path}: key 'tool': expected a table, got {tool!r}")
    table = tool.get("a2alint")
    if table is not None and not isinstance(table, dict):
        raise ConfigError(f"{path}: key 'tool.a2alint': expected a table, got {table!r}")
    return table


_TABLE_HEADER = re.compile(r"[ \t]*\[\[?[ \t]*([A-Za-z0-9_.\- \t]+?)[ \t]*\]\]?[ \t]*(?:#.*)?")


def _own_lines(text: str) -> str | None:
    """``text`` (a pyproject.toml) with every line outside its ``[tool.a2alint...]`` tables
    blanked (lines keep their numbers, for errors), so that other tools' tables cost
    nothing to read: tomllib is quadratic in a dotted key's parts (66 s for one). None when
    that cannot be done exactly: a multi-line string, a line starting with ``[`` that is no
    plain table header, or the name a2alint outside those tables (``[tool]`` with
    ``a2alint = {...}``, a dotted key): then the whole text is read."""
    if "'''" in text or '"""' in text:
        return None
    kept, ours = [], False
    for line in text.split("\n"):
        if line.lstrip(" \t").startswith("["):
            header = _TABLE_HEADER.fullmatch(line.rstrip("\r"))
            if header is None:
                return None
            name = re.sub(r"[ \t]", "", header.group(1))
            ours = name == "tool.a2alint" or name.startswith("tool.a2alint.")
        elif not ours and ("a2alint" in line or re.match(r"[ \t]*[\"']?tool\b", line)):
            return None  # (a key of a2alint's table, or one that may make `tool` no table)
        kept.append(line if ours else "")
    return "\n".join(kept)


def _configures_a2alint(pyproject: Path) -> bool:
    """Whether a pyproject.toml holds a ``[tool.a2alint]`` table, however TOML spells it
    (a table header, a dotted key, an inline table under ``[tool]``): the parsed document
    decides. Bytes without the name in them cannot hold it, and are not parsed, unless an
    escape in a quoted key (``"\\u0061"``) or an encoding other than UTF-8 (UTF-16's NUL
    bytes) could be hiding it."""
    data = _read(pyproject)
    if not any(mark in data for mark in (b"a2alint", b"\\u", b"\\U", b"\0")):
        return False
    return _table_in(pyproject, data) is not None


def _chain(path: Path) -> list[tuple[Path, dict[str, Any]]]:
    """The config file ``path`` and the files it extends (``extend``), each with its
    table: the one extended by all the others first."""
    chain: list[tuple[Path, dict[str, Any]]] = []
    while True:
        table = _table_in(path, _read(path)) or {}
        chain.append((path, table))
        if "extend" not in table:
            return chain[::-1]
        extended = table["extend"]
        if not isinstance(extended, str) or not extended:
            raise ConfigError(f"{path}: key 'extend': expected {_KEYS['extend']}, got {extended!r}")
        target = resolved(path.parent / extended)
        seen = [file for file, _ in chain]
        if target in seen:
            cycle = " -> ".join(str(file) for file in (*seen[seen.index(target):], target))
            raise ConfigError(f"{path}: key 'extend': {extended} closes a cycle: {cycle}")
        if not _is_file(target):
            raise ConfigError(f"{path}: key 'extend': {target}: config file not found")
        path = target


def _is_file(path: Path) -> bool:
    """``path.is_file()``, false for a name the system refuses (longer than it allows)."""
    try:
        return path.is_file()
    except OSError:
        return False


def _string_list(source: str, key: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{source}: key '{key}': expected {_KEYS.get(key, 'a list of strings')}, got {value!r}")
    return tuple(value)


def _bool(source: str, key: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(f"{source}: key '{key}': expected true or false, got {value!r}")
    return value


def settings_from_table(
    path: Path, table: dict[str, Any], registry: dict[str, type], base: Settings | None = None
) -> Settings:
    """Validate ``table`` (from ``path``) into Settings rooted at its folder: over
    ``base``, the settings of the file it extends, else over the defaults."""
    if base is None:
        return _applied(str(path), table, registry, Settings(root=path.parent, config_path=path), path.parent)
    return _applied(
        str(path), table, registry, base.inherited_by(path), path.parent, f"{path}, which extends {base.config_path}"
    )


def _applied(
    source: str, table: dict[str, Any], registry: dict[str, type], settings: Settings, folder: Path,
    shown_as: str | None = None,
) -> Settings:
    """``settings`` with what ``table`` (from ``source``: a file, or a setting on the
    command line) sets, its paths relative to ``folder``; every problem names ``source`` and the key. A key set replaces
    the one before, but a selection is one more layer (as on the command line), the
    ``extend-*`` lists add to theirs and the tables (``per-file-ignores``, ``rules``,
    ``api``) take their entries one by one. ``shown_as``: ``source`` in ``sources``."""
    if "required-version" in table:  # before any key this a2alint may not know
        _require_version(source, table["required-version"])
    for key in table:
        if key not in _KEYS:
            raise ConfigError(f"{source}: unknown key '{key}' in [tool.a2alint]; expected one of: {', '.join(_KEYS)}")

    def strings(key: str) -> tuple[str, ...]:
        return _string_list(source, key, table.get(key, []))

    layer = Layer(
        select=strings("select") if "select" in table else None,
        extend_select=strings("extend-select"),
        ignore=strings("ignore"),
    )
    per_file = table.get("per-file-ignores", {})
    if not isinstance(per_file, dict):
        raise ConfigError(f"{source}: key 'per-file-ignores': expected {_KEYS['per-file-ignores']}")
    per_file_ignores = tuple(
        (glob, _string_list(source, f"per-file-ignores.{glob}", codes)) for glob, codes in per_file.items()
    )
    patterns = [(key, strings(key)) for key in ("exclude", "extend-exclude", "extend-include")]
    for key, globs in [*patterns, *((f"per-file-ignores.{glob}", (glob.removeprefix("!"),)) for glob, _ in per_file_ignores)]:
        unreadable = unreadable_pattern(globs)
        if unreadable is not None:
            raise ConfigError(f"{source}: key '{key}': {unreadable!r} is not a path pattern (git would match nothing with it)")
    selectors = [("select", layer.select or ()), ("extend-select", layer.extend_select), ("ignore", layer.ignore)]
    selectors += [(f"per-file-ignores.{glob}", codes) for glob, codes in per_file_ignores]
    if layer.select == ():
        raise ConfigError(f"{source}: key 'select': {NOTHING_CHECKED}; name rule codes, or remove the key")
    for key, values in selectors:
        if any(not value.strip() for value in values):
            raise ConfigError(f"{source}: key '{key}': empty rule selector")
        try:
            check_selectors(values, registry)
        except SelectionError as error:
            raise ConfigError(f"{source}: key '{key}': {error}") from None
    changes: dict[str, Any] = {
        "sources": (*settings.sources, shown_as or source),
        "extend_exclude": (*settings.extend_exclude, *strings("extend-exclude")),
        "extend_include": (*settings.extend_include, *strings("extend-include")),
        "per_file_ignores": tuple({**dict(settings.per_file_ignores), **dict(per_file_ignores)}.items()),
        "rule_options": _merged(settings.rule_options, _rule_options(source, table.get("rules", {}), registry)),
        "api": {**settings.api, **_api(source, table.get("api", {}))},
    }
    if layer != Layer():
        changes["layers"] = (*settings.layers, layer)
    if "preview" in table:
        changes["preview"] = _bool(source, "preview", table["preview"])
    if "respect-gitignore" in table:
        changes["respect_gitignore"] = _bool(source, "respect-gitignore", table["respect-gitignore"])
    if "force-exclude" in table:
        changes["force_exclude"] = _bool(source, "force-exclude", table["force-exclude"])
    if "exclude" in table:
        changes["exclude"] = strings("exclude")
    if "src" in table:
        changes["src"] = _folders(source, strings("src"), folder)
    if "output-format" in table:
        if table["output-format"] not in FORMATS:
            raise ConfigError(f"{source}: key 'output-format': expected {_KEYS['output-format']}, got {table['output-format']!r}")
        changes["output_format"] = table["output-format"]
    if "max-file-size" in table:
        size = table["max-file-size"]
        if type(size) is not int or not 0 < size <= MAX_FILE_SIZE_LIMIT:
            raise ConfigError(f"{source}: key 'max-file-size': expected {_KEYS['max-file-size']}, got {size!r}")
        changes["max_file_size"] = size
    return replace(settings, **changes)


def _folders(source: str, names: tuple[str, ...], folder: Path) -> tuple[Path, ...]:
    """The ``src`` folders, made absolute from ``folder``: each one must be there (a
    misspelt root would leave the imports it was meant for unresolved, and say nothing)."""
    found = []
    for name in names:
        path = resolved(folder / name) if name.strip() else None
        if path is None or not path.is_dir():
            raise ConfigError(f"{source}: key 'src': {name!r} is not a folder (relative to {folder})")
        found.append(path)
    return tuple(found)


def _merged(options: dict[str, dict[str, Any]], more: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Rule options with ``more`` over them, option by option."""
    return {**options, **{code: {**options.get(code, {}), **values} for code, values in more.items()}}


def _rule_options(source: str, rules: Any, registry: dict[str, type]) -> dict[str, dict[str, Any]]:
    if not isinstance(rules, dict):
        raise ConfigError(f"{source}: key 'rules': expected {_KEYS['rules']}")
    result: dict[str, dict[str, Any]] = {}
    for code, options in rules.items():
        rule = registry.get(code)
        if rule is None:
            raise ConfigError(f"{source}: key 'rules.{code}': unknown rule code")
        if not isinstance(options, dict):
            raise ConfigError(f"{source}: key 'rules.{code}': expected a table of options")
        for name, value in options.items():
            if name not in rule.options:
                known = ", ".join(rule.options) or "none"
                raise ConfigError(f"{source}: key 'rules.{code}.{name}': unknown option (options of {code}: {known})")
            default = rule.options[name]
            if type(value) is not type(default):
                raise ConfigError(
                    f"{source}: key 'rules.{code}.{name}': expected {type(default).__name__}, got {value!r}"
                )
        result[code] = dict(options)
    return result


def _api(source: str, api: Any) -> dict[str, tuple[str, ...]]:
    if not isinstance(api, dict):
        raise ConfigError(f"{source}: key 'api': expected {_KEYS['api']}")
    for role in api:
        if role not in ROLES:
            raise ConfigError(f"{source}: key 'api.{role}': unknown role; expected one of: {', '.join(ROLES)}")
    return {role: _string_list(source, f"api.{role}", names) for role, names in api.items()}


# --- required-version ----------------------------------------------------------------

_COMPARISONS: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq, "!=": operator.ne, ">=": operator.ge, "<=": operator.le, ">": operator.gt, "<": operator.lt,
}
#: A release segment has at most 9 digits (a longer one is no version a2alint will have).
_CLAUSE = re.compile(r"\s*(==|!=|>=|<=|>|<|~=)?\s*(\d{1,9}(?:\.\d{1,9}){0,9})\s*")


def _require_version(source: str, spec: Any) -> None:
    """Refuse to run as an a2alint that ``required-version`` excludes: a team pins the
    version whose findings its config was written for. PEP 440's operators on numeric
    release segments (``packaging`` is not a dependency); a bare version means ``==``."""
    clauses = [_CLAUSE.fullmatch(clause) for clause in spec.split(",")] if isinstance(spec, str) else [None]
    if not all(clauses) or any(m[1] == "~=" and "." not in m[2] for m in clauses):
        raise ConfigError(f"{source}: key 'required-version': expected {_KEYS['required-version']}, got {spec!r}")
    running = _release(__version__)
    if not all(_satisfies(running, m[1] or "==", _release(m[2])) for m in clauses):
        raise ConfigError(
            f"{source}: key 'required-version': the config wants a2alint {spec}, and this is a2alint {__version__}; "
            "install a version that satisfies it"
        )


def _release(version: str) -> tuple[int, ...]:
    """The numeric release segments that ``version`` starts with (``0.1.0rc1`` -> ``(0, 1, 0)``)."""
    return tuple(int(part) for part in re.match(r"\d+(?:\.\d+)*", version)[0].split("."))


def _satisfies(version: tuple[int, ...], comparison: str, wanted: tuple[int, ...]) -> bool:
    width = max(len(version), len(wanted))
    have, want = version + (0,) * (width - len(version)), wanted + (0,) * (width - len(wanted))
    if comparison == "~=":  # ~=1.4.2: >=1.4.2 and 1.4.*
        return have >= want and have[: len(wanted) - 1] == wanted[:-1]
    return _COMPARISONS[comparison](have, want)


# --- the command line's --config -----------------------------------------------------


def config_options(values: Iterable[str]) -> tuple[Path | None, tuple[tuple[str, dict[str, Any]], ...]]:
    """``--config`` values, in ruff's two forms: at most one config file, and settings as
    TOML ``KEY = VALUE`` lines read in ``[tool.a2alint]`` (``select=["AC1"]``,
    ``rules.CODE.option=3``). A value with a ``=`` that is not a file is a setting."""
    files: list[Path] = []
    tables: list[tuple[str, dict[str, Any]]] = []
    for value in values:
        if "=" not in value or _is_file(Path(value)):
            files.append(Path(value))
            continue
        source = f"--config {shlex.quote(value)}"
        table = _toml(source, value)
        if "extend" in table:
            raise ConfigError(f"{source}: key 'extend': only a config file extends another; name it with --config FILE")
        tables.append((source, table))
    if len(files) > 1:
        raise ConfigError(f"--config: one config file at most, got {', '.join(map(str, files))}")
    return (files[0] if files else None), tuple(tables)


# --- --show-settings ---------------------------------------------------------------


def describe(settings: Settings, registry: dict[str, type], roots: Iterable[Path] = ()) -> str:
    """The settings as ``--show-settings`` prints them: where they come from, then what
    they resolve to, one ``key = value`` a line; ``roots``: the folders the project's
    imports are looked for in (``src`` and those its layout shows)."""
    if settings.sources:
        lines = ["Read from, each over the ones before it:", *(f"  {source}" for source in settings.sources)]
    else:
        lines = ["Read from: no config file (the defaults)"]
    values = {
        "root": str(settings.root),
        "enabled": sorted(settings.enabled_codes(registry)),
        "preview": settings.preview,
        "exclude": settings.exclude,
        "extend-exclude": settings.extend_exclude,
        "extend-include": settings.extend_include,
        "respect-gitignore": settings.respect_gitignore,
        "force-exclude": settings.force_exclude,
        "max-file-size": settings.max_file_size,
        "per-file-ignores": dict(settings.per_file_ignores),
        "src": [str(folder) for folder in settings.src],
        "rules": settings.rule_options,
        "api": settings.api,
        "roots": [str(folder) for folder in roots],
        "output-format": settings.output_format or "text",
    }
    lines += [f"{key} = {json.dumps(value, ensure_ascii=False)}" for key, value in values.items()]
    return "\n".join(lines)


# --- finding files -------------------------------------------------------------------


def find_config(directory: Path, known: dict[Path, Path | None] | None = None) -> Path | None:
    """The nearest config file at or above ``directory`` that configures a2alint.
    ``known``: the answers for folders walked before, added to as this walk goes (a
    tree's folders share the folders above them)."""
    return nearest(directory, _config_in, {} if known is None else known)


def _config_in(folder: Path) -> Path | None:
    for name in CONFIG_NAMES:
        candidate = folder / name
        if candidate.is_file() and (name != "pyproject.toml" or _configures_a2alint(candidate)):
            return candidate
    return None


class SettingsResolver:
    """Settings for each checked path: one config file read once, overrides applied."""

    def __init__(
        self,
        registry: dict[str, type],
        overrides: Overrides = Overrides(),
        config: Path | None = None,
        isolated: bool = False,
        cwd: Path | None = None,
    ) -> None:
        self.registry = registry
        self.overrides = overrides
        self.isolated = isolated
        self.cwd = (cwd or Path.cwd()).resolve()
        self.fixed: Settings | None = None
        if isolated:
            self.fixed = self._overridden(Settings(root=self.cwd))
        elif config is not None:
            self.fixed = self.load(config.resolve())
        self._by_file: dict[Path, Settings] = {}
        self._configs: dict[Path, Path | None] = {}  # folder -> the config file that governs it
        self._by_dir = lru_cache(maxsize=None)(self._for_directory)

    def load(self, path: Path) -> Settings:
        """The settings of the config file ``path``, over those of the files it extends."""
        if not _is_file(path):
            raise ConfigError(f"{path}: config file not found")
        settings = None
        for file, table in _chain(path):
            settings = settings_from_table(file, table, self.registry, settings)
        return self._overridden(settings)

    def _overridden(self, settings: Settings) -> Settings:
        """``settings`` under the command line: its ``--config KEY=VALUE`` settings, then its options."""
        for source, table in self.overrides.tables:
            settings = _applied(source, table, self.registry, settings, self.cwd)
        return settings.with_overrides(self.overrides)

    @cached_property
    def _unconfigured(self) -> Settings:
        """The settings of a path that no config file governs."""
        return self._overridden(Settings(root=self.cwd))

    def _for_directory(self, directory: Path) -> Settings:
        config = find_config(directory, self._configs)
        if config is None:
            return self._unconfigured
        if config not in self._by_file:
            self._by_file[config] = self.load(config)
        return self._by_file[config]

    def for_path(self, path: Path) -> Settings:
        """Settings that govern ``path`` (a file or a directory)."""
        if self.fixed is not None:
            return self.fixed
        absolute = path if path.is_absolute() else self.cwd / path
        directory = absolute if absolute.is_dir() else absolute.parent
        return self._by_dir(resolved(directory))
