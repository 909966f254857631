"""How ``--fix`` and ``--add-noqa`` write a file: never over an edit saved meanwhile, with a
temporary name that always fits, never into a read-only file; and the AC107 fix, which
adds ``sort_keys=True`` without touching any other byte of the call."""

from __future__ import annotations

import errno
import os
import pathlib
import stat
import textwrap

import pytest

from a2alint.fixes import StaleFileError, write_atomically
from a2alint.runner import lint_source
from conftest import FIXABLE, FIXED, UNFIXABLE, write

EDITED = FIXABLE + "# saved by the editor meanwhile, a few bytes more\n"
NOQA = UNFIXABLE.replace("json())\n", "json())  # noqa: AC107\n")


def _others(folder: pathlib.Path, *names: str) -> list[str]:
    """What the folder holds besides ``names`` and the cache (a temporary left behind)."""
    return sorted(p.name for p in folder.iterdir() if p.name not in {*names, ".a2alint_cache"})


@pytest.fixture
def saved_after_last_read(monkeypatch: pytest.MonkeyPatch):
    """``saved_after_last_read(path, text)``: an editor saves ``text`` to ``path`` right after
    the writer's last read of it, once the temporary file is written (between the last check
    and the rename)."""

    def arm(target: pathlib.Path, text: str) -> list[bool]:
        real = pathlib.Path.read_bytes
        done: list[bool] = []

        def read_bytes(self: pathlib.Path) -> bytes:
            data = real(self)
            if not done and self.name == target.name and _others(self.parent, target.name):
                done.append(True)
                self.write_text(text)  # the editor, just after a2alint looked
            return data

        monkeypatch.setattr(pathlib.Path, "read_bytes", read_bytes)
        return done

    return arm


# --- an edit saved between the last check and the rename ----------------------------------


def test_fix_keeps_an_edit_saved_between_the_last_check_and_the_rename(project, check, saved_after_last_read):
    path = write(project / "bad.py")
    injected = saved_after_last_read(path, EDITED)
    run = check("--select", "AC107", "--fix", "--unsafe-fixes", "bad.py")
    assert injected, "the editor saved while the fix was being written"
    assert path.read_text() == EDITED
    assert "a2alint: bad.py: not fixed: changed on disk while checking" in run.stderr
    assert run.exit_code == 1 and "bad.py:6:27: AC107" in run.stdout and "Fixed" not in run.stdout
    assert _others(project, "bad.py") == []


def test_add_noqa_keeps_an_edit_saved_between_the_last_check_and_the_rename(project, check, saved_after_last_read):
    path = write(project / "a.py", UNFIXABLE)
    injected = saved_after_last_read(path, UNFIXABLE + "# edited\n")
    run = check("--add-noqa", ".")
    assert injected
    assert path.read_text() == UNFIXABLE + "# edited\n"
    assert "a2alint: a.py: no noqa added: changed on disk while checking" in run.stderr and run.exit_code == 1
    assert _others(project, "a.py") == []


def test_write_atomically_refuses_a_file_that_changed_and_removes_its_temporary(tmp_path):
    path = write(tmp_path / "bad.py")
    with pytest.raises(StaleFileError):
        write_atomically(path, FIXED.encode(), b"something else")
    assert path.read_text() == FIXABLE and _others(tmp_path, "bad.py") == []


# --- temporary names ------------------------------------------------------------------------------

LONG = "a" * 247 + ".py"  # 250 bytes: NAME_MAX is 255


def test_fix_fixes_a_file_whose_name_is_250_bytes(project, check):
    path = write(project / LONG)
    run = check("--select", "AC107", "--fix", "--unsafe-fixes", LONG)
    assert (run.exit_code, run.stderr) == (0, "")
    assert path.read_text() == FIXED
    assert _others(project, LONG) == []


def test_add_noqa_comments_a_file_whose_name_is_250_bytes(project, check):
    path = write(project / LONG, UNFIXABLE)
    run = check("--add-noqa", LONG)
    assert (run.exit_code, run.stdout, run.stderr) == (0, "Added 1 noqa code to 1 file.\n", "")
    assert path.read_text() == NOQA


def test_temporary_file_has_a_short_name_in_the_same_folder(tmp_path, monkeypatch):
    import a2alint.fixes as fixes

    seen = []
    real = fixes.os.replace

    def replace(source, target):
        seen.append(pathlib.Path(source))
        return real(source, target)

    monkeypatch.setattr(fixes.os, "replace", replace)
    path = write(tmp_path / LONG)
    write_atomically(path, FIXED.encode(), path.read_bytes())
    assert path.read_text() == FIXED
    [temporary] = seen
    assert temporary.parent == tmp_path and len(temporary.name.encode()) < 40


