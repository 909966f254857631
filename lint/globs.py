"""Path patterns, read as git reads a ``.gitignore``: the one matcher behind ``exclude``,
``extend-exclude``, ``extend-include``, ``per-file-ignores`` and the ``.gitignore`` files.

Each list of patterns is relative to a folder: the config file's, the current one for the
command line, a ``.gitignore``'s own. A pattern without a slash (but a trailing one)
matches a name at any depth below it; one with a slash is a path from it; ``*`` stops at a
``/`` and ``**`` does not; a trailing ``/`` matches folders only; a folder matched matches
all it holds; ``!`` takes back what earlier patterns matched, and the last pattern that
matches decides. The patterns of a config file or of the command line also take ruff's
``{a,b}`` alternatives, a leading ``./`` and absolute paths.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import Iterable, Sequence

import pathspec

from a2alint.paths import resolved


def expand_braces(pattern: str) -> list[str]:
    """``**/{tests,docs}/*`` -> ``**/tests/*``, ``**/docs/*``: ruff's globs have
    alternatives, gitignore has not. They nest; ``\\{`` and an unclosed ``{`` are literal."""
    depth = start = 0
    commas: list[int] = []
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if char == "\\":
            index += 1  # the escaped character is literal
        elif char == "{":
            if depth == 0:
                start, commas = index, []
            depth += 1
        elif char == "}" and depth:
            depth -= 1
            if depth == 0:
                head, tail = pattern[:start], pattern[index + 1 :]
                bounds = [start, *commas, index]
                return [
                    expanded
                    for begin, end in zip(bounds, bounds[1:])
                    for expanded in expand_braces(head + pattern[begin + 1 : end] + tail)
                ]
        elif char == "," and depth == 1:
            commas.append(index)
        index += 1
    return [pattern]


def _negation(pattern: str) -> tuple[str, str]:
    """``("!", "x")`` for ``!x``, ``("", "x")`` for ``x``."""
    return ("!", pattern[1:]) if pattern.startswith("!") else ("", pattern)


def _located(pattern: str, base: Path) -> tuple[str, Path]:
    """A config's pattern as a gitignore line and the folder it is relative to: ``./x`` is
    gitignore's ``/x``; an absolute path is relative to its folders before the first
    wildcard, their links resolved (as the paths it is matched against are)."""
    negation, body = _negation(pattern)
    if PurePath(body).is_absolute():
        parts = PurePath(body).parts
        literal = next((i for i, part in enumerate(parts[:-1]) if any(c in part for c in "*?[")), len(parts) - 1)
        rest = "/".join(parts[literal:]) + ("/" if body.endswith("/") else "")
        return f"{negation}/{rest}", resolved(Path(*parts[:literal]))
    if body.startswith("./"):
        while body.startswith("./"):
            body = body[2:]
        return f"{negation}/{body}", base
    return pattern, base


def made_absolute(pattern: str, base: Path) -> str:
    """``pattern``, written relative to ``base``, as an absolute one for the same paths: for
    settings read somewhere else (a config file that extends another, the current
    directory's ``--extend-exclude``). A name matched at any depth stays as it is."""
    negation, body = _negation(pattern)
    if "/" not in body.rstrip("/") or PurePath(body).is_absolute():
        return pattern
    return f"{negation}{base.as_posix().rstrip('/')}/{body.removeprefix('./')}"


def _at_any_depth(line: str) -> bool:
    """Whether git matches ``line`` against a name wherever it stands: no slash but a
    trailing one, or a leading ``**/``."""
    body = _negation(line.strip())[1].rstrip("/")
    return "/" not in body or body.startswith("**/")


def patterns_git_reads(lines: Iterable[str]) -> tuple[str, ...]:
    """The lines of a ``.gitignore`` that are patterns. One git cannot read as a pattern
    (a lone ``!``, an unescaped trailing backslash) matches nothing in git, so it is
    dropped, not refused: a vendored folder's ignore file must not stop the run."""
    return tuple(line for line in lines if _is_pattern(line))


def unreadable_pattern(patterns: Iterable[str]) -> str | None:
    """The first of ``patterns`` (a config's or the command line's) that is not a pattern
    git reads: a setting that would match nothing is refused, not dropped."""
    return next((p for p in patterns if not all(_is_pattern(e.removeprefix("./")) for e in expand_braces(p))), None)


@functools.lru_cache(maxsize=4096)
def _is_pattern(line: str) -> bool:
    try:
        pathspec.GitIgnoreSpec.from_lines((line,))
    except ValueError:
        return False
    return True


@functools.lru_cache(maxsize=1024)
def _spec(lines: tuple[str, ...]) -> pathspec.GitIgnoreSpec:
    return pathspec.GitIgnoreSpec.from_lines(lines)


@functools.lru_cache(maxsize=1024)
def _name_spec(lines: tuple[str, ...]) -> pathspec.GitIgnoreSpec:
    """What ``lines`` say of a name alone: the patterns that match a name at any depth."""
    return _spec(tuple(line for line in lines if _at_any_depth(line)))


@functools.lru_cache(maxsize=1 << 14)
def _from_base(folder: Path, base: Path) -> str | None:
    """The path of the real folder ``folder`` from ``base``, ending in ``/`` (empty for
    ``base`` itself), or None outside it: asked once for all the entries of a folder."""
    base = resolved(base)
    if folder == base:
        return ""
    return folder.relative_to(base).as_posix() + "/" if folder.is_relative_to(base) else None


@dataclass(frozen=True)
class Patterns:
    """A list of patterns and the folder they are relative to. Compiled once per process
    (by their text), so a list can be built wherever it is asked about."""

    lines: tuple[str, ...]
    base: Path

    @classmethod
    def configured(cls, patterns: Iterable[str], base: Path) -> tuple["Patterns", ...]:
        """Patterns of a config file or the command line, relative to ``base``: ruff's
        ``{a,b}`` expanded, ``./x`` read as ``/x``, an absolute path relative to its own
        folder; a list for each run of patterns relative to one folder."""
        located = [_located(each, base) for pattern in patterns for each in expand_braces(pattern)]
        runs = itertools.groupby(located, key=lambda line_and_base: line_and_base[1])
        return tuple(cls(tuple(line for line, _ in run), folder) for folder, run in runs)

    def verdict(self, path: Path, is_dir: bool) -> bool | None:
        """True when the last pattern that matches ``path`` matches it, False when that one
        is a ``!`` pattern, None when none does. The folders on the way are real ones, the
        name is the entry's own (a symbolic link is matched by its name, as git does); a
        path outside ``base`` is matched by its name, against the patterns that match a
        name at any depth; ``base`` itself by none."""
        if not self.lines:
            return None
        folder = resolved(path.parent)
        inside = _from_base(folder, self.base)
        if inside is not None:
            relative, spec = inside + path.name, _spec(self.lines)
        elif folder / path.name == resolved(self.base):
            return None
        else:
            relative, spec = path.name, _name_spec(self.lines)
        return spec.check_file(relative + "/" if is_dir else relative).include


def matched(lists: Sequence[Patterns], path: Path, is_dir: bool) -> bool:
    """Whether the last pattern of ``lists`` that matches ``path`` is not a ``!`` one. The
    lists are read in order, as git reads a folder's ``.gitignore`` after its parent's."""
    for patterns in reversed(lists):
        verdict = patterns.verdict(path, is_dir)
        if verdict is not None:
            return verdict
    return False
