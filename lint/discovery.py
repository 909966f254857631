"""Which files a run checks.

Directories are walked for ``*.py`` and ``*.ipynb`` (plus ``extend-include`` globs), skipping
the default excludes, ``exclude`` / ``extend-exclude``, virtualenvs and what
``.gitignore`` files and ``.git/info/exclude`` ignore inside a git work tree. Files
named on the command line are always checked unless ``--force-exclude`` is given and
they are excluded (pre-commit passes every changed file by name).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from a2alint.config import Settings, SettingsResolver
from a2alint.globs import Patterns, matched, patterns_git_reads
from a2alint.paths import nearest, printable, read_regular, resolved


@dataclass(frozen=True)
class Problem:
    """A path that could not be walked; reported, and fatal (exit 2) for a named path that does not exist."""

    path: str
    message: str
    fatal: bool = False


#: Git (2.39 on) reads no ignore file larger than this.
MAX_IGNORE_FILE_BYTES = 100 * 1024 * 1024


def _ignore_file(path: Path, base: Path) -> list[Patterns]:
    """The patterns of the ignore file ``path``, relative to ``base``; none when it cannot
    be read, is not a regular file or is larger than git reads (a ``.gitignore`` that is a
    symbolic link git does not follow either, and one to ``/dev/zero`` would never end)."""
    try:
        data = read_regular(path, MAX_IGNORE_FILE_BYTES, follow_links=False)
    except OSError:
        return []
    return [Patterns(patterns_git_reads(data.decode("utf-8", "replace").splitlines()), base)]


def git_root(directory: Path, known: dict[Path, Path | None] | None = None) -> Path | None:
    """The git work tree ``directory`` is in (``known``: see :func:`nearest`)."""
    return nearest(directory, _work_tree, {} if known is None else known)


def _work_tree(folder: Path) -> Path | None:
    return folder if (folder / ".git").exists() else None


def _git_dir(root: Path) -> Path:
    """The repository of the work tree ``root``, where ``info/exclude`` is: ``.git``, or for
    a linked work tree or a submodule the folder its ``.git`` file names, or the common one
    that folder's ``commondir`` names."""
    dot_git = root / ".git"
    try:
        named = dot_git.read_text(encoding="utf-8").removeprefix("gitdir:").strip()
    except OSError:  # a folder
        return dot_git
    git_dir = root / named
    try:
        return git_dir / (git_dir / "commondir").read_text(encoding="utf-8").strip()
    except OSError:
        return git_dir


class _Ignores:
    """What git ignores in each directory: ``.git/info/exclude``, then the ``.gitignore``
    files from the work tree's root down, a later one taking back what an earlier said."""

    def __init__(self) -> None:
        self.cache: dict[Path, list[Patterns]] = {}
        self.roots: dict[Path, Path | None] = {}  # (see git_root)

    def lists(self, directory: Path) -> list[Patterns]:
        """The lists of ``directory``, made from those of the folders above it (each folder
        once, from the work tree's root down: no recursion, however deep the tree)."""
        pending: list[tuple[Path, Path]] = []
        folder = directory
        while folder not in self.cache:
            root = git_root(folder, self.roots)
            if root is None:
                self.cache[folder] = []
                break
            pending.append((folder, root))
            if folder == root:
                break
            folder = folder.parent
        for folder, root in reversed(pending):
            above = _ignore_file(_git_dir(root) / "info" / "exclude", root) if folder == root else self.cache[folder.parent]
            self.cache[folder] = above + _ignore_file(folder / ".gitignore", folder)
        return self.cache[directory]

    def ignored(self, path: Path, is_dir: bool) -> bool:
        return matched(self.lists(resolved(path.parent)), path, is_dir)


def _is_virtualenv(directory: Path) -> bool:
    return os.path.isfile(directory / "pyvenv.cfg")  # no when it cannot be looked into: the walk says why


def _wanted(path: Path, settings: Settings) -> bool:
    """A Python file, a Jupyter notebook (as ruff walks them since 0.6), or one ``extend-include`` names."""
    return path.name.endswith((".py", ".ipynb")) or settings.is_included(path)


