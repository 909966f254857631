"""The analysed code is data: a2alint never imports, runs or evaluates it, and never reads
outside the paths it was given (and their configuration files).

Each checked module below would create a marker file if any of its code ran: at import,
in ``if __name__ == "__main__"``, in a class body, a decorator, a default argument, a
package's ``__init__``, a ``conftest.py``, ``setup.py`` or a ``.pth`` file. Every command
that reads them runs in its own process with the project on ``PYTHONPATH`` (so that even
an import by name would find them), and no marker may appear.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from conftest import UNFIXABLE, run_installed, write

#: Findings in every module, so that each is parsed, analysed, fixed and reported.
FINDINGS = textwrap.dedent(
    """\
    import hashlib, json
    from a2a.client import A2ACardResolver
    async def digest(resolver):
        card = await resolver.get_agent_card()
        return hashlib.sha256(json.dumps({"v": card.protocol_version}).encode()).hexdigest()
    """
)


def _runs(marker: str) -> str:
    """Code that, if it ran, would create ``marker``."""
    return f"__import__('pathlib').Path({marker!r}).write_text('ran')"


def _modules(marker: str) -> dict[str, str]:
    run = _runs(marker)
    return {
        "toplevel.py": f"{run}\n{FINDINGS}",
        "main_guard.py": f"{FINDINGS}if __name__ == '__main__':\n    {run}\n",
        "class_body.py": f"{FINDINGS}class Peer:\n    done = {run}\n",
        "decorated.py": f"{FINDINGS}@(lambda f: ({run}, f)[1])\ndef decorated(): pass\n",
        "defaults.py": f"{FINDINGS}def send(x=({run})): pass\n",
        "pkg/__init__.py": f"{run}\n{FINDINGS}",
        "pkg/__main__.py": f"{run}\n{FINDINGS}",
        "conftest.py": f"{run}\n{FINDINGS}",
        "setup.py": f"{run}\n{FINDINGS}",
        "hook.pth": f"import pathlib; pathlib.Path({marker!r}).write_text('ran')\n",
        "syntax_error.py": f"{FINDINGS}{run}\ndef broken(:\n",
        "lib.pyi": f"{run}\n{FINDINGS}",
    }


@pytest.mark.parametrize(
    "args",
    [
        ("check", "--no-cache", "."),
        ("check", "--no-cache", "--select", "ALL", "--preview", "--report-unused-noqa", "--format", "sarif", "."),
        ("check", "--fix", "--unsafe-fixes", "."),
        ("check", "--diff", "."),
        ("check", "--add-noqa", "."),
        ("check", "--write-baseline", "baseline.json", "."),
        ("check", "--no-cache", "--jobs", "2", "--extend-exclude", "nothing", "."),
        ("check", "--stdin-filename", "toplevel.py", "-"),
    ],
    ids=["check", "all-rules-sarif", "fix", "diff", "add-noqa", "write-baseline", "pool", "stdin"],
)
def test_checked_code_never_runs(tmp_path, args):
    marker = tmp_path / "MARKER"
    project = tmp_path / "project"
    for name, source in _modules(str(marker)).items():
        write(project / name, source)
    write(project / "a2alint.toml", 'extend-include = ["*.pyi"]\n')
    stdin = (project / "toplevel.py").read_bytes() if "-" in args else None
    run = run_installed(*args, cwd=project, input=stdin, env={"PYTHONPATH": str(project)})
    assert run.exit_code in (0, 1), run.stderr
    assert not marker.exists(), f"checked code ran during: a2alint {' '.join(args)}"


def test_a_symlink_out_of_the_tree_is_not_followed(tmp_path):
    """Neither a linked folder nor a linked file outside the paths given is read."""
    outside = tmp_path / "outside"
    write(outside / "pkg" / "secret.py", UNFIXABLE)
    write(outside / "leak.py", UNFIXABLE)
    project = tmp_path / "project"
    write(project / "mine.py", UNFIXABLE)
    (project / "linked_dir").symlink_to(outside / "pkg")
    (project / "linked_file.py").symlink_to(outside / "leak.py")
    write(project / "inner" / "real.py", UNFIXABLE)
    (project / "inner_link").symlink_to(project / "inner")  # inside the tree: followed (and deduplicated)
    run = run_installed("check", "--no-cache", "--format", "json", ".", cwd=project)
    paths = sorted(d["path"] for d in json.loads(run.stdout)["diagnostics"])
    assert paths == ["inner/real.py", "mine.py"]
    assert run.stderr == ""
    named = run_installed("check", "--no-cache", "--format", "json", "linked_file.py", cwd=project)
    assert [d["path"] for d in json.loads(named.stdout)["diagnostics"]] == ["linked_file.py"]  # named: given


@pytest.mark.parametrize("command", [["toplevel.py"], ["-m", "pkg"]])
def test_the_marker_appears_when_the_code_does_run(tmp_path, command):
    """The control: the modules above are not inert, so the test above can fail."""
    marker = tmp_path / "MARKER"
    for name, source in _modules(str(marker)).items():
        write(tmp_path / "project" / name, source)
    subprocess.run([sys.executable, *command], cwd=tmp_path / "project", capture_output=True, timeout=60)
    assert marker.exists()
