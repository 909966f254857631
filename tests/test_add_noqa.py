"""``--add-noqa``: a ``# noqa: CODE`` for every current finding, written as safely as a fix."""

from __future__ import annotations

import stat

from a2alint import cli
from conftest import DIGESTS, FIXABLE, UNFIXABLE, cross_module_project, write

#: AC107 at line 2 (UNFIXABLE) and line 3, whose end is inside a string.
IN_STRING = UNFIXABLE + 'def g(card): return hash(card.model_dump_json() + """\n""")\n'


def test_adds_a_comment_at_the_end_of_each_reported_line_and_then_passes(project, check):
    path = write(project / "a.py", UNFIXABLE + "x = 1   \n")
    run = check("--add-noqa", ".")
    assert (run.exit_code, run.stdout) == (0, "Added 1 noqa code to 1 file.\n")
    assert path.read_text() == UNFIXABLE.replace("json())\n", "json())  # noqa: AC107\n") + "x = 1   \n"
    assert check(".").exit_code == 0


def test_running_it_twice_adds_nothing(project, check):
    path = write(project / "a.py", FIXABLE)
    check("--add-noqa", ".")
    once = path.read_bytes()
    run = check("--add-noqa", ".")
    assert (run.exit_code, run.stdout) == (0, "Added 0 noqa codes to 0 files.\n")
    assert path.read_bytes() == once


def test_extends_an_existing_noqa_and_keeps_other_comments(project, check):
    line = "def f(card): return hash(card.model_dump_json())"
    path = write(project / "a.py", f"import a2a\n{line}  # noqa: E501\n{line}  # why\n")
    assert check("--add-noqa", ".").stdout == "Added 2 noqa codes to 1 file.\n"
    assert path.read_text() == f"import a2a\n{line}  # noqa: E501, AC107\n{line}  # why  # noqa: AC107\n"


def test_a_line_that_ends_inside_a_string_is_left_and_said(project, check):
    path = write(project / "a.py", IN_STRING)
    run = check("--add-noqa", ".")
    assert run.stdout == "Added 1 noqa code to 1 file.\n"
    assert run.stderr == (
        "a2alint: a.py:3: no noqa added: the line ends inside a string or continues on the next one; add the comment by hand\n"
        "a2alint: 1 finding was left without a noqa: the check still reports it\n"
    )
    assert run.exit_code == 1  # a finding is left
    assert path.read_text() == IN_STRING.replace("json())\n", "json())  # noqa: AC107\n", 1)


def test_keeps_encoding_bom_line_endings_and_mode(project, check):
    source = "# -*- coding: latin-1 -*-\r\n" + UNFIXABLE.replace("\n", "\r\n") + "OWNER = 'Zoë'\r\n"
    latin = write(project / "latin.py", source.encode("latin-1"))
    bom = write(project / "bom.py", b"\xef\xbb\xbf" + UNFIXABLE.encode())
    latin.chmod(0o751)
    assert check("--add-noqa", ".").exit_code == 0
    assert latin.read_bytes() == source.replace("json())\r\n", "json())  # noqa: AC107\r\n").encode("latin-1")
    assert bom.read_bytes() == b"\xef\xbb\xbf" + UNFIXABLE.replace("json())\n", "json())  # noqa: AC107\n").encode()
    assert stat.S_IMODE(latin.stat().st_mode) == 0o751
    assert sorted(p.name for p in project.iterdir() if p.name != ".a2alint_cache") == ["bom.py", "latin.py"]


def test_unparsable_files_are_left_alone_and_counted(project, check):
    broken = write(project / "broken.py", "import a2a\ndef f(:\n")
    run = check("--add-noqa", ".")
    assert (run.exit_code, run.stdout) == (1, "Added 0 noqa codes to 0 files.\n")
    assert broken.read_text() == "import a2a\ndef f(:\n"


def test_a_file_changed_on_disk_meanwhile_is_not_overwritten(project, check, edited_meanwhile):
    path = write(project / "a.py", UNFIXABLE)
    edited_meanwhile(UNFIXABLE + "# edited meanwhile\n")
    run = check("--add-noqa", ".")
    assert path.read_text() == UNFIXABLE + "# edited meanwhile\n"
    assert "a.py: no noqa added: changed on disk while checking" in run.stderr
    assert run.exit_code == 1


def test_comments_that_would_not_parse_are_not_written(project, check, monkeypatch):
    path = write(project / "a.py", UNFIXABLE)
    monkeypatch.setattr("a2alint.fixes.parses", lambda source: False)
    run = check("--add-noqa", ".")
    assert path.read_text() == UNFIXABLE
    assert "a.py: no noqa added: the comments would stop it parsing" in run.stderr and run.exit_code == 1


def test_add_noqa_with_fix_or_stdin_is_a_usage_error(project, check):
    write(project / "a.py", UNFIXABLE)
    assert check("--add-noqa", "--fix", ".").exit_code == 2
    assert check("--add-noqa", "-", input=UNFIXABLE).exit_code == 2
    assert (project / "a.py").read_text() == UNFIXABLE


# --- findings that rest on another module ------------------------------------------------

def test_a_finding_that_rests_on_another_module_is_commented_as_the_check_reports_it(project, check):
    digests = cross_module_project(project)
    assert check(".").stdout.startswith("digests.py:6:27: AC107")
    run = check("--add-noqa", ".")
    assert (run.exit_code, run.stdout, run.stderr) == (0, "Added 1 noqa code to 1 file.\n", "")
    assert digests.read_text() == DIGESTS.replace("hexdigest()\n", "hexdigest()  # noqa: AC107\n")
    assert check(".").exit_code == 0


def test_a_file_changed_since_the_check_is_checked_again_in_its_project(project, check, monkeypatch):
    digests = cross_module_project(project)
    comment = cli._add_noqa

    def edited_first(*arguments):
        digests.write_text("# a header written meanwhile\n" + DIGESTS)
        return comment(*arguments)

    monkeypatch.setattr(cli, "_add_noqa", edited_first)
    run = check("--add-noqa", ".")
    assert (run.exit_code, run.stdout) == (0, "Added 1 noqa code to 1 file.\n")
    assert digests.read_text() == "# a header written meanwhile\n" + DIGESTS.replace("hexdigest()\n", "hexdigest()  # noqa: AC107\n")


def test_a_reason_follows_the_codes_and_the_comment_still_suppresses(project, check):
    path = write(project / "a.py", UNFIXABLE)
    run = check("--add-noqa=legacy digests, see #12", ".")
    assert (run.exit_code, run.stdout) == (0, "Added 1 noqa code to 1 file.\n")
    assert path.read_text() == UNFIXABLE.replace("json())\n", "json())  # noqa: AC107 legacy digests, see #12\n")
    assert check("--report-unused-noqa", ".").exit_code == 0


def test_a_path_after_a_bare_add_noqa_is_a_path_and_a_reason_read_as_codes_is_refused(project, check):
    write(project / "a.py", UNFIXABLE)
    path = write(project / "src" / "b.py", UNFIXABLE)
    assert check("--add-noqa", "src").stdout == "Added 1 noqa code to 1 file.\n"
    assert path.read_text().endswith("json())  # noqa: AC107\n")
    assert (project / "a.py").read_text() == UNFIXABLE
    refused = check("--add-noqa=v2 migration", ".")
    assert refused.exit_code == 2 and "would be read as rule codes" in refused.stderr
    assert (project / "a.py").read_text() == UNFIXABLE
