"""Jupyter notebooks are checked as ruff checks them: the code cells, positions told as
``cell N:line:column``; a file that is no notebook is one AC000; fixes and noqa comments
are not written into notebooks yet, and the run says so."""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import pytest

from conftest import FIXABLE, write

from a2alint.diagnostics import Cell
from a2alint.notebooks import Cells, joined

#: A stranger's notebook (protocol 0.3 over plain requests): the status card is fetched
#: again after the task was submitted, and decides where the task is followed (AC101).
IMPORTS = """\
import hashlib
import json
import time
import uuid

import requests

CARD = "/.well-known/agent-card.json"


def fingerprint(card: dict) -> str:
    terms = {k: card.get(k) for k in ("protocolVersion", "securitySchemes", "security")}
    return hashlib.sha256(json.dumps(terms, sort_keys=True).encode()).hexdigest()
"""
FOLLOW = """\
def diagnose(base: str, host: str) -> dict:
    card = requests.get(base + CARD, timeout=5).json()
    message = {"role": "user", "messageId": uuid.uuid4().hex, "parts": [{"kind": "text", "text": host}],
               "metadata": {"contract": fingerprint(card)}}
    body = {"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": {"message": message}}
    task = requests.post(card["url"], json=body, timeout=30).json()["result"]
    time.sleep(5)
    about = requests.get(base + CARD, timeout=5).json()
    if about:
        query = {"jsonrpc": "2.0", "id": 2, "method": "tasks/get", "params": {"id": task["id"]}}
        task = requests.post(about["url"], json=query, timeout=30).json()["result"]
    return task
"""
#: Where FOLLOW's finding is, in its cell.
FOLLOW_AT = (8, 13)