def discover(
    paths: list[str], resolver: SettingsResolver, limit: int | None = None
) -> tuple[list[tuple[str, Path]], list[Problem]]:
    """``(display path, absolute path)`` of every file to check, in a stable order; the
    walk stops once it has found more than ``limit`` files. A path named is checked even
    when excluded, unless the settings of its folder say ``force-exclude``."""
    found: list[tuple[str, Path]] = []
    problems: list[Problem] = []
    ignores = _Ignores()
    seen: set[Path] = set()

    def add(display: str, path: Path) -> None:
        key = resolved(path)
        if key not in seen:
            seen.add(key)
            found.append((printable(display), path))

    # Symbolic links met while walking are followed only to places inside these.
    roots = [resolved(resolver.cwd / given) for given in paths if os.path.isdir(resolver.cwd / given)]
    for given in paths:
        path = Path(given)
        absolute = path if path.is_absolute() else resolver.cwd / path
        try:
            absolute.lstat()
        except OSError as error:
            problems.append(Problem(given, _unreachable(path, resolver.cwd, error), fatal=True))
            continue
        if not os.path.exists(absolute):
            problems.append(Problem(given, "broken symbolic link"))
            continue
        if not (os.path.isdir(absolute) or os.path.isfile(absolute)):  # reading a pipe or a device never ends
            problems.append(Problem(given, "not a regular file"))
            continue
        # (the settings of the folder that holds it: those of a folder that cannot be entered cannot be read)
        if resolver.for_path(absolute.parent).force_exclude and excluded(absolute, resolver, ignores):
            continue
        if absolute.is_dir():
            for display, file in _walk(given, absolute, resolver, ignores, problems, roots):
                add(display, file)
                if limit is not None and len(found) > limit:
                    return found, problems
        else:
            add(given, absolute)
    return found, problems


def excluded(path: Path, resolver: SettingsResolver, ignores: "_Ignores | None" = None) -> bool:
    """``path`` is excluded by the settings or ignored by git (what ``--force-exclude``
    applies to paths named on the command line, and to ``--stdin-filename``)."""
    settings = resolver.for_path(path)
    return settings.is_excluded_with_parents(path) or _gitignored(path, settings, ignores or _Ignores())


def _gitignored(path: Path, settings: Settings, ignores: _Ignores) -> bool:
    return settings.respect_gitignore and ignores.ignored(path, path.is_dir())


def _enter(directory: Path) -> None:
    """Raise the error of looking inside ``directory``: a folder that may be read but not
    searched (mode 0644) lists its names, and then refuses to open any of them, or even
    to say what they are."""
    os.stat(os.path.join(directory, os.curdir))


def _unreachable(given: Path, cwd: Path, error: OSError) -> str:
    """Why a path named on the command line could not be looked at: it is not there, or a
    folder on its way cannot be entered (named, since the path alone does not say which)."""
    if isinstance(error, (FileNotFoundError, NotADirectoryError)):
        return "no such file or directory"
    for folder in reversed(given.parents):
        try:
            _enter(cwd / folder)
        except OSError:
            return f"cannot enter directory {folder}: {error.strerror or error}"
    return f"cannot read: {error.strerror or error}"


def _inside(path: Path, roots: list[Path]) -> bool:
    """Whether ``path``, its links resolved, is one of ``roots`` or inside one."""
    try:
        target = resolved(path)
    except (OSError, RuntimeError):  # a loop
        return False
    return any(target == root or root in target.parents for root in roots)


def _walk(
    display_root: str, root: Path, resolver: SettingsResolver, ignores: _Ignores, problems: list[Problem],
    roots: list[Path],
) -> Iterator[tuple[str, Path]]:
    """The wanted files under ``root``. Symbolic links are followed only when they lead
    inside ``roots`` (the folders given): a check never reads outside the paths it was given."""
    stack = [(display_root, root)]
    visited: set[tuple[int, int]] = set()
    while stack:
        display_dir, directory = stack.pop()
        try:
            info = directory.stat()
            if (info.st_dev, info.st_ino) in visited:  # a symlink loop
                continue
            visited.add((info.st_dev, info.st_ino))
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError as error:  # unreadable, or a path longer than the system allows
            problems.append(Problem(display_dir, f"cannot read directory: {error.strerror or error}"))
            continue
        try:
            _enter(directory)
            settings = resolver.for_path(directory)
        except OSError as error:  # listed but not to be entered (mode 0644), or too long a path
            problems.append(Problem(display_dir, f"cannot enter directory: {error.strerror or error}"))
            continue
        subdirs = []
        for entry in entries:
            path = Path(entry.path)
            display = os.path.join(display_dir, entry.name) if display_dir != "." else entry.name
            try:
                found = _entry(entry, path, display, settings, ignores, roots, problems)
            except OSError as error:  # ENAMETOOLONG below a deep tree: this entry only
                problems.append(Problem(display, f"cannot read: {error.strerror or error}"))
                continue
            if found == "dir":
                subdirs.append((display, path))
            elif found == "file":
                yield display, path
        stack.extend(reversed(subdirs))