# --- read-only files ----------------------------------------------------------------------


def test_fix_never_writes_a_read_only_file(project, check):
    path = write(project / "bad.py")
    path.chmod(0o444)
    run = check("--select", "AC107", "--fix", "--unsafe-fixes", "bad.py")
    assert path.read_text() == FIXABLE and stat.S_IMODE(path.stat().st_mode) == 0o444
    assert "a2alint: bad.py: not fixed: read-only file" in run.stderr
    assert run.exit_code == 1 and "bad.py:6:27: AC107" in run.stdout and "Fixed" not in run.stdout
    assert _others(project, "bad.py") == []


def test_add_noqa_never_writes_a_read_only_file(project, check):
    path = write(project / "a.py", UNFIXABLE)
    path.chmod(0o464)  # writable by its group, not by its owner
    run = check("--add-noqa", ".")
    assert path.read_text() == UNFIXABLE
    assert "a2alint: a.py: no noqa added: read-only file" in run.stderr
    assert (run.exit_code, run.stdout) == (1, "Added 0 noqa codes to 0 files.\n")


def test_write_atomically_refuses_a_read_only_file(tmp_path):
    path = write(tmp_path / "bad.py")
    path.chmod(0o444)
    with pytest.raises(PermissionError, match="read-only"):
        write_atomically(path, FIXED.encode(), path.read_bytes())
    assert path.read_text() == FIXABLE and _others(tmp_path, "bad.py") == []


def test_a_writable_file_keeps_being_fixed(project, check):
    path = write(project / "bad.py")
    path.chmod(0o600)
    assert check("--select", "AC107", "--fix", "--unsafe-fixes", "bad.py").exit_code == 0
    assert path.read_text() == FIXED and stat.S_IMODE(path.stat().st_mode) == 0o600


# --- the AC107 fix edits only the bytes it must ------------------------------------------------

AC107_HEAD = """\
import hashlib, json
from a2a.client import A2ACardResolver

async def digest(resolver):
    card = await resolver.get_agent_card()
    contract = {"protocolVersion": card.protocol_version}
"""
AC107_TAIL = "    return hashlib.sha256(blob.encode()).hexdigest()\n"


@pytest.mark.parametrize(
    "call, fixed",
    [
        pytest.param(
            '    blob = json.dumps(\n        contract,\n        separators=(",", ":"),\n    )\n',
            '    blob = json.dumps(\n        contract,\n        separators=(",", ":"),\n        sort_keys=True,\n    )\n',
            id="one-per-line-trailing-comma",
        ),
        pytest.param(
            '    blob = json.dumps(\n        contract,\n        separators=(",", ":")\n    )\n',
            '    blob = json.dumps(\n        contract,\n        separators=(",", ":"),\n        sort_keys=True\n    )\n',
            id="one-per-line",
        ),
        pytest.param(
            '    blob = json.dumps(contract,\n                      separators=(",", ":"))\n',
            '    blob = json.dumps(contract,\n                      separators=(",", ":"),\n                      sort_keys=True)\n',
            id="aligned",
        ),
        pytest.param(
            "    blob = json.dumps(\n        contract\n    )\n",
            "    blob = json.dumps(\n        contract,\n        sort_keys=True\n    )\n",
            id="one-argument",
        ),
        pytest.param(
            "    blob = json.dumps(\n\tcontract,  # the contract\n    )\n",
            "    blob = json.dumps(\n\tcontract, sort_keys=True,  # the contract\n    )\n",
            id="comment-after-the-last-argument",
        ),
        pytest.param(
            "    blob = json.dumps(\n        contract  # the contract\n    )\n",
            "    blob = json.dumps(\n        contract, sort_keys=True  # the contract\n    )\n",
            id="comment-without-comma",
        ),
        pytest.param(
            '    blob = json.dumps(\n        # the contract, as a dict\n        {\n            "v": contract,\n        },\n\n        default=str,  # any value\n    )\n',
            '    blob = json.dumps(\n        # the contract, as a dict\n        {\n            "v": contract,\n        },\n\n        default=str, sort_keys=True,  # any value\n    )\n',
            id="comment-lines-and-a-nested-literal",
        ),
        pytest.param(
            '    blob = json.dumps(\n        # the contract, as a dict\n        {\n            "v": contract,\n        },\n        default=str,\n    )\n',
            '    blob = json.dumps(\n        # the contract, as a dict\n        {\n            "v": contract,\n        },\n        default=str,\n        sort_keys=True,\n    )\n',
            id="nested-literal-one-per-line",
        ),
        pytest.param(
            "    blob = json.dumps( contract , )\n",
            "    blob = json.dumps( contract , sort_keys=True, )\n",
            id="one-line-trailing-comma",
        ),
        pytest.param(
            "    blob = json.dumps(contract, default=str)\n",
            "    blob = json.dumps(contract, default=str, sort_keys=True)\n",
            id="one-line",
        ),
    ],
)
def test_ac107_fix_inserts_sort_keys_and_keeps_every_other_byte(call, fixed):
    result = lint_source(AC107_HEAD + call + AC107_TAIL, select=("AC107",), fix="unsafe")
    assert result.fixed == AC107_HEAD + fixed + AC107_TAIL
    assert lint_source(result.fixed, select=("AC107",)).diagnostics == []