def notebook(*cells: str | tuple[str, str], metadata: dict | None = None) -> str:
    """A notebook as Jupyter writes it: code cells (a string), or ``(cell_type, source)``."""
    listed = []
    for cell in cells:
        kind, source = cell if isinstance(cell, tuple) else ("code", cell)
        entry = {"cell_type": kind, "metadata": {}, "source": source.splitlines(keepends=True)}
        if kind == "code":
            entry.update(execution_count=None, outputs=[])
        listed.append(entry)
    document = {"cells": listed, "metadata": metadata or {"kernelspec": {"language": "python", "name": "python3"}},
                "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"


def test_a_finding_in_a_cell_is_told_by_cell_and_line_in_every_format(project, check):
    write(project / "fleet.ipynb", notebook(("markdown", "# Fleet diagnostics\n"), IMPORTS, FOLLOW))
    run = check("fleet.ipynb", "--output-format", "concise")
    line, column = FOLLOW_AT
    assert run.stdout.splitlines()[0].startswith(f"fleet.ipynb:cell 3:{line}:{column}: AC101 ")
    assert run.exit_code == 1
    full = check("fleet.ipynb", "--output-format", "full").stdout
    assert "note: fleet.ipynb:cell 3:6:12: task submitted here" in full
    assert f"{line} |     about = requests.get(base + CARD, timeout=5).json()" in full  # the frame: the cell's line
    [finding] = check("fleet.ipynb", "--output-format", "json").json()["diagnostics"]
    assert (finding["cell"], finding["line"], finding["column"], finding["end_line"]) == (3, line, column, line)
    assert finding["related"][0]["cell"] == 3 and finding["related"][0]["line"] == 6
    github = check("fleet.ipynb", "--output-format", "github").stdout
    assert github.startswith(f"::error file=fleet.ipynb,line=1,col=1,endLine=1,endColumn=1,title=AC101::AC101 cell 3:{line}:{column}: ")
    [result] = check("fleet.ipynb", "--output-format", "sarif").json()["runs"][0]["results"]
    assert result["message"]["text"].startswith(f"cell 3:{line}:{column}: Agent Card fetched")
    assert result["relatedLocations"][0]["message"]["text"] == "cell 3:6:12: task submitted here"
    [quality] = check("fleet.ipynb", "--output-format", "gitlab").json()
    assert (quality["location"]["lines"]["begin"], quality["description"][:17]) == (1, f"AC101 cell 3:{line}:{column}")


def test_an_sdk_notebook_is_checked_the_same_way(project, check):
    """Another style: a2a-sdk's card resolver, its digest in the second of two code cells."""
    head, _, rest = FIXABLE.partition("async def")
    write(project / "digest.ipynb", notebook("%load_ext autoreload\n" + head, ("markdown", "A note\n"), "async def" + rest))
    run = check("digest.ipynb", "--output-format", "concise")
    assert run.stdout.startswith("digest.ipynb:cell 3:4:27: AC107 ")  # no "[*]": fixes are not applied to notebooks
    assert run.exit_code == 1


def test_magics_shell_escapes_and_help_keep_every_line_in_its_place(project, check):
    cells = (
        "%matplotlib inline\n!pip install requests\n" + IMPORTS + "listing = !ls -l\nrequests.get?\n",
        "%%bash\necho this is not Python (\n",
        "%%time\n" + FOLLOW.replace("    time.sleep(5)\n", "    %time time.sleep(5)\n"),
    )
    write(project / "magic.ipynb", notebook(*cells))
    [finding] = check("magic.ipynb", "--output-format", "json").json()["diagnostics"]
    assert (finding["code"], finding["cell"], finding["line"]) == ("AC101", 3, FOLLOW_AT[0] + 1)  # after the %%time line
    source = joined(notebook(*cells).encode())
    lines = source.splitlines()
    assert lines[:2] == ["pass", "pass"] and "listing = ..." in lines and "pass" in lines
    assert "echo" not in source  # a cell of another language is left out
    assert len(lines) == len(cells[0].splitlines()) + len(cells[2].splitlines()) + 1  # and the map of the cells


def test_a_file_that_is_no_notebook_is_one_AC000(project, check):
    write(project / "broken.ipynb", '{"cells": [\n  {"cell_type": "code",,}\n]}\n')
    write(project / "old.ipynb", json.dumps({"nbformat": 3, "worksheets": []}))
    write(project / "text.ipynb", b"\x80 not json")
    run = check("broken.ipynb", "old.ipynb", "text.ipynb", "--output-format", "concise")
    assert run.stdout.splitlines()[:3] == [
        "broken.ipynb:2:24: AC000 not a Jupyter notebook: invalid JSON (Expecting property name enclosed in double quotes)",
        "old.ipynb:1:1: AC000 not a Jupyter notebook in nbformat 4 (a JSON object with 'nbformat': 4 and a list of 'cells')",
        "text.ipynb:1:1: AC000 not a Jupyter notebook: not UTF-8 text (invalid start byte)",
    ]
    assert (run.exit_code, run.stderr) == (1, "")


def test_a_folder_walk_checks_notebooks_and_show_files_lists_them(project, check):
    write(project / "fleet.ipynb", notebook(IMPORTS, FOLLOW))
    write(project / ".ipynb_checkpoints/fleet-checkpoint.ipynb", notebook(IMPORTS, FOLLOW))
    write(project / "notes.txt", "")
    assert check("--show-files").stdout == "fleet.ipynb\n"
    assert check("--output-format", "json").json()["diagnostics"][0]["path"] == "fleet.ipynb"


def test_exclude_settings_apply_to_notebooks(project, check):
    write(project / "fleet.ipynb", notebook(IMPORTS, FOLLOW))
    write(project / "drafts/old.ipynb", notebook(IMPORTS, FOLLOW))
    write(project / "a2alint.toml", 'extend-exclude = ["drafts/"]\n')
    assert check("--show-files").stdout == "fleet.ipynb\n"
    assert check("--show-files", "--extend-exclude", "*.ipynb").stdout == ""


def test_a_noqa_comment_in_a_cell_suppresses_its_line(project, check):
    quiet = FOLLOW.replace("timeout=5).json()\n    if", "timeout=5).json()  # noqa: AC101\n    if")
    write(project / "fleet.ipynb", notebook(IMPORTS, quiet))
    run = check("fleet.ipynb")
    assert (run.exit_code, run.stdout) == (0, "All checks passed (1 file checked).\n")
    write(project / "fleet.ipynb", notebook(IMPORTS, quiet.replace("  # noqa: AC101", "  # noqa: AC103")))
    assert check("fleet.ipynb", "--output-format", "json").codes() == ["AC101"]


def test_a_notebook_imports_the_project_modules(project, check):
    """A notebook is a module of the project: a finding in a module it imports may rest on
    what the notebook does with it, and names the notebook's cells."""
    write(project / "pyproject.toml", "[project]\nname = 'fleet'\n")
    write(project / "peers.py", IMPORTS + "\n\ndef fetch_card(base):\n    return requests.get(base + CARD, timeout=5).json()\n")
    follow = FOLLOW.replace("about = requests.get(base + CARD, timeout=5).json()", "about = fetch_card(base)")
    write(project / "fleet.ipynb", notebook("import time, uuid\nimport requests\nfrom peers import CARD, fingerprint, fetch_card\n", follow))
    [finding] = check("--output-format", "json").json()["diagnostics"]
    assert (finding["code"], finding["path"]) == ("AC101", "peers.py")
    assert "before the send at line fleet.ipynb:cell 2:6 " in finding["suggestion"]
    notes = [(note["path"], note.get("cell"), note["line"]) for note in finding["related"]]
    assert notes[:2] == [("fleet.ipynb", 2, 6), ("fleet.ipynb", 2, FOLLOW_AT[0])]


def test_fixes_and_noqa_comments_are_not_written_into_notebooks(project, check):
    head, _, rest = FIXABLE.partition("async def")
    text = notebook(head, "async def" + rest)
    write(project / "digest.ipynb", text)
    run = check("digest.ipynb", "--fix", "--unsafe-fixes")
    assert run.stderr == "a2alint: digest.ipynb: not fixed: fixes are not applied to notebooks yet\n"
    assert run.exit_code == 1 and "AC107" in run.stdout
    diff = check("digest.ipynb", "--diff", "--unsafe-fixes")
    assert (diff.stdout, diff.stderr) == ("", run.stderr)
    added = check("digest.ipynb", "--add-noqa")
    assert added.stderr.startswith("a2alint: digest.ipynb: no noqa added: noqa comments are not added to notebooks yet\n")
    assert added.exit_code == 1
    assert (project / "digest.ipynb").read_text(encoding="utf-8") == text
    piped = check("--fix", "--unsafe-fixes", "--stdin-filename", "digest.ipynb", "-", input=text)  # an editor's "fix on save"
    assert piped.stdout == text and "not fixed: fixes are not applied to notebooks yet" in piped.stderr
    broken = '{"cells": [\n'
    assert check("--fix", "--stdin-filename", "broken.ipynb", "-", input=broken).stdout == broken


def test_a_notebook_of_another_language_has_nothing_to_check(project, check):
    write(project / "r.ipynb", notebook(IMPORTS, FOLLOW, metadata={"kernelspec": {"language": "R", "name": "ir"}}))
    write(project / "py.ipynb", notebook(IMPORTS, FOLLOW, metadata={"language_info": {"name": "python"}}))
    assert [d["path"] for d in check("--output-format", "json").json()["diagnostics"]] == ["py.ipynb"]


def test_a_notebook_is_read_from_stdin_by_the_name_it_is_given(project, check):
    run = check("--stdin-filename", "fleet.ipynb", "-", "--output-format", "concise", input=notebook(IMPORTS, FOLLOW))
    assert run.stdout.startswith(f"fleet.ipynb:cell 2:{FOLLOW_AT[0]}:{FOLLOW_AT[1]}: AC101 ")
    # an editor's notebook cell is a buffer of Python under the notebook's name: checked as it is
    cell = check("--stdin-filename", "fleet.ipynb", "-", "--output-format", "concise", input=IMPORTS + FOLLOW)
    assert cell.stdout.startswith(f"fleet.ipynb:{IMPORTS.count(chr(10)) + FOLLOW_AT[0]}:{FOLLOW_AT[1]}: AC101 ")


def test_cells_are_joined_line_for_line():
    text = notebook(("raw", "x\n"), "a = 1", "", "b = 2\nc = 3\n")
    assert joined(text.encode()) == "a = 1\nb = 2\nc = 3\n# notebook cells: 2:0 4:1\n"
    assert Cells(joined(text.encode()).encode()).at(3) == Cell(4, 1)
    assert not Cells(b"x = 1\n# notebook cells: a:b\n").joined  # an editor's cell that ends so is Python
    assert textwrap.dedent(joined(notebook("if x:\n    %time f()\n    y = !ls\n").encode())).startswith(
        "if x:\n    pass\n    y = ...\n"
    )


def test_an_operator_or_a_string_line_that_starts_like_an_escape_is_python():
    """Black puts a binary operator at the start of a continued line: ``% value``, ``!= other``."""
    code = 'message = (\n    "%s items"\n    % count\n)\nsame = (a\n        != b)\ntotal = 1 + \\\n    2\nhelp = """\n!not a shell escape\n%nor a magic\n"""\n'
    assert joined(notebook(code).encode()) == code + "# notebook cells: 1:0\n"
    magic_after = joined(notebook("t = ('(', \"[\")  # ([{\n%time f()\n").encode())
    assert magic_after.splitlines()[1] == "pass"  # the brackets in strings and comments are closed


def test_max_file_size_bounds_a_notebooks_code_not_its_outputs(project, check):
    write(project / "a2alint.toml", "max-file-size = 4096\n")
    text = json.loads(notebook(IMPORTS, FOLLOW))
    text["cells"][1]["outputs"] = [{"output_type": "display_data", "metadata": {}, "data": {"image/png": "iVBOR" * 4000}}]
    write(project / "plotted.ipynb", json.dumps(text))  # 20 KB of outputs, 1.5 KB of code
    assert check("plotted.ipynb", "--output-format", "json").codes() == ["AC101"]
    write(project / "long.ipynb", notebook(IMPORTS + "\n# padding\n" * 2000, FOLLOW))
    [finding] = check("long.ipynb", "--output-format", "json").json()["diagnostics"]
    assert finding["code"] == "AC000" and "max-file-size" in finding["message"]


def test_the_pre_commit_hook_passes_notebooks():
    """pre-commit tags a ``.ipynb`` ``jupyter``, not ``python``: the hook asks for both, as ruff's."""
    yaml = pytest.importorskip("yaml")
    hooks = yaml.safe_load((Path(__file__).resolve().parents[1] / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    [hook] = [h for h in hooks if h.get("pass_filenames", True)]  # (the whole-project hook names no files)
    assert "jupyter" in hook.get("types_or", hook.get("types", []))
    assert re.search(hook["files"], "analysis/fleet.ipynb") and re.search(hook["files"], "peers.py")