def _entry(entry: os.DirEntry, path: Path, display: str, settings: Settings, ignores: _Ignores, roots: list[Path], problems: list[Problem]) -> str | None:
    """What one directory entry is to the walk: a folder to enter, a file to check, or nothing."""
    try:
        is_dir = entry.is_dir()
        is_file = entry.is_file()
    except OSError:  # a symbolic link that leads to itself
        is_dir = is_file = False
    if settings.is_excluded(path, is_dir) or (settings.respect_gitignore and ignores.ignored(path, is_dir)):
        return None
    if (is_dir or is_file) and entry.is_symlink() and not _inside(path, roots):
        return None
    if is_dir:
        return None if _is_virtualenv(path) else "dir"
    if is_file and _wanted(path, settings):
        return "file"
    if entry.is_symlink() and not os.path.exists(path) and _wanted(path, settings):
        problems.append(Problem(display, "broken symbolic link"))
    return None


#: A project with more Python files than this is not read whole for context.
MAX_CONTEXT_FILES = 20_000


#: Files that mark the folder they are in as a Python project's (or a workspace's).
PROJECT_FILES = ("pyproject.toml", "setup.py", "setup.cfg")


def project_root(path: Path, resolver: SettingsResolver) -> Path | None:
    """The root of the project ``path`` (a file or a folder) belongs to: the folder of the
    config file that governs it, else the one :func:`unconfigured_root` finds."""
    settings = resolver.for_path(path)
    if settings.config_path is not None:
        return resolved(settings.root)
    absolute = resolved(path)
    return unconfigured_root(absolute if absolute.is_dir() else absolute.parent)


def unconfigured_root(folder: Path) -> Path | None:
    """The root of the project the folder ``folder`` is in, when no config file says: the
    git work tree, else the outermost folder above it with a project file (a workspace
    holds its members' ``pyproject.toml`` files) below the home folder (whose own is a
    tool's, not a project's); None when there is neither."""
    found = git_root(folder)
    if found is None:
        home = Path(os.path.expanduser("~"))  # "~" when there is none
        for above in (folder, *folder.parents):
            if above == home or above in home.parents:
                break
            if any(os.path.isfile(above / name) for name in PROJECT_FILES):
                found = above
    return found


def project_context(paths: list[Path], resolver: SettingsResolver) -> list[tuple[str, Path]]:
    """The rest of the project of each path checked below its project root (pre-commit
    passes only the changed files, an editor pipes one buffer, a check may start in a
    sub-folder): the files discovery finds under its project root, as a walk from the
    current folder would show them, but the files named. Their facts come from the
    cache, or they are parsed, only where a question reaches them; a module's findings
    are the same as in a check of the whole project."""
    given = {resolved(path) for path in paths}
    folders = [path for path in given if path.is_dir()]
    roots = {root for path in paths if (root := project_root(path, resolver)) is not None}
    context: list[tuple[str, Path]] = []
    for root in sorted(roots):
        if any(root == folder or folder in root.parents for folder in folders):
            continue  # walked already, with the folder named
        shown = os.path.relpath(root, resolver.cwd) if root.is_relative_to(resolver.cwd) else str(root)
        found, _ = discover([shown], resolver, limit=MAX_CONTEXT_FILES)
        if len(found) > MAX_CONTEXT_FILES:
            continue  # a home folder, not a project: each named path is checked with what it names
        context += [(display, path) for display, path in found if resolved(path) not in given]
    return context
