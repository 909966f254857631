"""``--fix`` and ``--add-noqa`` change the bytes of their edits and no other: in encodings
whose decoding and encoding again is not the identity (cp932, cp950, big5 map several
byte pairs to one character), and on lines that end in whitespace."""

from __future__ import annotations

import pytest

from a2alint.fixes import UnwritableEditError, splice_bytes
from conftest import UNFIXABLE, write

#: A character each encoding reads from two byte pairs, and the pair it does not write.
UNCANONICAL = {
    "cp932": ("\u2252", b"\x87\x90"),  # ≒: written 81 E0
    "cp950": ("\u5341", b"\xa2\xcc"),  # 十: written A4 51
    "big5": ("\uff0f", b"\xa1\xfe"),  # ／: written A2 41
}

FIXABLE_MARKED = """\
# -*- coding: {codec} -*-
import hashlib, json
from a2a.client import A2ACardResolver
MARK = "{mark}"
async def digest(resolver):
    card = await resolver.get_agent_card()
    contract = {{"protocolVersion": card.protocol_version, "mark": "{mark}"}}
    return hashlib.sha256(json.dumps(contract).encode()).hexdigest() + "{mark}"
"""


def _uncanonical(text: str, codec: str) -> bytes:
    """``text`` in ``codec``, with its marked character written as the pair that does not come back."""
    mark, pair = UNCANONICAL[codec]
    data = text.encode(codec)
    assert mark.encode(codec) != pair and pair.decode(codec) == mark
    return data.replace(mark.encode(codec), pair)


@pytest.fixture(params=sorted(UNCANONICAL))
def codec(request) -> str:
    return request.param


def test_fix_keeps_every_byte_outside_its_edit(project, check, codec):
    source = FIXABLE_MARKED.format(codec=codec, mark=UNCANONICAL[codec][0])
    data = _uncanonical(source, codec)
    path = write(project / "bad.py", data)
    run = check("--select", "AC107", "--fix", "--unsafe-fixes", "bad.py")
    assert (run.exit_code, run.stderr) == (0, "")
    assert path.read_bytes() == data.replace(b"json.dumps(contract)", b"json.dumps(contract, sort_keys=True)")


def test_fix_of_piped_source_keeps_every_byte_outside_its_edit(project, check, codec):
    data = _uncanonical(FIXABLE_MARKED.format(codec=codec, mark=UNCANONICAL[codec][0]), codec)
    run = check("--select", "AC107", "--fix", "--unsafe-fixes", "--stdin-filename", "bad.py", "-", input=data)
    assert run.exit_code == 0
    assert run.stdout_bytes == data.replace(b"json.dumps(contract)", b"json.dumps(contract, sort_keys=True)")


def test_add_noqa_keeps_every_byte_outside_its_comment(project, check, codec):
    mark = UNCANONICAL[codec][0]
    source = f"# -*- coding: {codec} -*-\nMARK = '{mark}'\n" + UNFIXABLE.replace("json())", f"json() + '{mark}')")
    data = _uncanonical(source, codec)
    path = write(project / "a.py", data)
    run = check("--add-noqa", "a.py")
    assert (run.exit_code, run.stdout) == (0, "Added 1 noqa code to 1 file.\n")
    assert path.read_bytes() == data.replace(b"')\n", b"')  # noqa: AC107\n")


def test_a_fix_its_encoding_cannot_write_is_refused_with_a_message(project, check, plugin_rule, monkeypatch):
    monkeypatch.setattr(plugin_rule, "replacement", "\u8a18\u9332")  # a name latin-1 cannot write
    source = "# -*- coding: latin-1 -*-\nimport a2a\nprint('Zoë')\n".encode("latin-1")
    path = write(project / "bad.py", source)
    run = check("--preview", "--select", plugin_rule.code, "--fix", "--unsafe-fixes", "bad.py")
    assert path.read_bytes() == source
    assert run.exit_code == 1 and "bad.py:3:1: AC990" in run.stdout
    assert "a2alint: bad.py: not fixed: the new text has characters iso-8859-1 cannot encode" in run.stderr


# --- trailing whitespace ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "trailing, comment",
    [
        ("", "  # noqa: AC107"),
        (" ", " # noqa: AC107"),
        ("   ", "# noqa: AC107"),
        ("\t", " # noqa: AC107"),
        (" \t ", "# noqa: AC107"),
    ],
)
@pytest.mark.parametrize("ending", ["\n", "\r\n"])
def test_add_noqa_appends_after_trailing_whitespace_and_keeps_it(project, check, trailing, comment, ending):
    """The line keeps every byte; the comment follows them, two whitespace characters (at least)
    after the code, the line's own counting."""
    line = "def f(card): return hash(card.model_dump_json())"
    path = write(project / "a.py", f"import a2a{ending}{line}{trailing}{ending}x = 1{ending}".encode())
    assert check("--add-noqa", "a.py").exit_code == 0
    assert path.read_bytes() == f"import a2a{ending}{line}{trailing}{comment}{ending}x = 1{ending}".encode()


def test_bytes_that_would_not_read_back_as_the_edited_text_are_refused():
    """The check before any write: the spliced bytes, decoded, are the edited text."""
    with pytest.raises(UnwritableEditError, match="cannot write it in utf-8 and keep the other bytes as they are"):
        splice_bytes(b"x = 1\n", "x = 2\n", [(0, 1, "y")], "utf-8")
    assert splice_bytes(b"x = 2\n", "x = 2\n", [(0, 1, "y")], "utf-8") == b"y = 2\n"