def test_ac107_fix_in_nested_blocks_keeps_their_indentation():
    source = textwrap.dedent(
        """\
        import hashlib, json
        from a2a.client import A2ACardResolver

        class Pin:
          async def digest(self, resolver):
              card = await resolver.get_agent_card()
              if card:
                 try:
                    pass
                 finally:
                        blob = json.dumps(
                          {"v": card.protocol_version},
                          default=str
                        )
                        return hashlib.sha256(blob.encode()).hexdigest()
        """
    )
    assert '\n' + " " * 18 + '{"v"' in source
    result = lint_source(source, select=("AC107",), fix="unsafe")
    assert result.fixed == source.replace("default=str\n", "default=str,\n" + " " * 18 + "sort_keys=True\n")


def test_ac107_fix_under_match_and_elif_with_crlf_keeps_the_layout():
    source = textwrap.dedent(
        """\
        import hashlib, json
        from a2a.client import A2ACardResolver

        async def digest(resolver, kind):
            card = await resolver.get_agent_card()
            match kind:
              case "a":
                    pass
              case _:
                 if kind:
                     pass
                 elif card:
                  blob = json.dumps(
                      {"v": card.protocol_version},
                      default=str,
                  )
                  return hashlib.sha256(blob.encode()).hexdigest()
        """
    ).replace("\n", "\r\n")
    result = lint_source(source, select=("AC107",), fix="unsafe")
    line = " " * 14 + "default=str,\r\n"
    assert result.fixed == source.replace(line, line + " " * 14 + "sort_keys=True,\r\n")


NO_SPACE = OSError(errno.ENOSPC, "No space left on device")


def test_a_hard_linked_file_on_a_full_disk_is_left_unchanged_and_said_so(project, check, monkeypatch):
    """In place, the space is reserved before the first byte is written: a full disk
    refuses the reservation, and the file stays whole (it was cut at 4,096 bytes)."""
    import a2alint.fixes

    path = write(project / "a.py", FIXABLE)
    os.link(path, project / "b.py")

    def full(handle, offset, length):
        raise NO_SPACE

    monkeypatch.setattr(a2alint.fixes.os, "posix_fallocate", full, raising=False)
    run = check("--fix", "--unsafe-fixes", "a.py")
    assert path.read_text() == FIXABLE and (project / "b.py").read_text() == FIXABLE
    assert "a.py: not fixed: No space left on device; the file is unchanged" in run.stderr
    assert run.exit_code == 1


def test_a_write_in_place_that_fails_midway_puts_the_original_back(project, check, monkeypatch):
    import a2alint.fixes

    path = write(project / "a.py", FIXABLE)
    os.link(path, project / "b.py")
    real = a2alint.fixes._overwrite
    calls = []

    def cut(stream, data):  # the first write stops after 16 bytes, as a full disk stops one
        calls.append(data)
        if len(calls) == 1:
            stream.seek(0)
            stream.write(data[:16])
            stream.truncate()
            raise NO_SPACE
        real(stream, data)

    monkeypatch.setattr(a2alint.fixes, "_overwrite", cut)
    run = check("--fix", "--unsafe-fixes", "a.py")
    assert path.read_text() == FIXABLE
    assert "a.py: not fixed: No space left on device; the file is unchanged (its original bytes were put back)" in run.stderr
