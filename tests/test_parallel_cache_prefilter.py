"""The performance machinery never changes a result: the prefilter, the process pool, the cache."""

from __future__ import annotations

import json
import multiprocessing
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import FIXABLE, INSTALLED
from test_rule_examples import RULES

from a2alint.apimodel import PACKAGE_WORDS, may_matter
from a2alint.config import Settings
from a2alint.registry import load_rules
from a2alint.rule import example_sources
from a2alint import positions, runner
from a2alint.runner import MIN_FILES_PER_POOL, lint_source

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted((ROOT / "examples").glob("*.py")) + sorted((ROOT / "tests" / "corpus").glob("*.py"))


def _rule_examples():
    for rule in RULES.values():
        for example in (*rule.VALID, *rule.INVALID):
            yield from example_sources(example)


def _shape(result):
    return [(d.line, d.column, d.end_line, d.end_column, d.code, d.message) for d in result.diagnostics]


def test_prefilter_never_changes_results():
    texts = [p.read_text(encoding="utf-8") for p in SOURCES] + list(_rule_examples())
    assert len(texts) > 60
    for text in texts:
        assert _shape(lint_source(text, preview=True)) == _shape(lint_source(text, preview=True, prefilter=False))


def test_prefilter_admits_a_module_that_only_calls_a_configured_wrapper():
    source = "from mypkg.peers import load_card\n\nasync def f(task):\n    card = await load_card('x')\n"
    settings = Settings(root=Path.cwd(), api={"card-fetch": ("mypkg.peers.load_card",)})
    assert may_matter(source.encode(), settings)
    assert not may_matter(b"import os\nprint(os.getcwd())\n", settings)


@pytest.mark.parametrize("source", [
    "from a2a.client import A2AClient\n",
    "from google.adk import a2a\n",
    "import fasta2a as f\n",
    "from google.adk.agents.remote_a2a_agent import RemoteA2aAgent\n",
    "from python_a2a import A2AClient\n",
])
def test_prefilter_admits_every_spelling_of_an_a2a_import(source):
    assert may_matter(source.encode(), Settings(root=Path.cwd()))


def test_prefilter_rules_out_a2a_inside_other_words():
    """A package name is a word; "a2a" inside a data table is not an import."""
    assert all("a2a" in word for word in PACKAGE_WORDS)  # the substring check before the word search
    table = b"entities = {'minusdu;': '\\u2a2a', 'x': 'fa2a3'}\n"
    assert not may_matter(table, Settings(root=Path.cwd()))


@pytest.fixture
def many_files(tmp_path):
    """More files than the in-process threshold, so the pool really runs."""
    for index in range(MIN_FILES_PER_POOL + 6):
        source = SOURCES[index % len(SOURCES)]
        shutil.copy(source, tmp_path / f"m{index:03}_{source.name}")
    (tmp_path / "fixable.py").write_text(FIXABLE, encoding="utf-8")
    return tmp_path


def _run(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(INSTALLED), "check", "--format", "json", *args, "."], cwd=cwd, capture_output=True, text=True)


def test_a_process_pool_reports_exactly_what_one_process_reports(many_files):
    one = _run(many_files, "--no-cache", "--jobs", "1")
    two = _run(many_files, "--no-cache", "--jobs", "2")
    assert one.returncode == two.returncode == 1
    assert one.stdout == two.stdout
    assert '"AC101"' in one.stdout


def _dies_on(name: str):
    """``ProjectRun.check``, except that the process checking ``name`` dies as a native
    crash would take it: the pool's workers and the processes that re-check a dead
    worker's files are forked after the patch, so they inherit it."""
    check = runner.ProjectRun.check

    def checking(run, index):
        if run.files[index][1].name == name:
            os._exit(3)
        return check(run, index)

    return checking


@pytest.mark.skipif(multiprocessing.get_start_method() != "fork", reason="the patched worker reaches the pool only by fork")
def test_a_worker_that_dies_takes_only_the_file_it_died_on(monkeypatch, many_files):
    work = [(path.name, path, Settings(root=many_files)) for path in sorted(many_files.glob("*.py"))]
    alone = runner.check_files(runner.Linter(load_rules()), work, jobs=1)
    victim = work[3][1].name
    monkeypatch.setattr(runner.ProjectRun, "check", _dies_on(victim))
    pooled = runner.check_files(runner.Linter(load_rules()), work, jobs=2)
    assert [r.display for r in pooled] == [r.display for r in alone]
    for before, after in zip(alone, pooled):
        if after.display == victim:
            assert after.diagnostics == [] and len(after.errors) == 1
            assert "the process checking it died (exit status 3)" in after.errors[0]
        else:
            assert after.errors == [] and after.diagnostics == before.diagnostics, after.display


def test_concurrent_runs_share_the_cache_safely(many_files):
    cold = _run(many_files, "--no-cache", "--jobs", "1").stdout
    runs = [
        subprocess.Popen([str(INSTALLED), "check", "--format", "json", "--jobs", "1", "."], cwd=many_files,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(3)
    ]
    outputs = [run.communicate(timeout=300) for run in runs]
    assert [out for out, _ in outputs] == [cold] * 3
    assert all(err == "" for _, err in outputs)
    assert _run(many_files, "--jobs", "1").stdout == cold  # warm, from the shared cache


def test_positions_of_the_statements_with_findings_equal_a_whole_module_pass(monkeypatch):
    """Positions come from CPython's parser, or from generating only the statements that
    hold findings; the result must be what generating the whole module gives (the
    fallback when CPython cannot parse or pair the file)."""
    texts = [p.read_text(encoding="utf-8") for p in SOURCES] + list(_rule_examples())
    partial = [_shape(lint_source(text, preview=True)) + _related(text) for text in texts]
    monkeypatch.setattr(positions.Positions, "_pair", lambda self, *args: False)
    whole = [_shape(lint_source(text, preview=True)) + _related(text) for text in texts]
    assert partial == whole
    assert sum(len(p) for p in partial) > 100


def test_positions_placed_by_cpython_are_the_ones_libcst_generates():
    """Every fact CPython's parser places (statements, calls, tests, parameters, ``with``
    items) is placed exactly where libcst's PositionProvider puts it; CPython's byte
    columns become characters on lines that are not ASCII."""
    import libcst as cst
    from libcst.metadata import MetadataWrapper, PositionProvider

    from a2alint.model import build_model

    texts = [p.read_text(encoding="utf-8") for p in SOURCES] + list(_rule_examples())
    texts.append('é = "é"; s = é.upper(f(1))\nasync def g(a, /, *b, c=h(2), **d):\n    x = k(1) if j(2) else l(3)\n')
    placed = 0
    for text in texts:
        try:
            module = cst.parse_module(text)
        except cst.ParserSyntaxError:  # AC000's examples
            continue
        model = build_model(module, "x.py")
        where = positions.Positions(model, text)
        facts = [f.node for s in model.scopes for f in (*s.calls, *s.binds, *s.tests, *s.exits, *s.frames)]
        facts += [p.node for s in model.scopes for p in s.params]
        for node in facts:
            holder = node if id(node) in where._ast else model.statement_of.get(id(node))
            if holder is not None:
                where._place(holder)
        truth = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
        for node, found in where.ranges.items():
            assert found == truth[node], (type(node).__name__, module.code_for_node(node))
        placed += len(where.ranges)
    assert placed > 2000


ELIF_AND_HEADERS = """\
from a2a.types import TaskIdParams


def has_skill(card, skill_id):
    return any(s.id == skill_id for s in card.skills)


@traced
async def reconcile(client, card, task, skill_id):
    if task is None:
        return
    # the skill test is an elif, generated as one
    elif    not has_skill(card,
                          skill_id):
        await client.cancel_task(TaskIdParams(id=task.id))
    else:
        for attempt in range(3):
            await client.cancel_task(TaskIdParams(id=task.id))
"""


def test_an_elif_and_a_header_are_placed_as_a_whole_module_pass_places_them(monkeypatch):
    """An ``elif`` is generated as an ``elif`` of its own, a header without its body."""
    partial = _shape(lint_source(ELIF_AND_HEADERS)) + _related(ELIF_AND_HEADERS)
    assert [(note.line, note.column) for note in partial[-1]] == [(5, 5), (13, 13)]
    monkeypatch.setattr(positions.Positions, "_pair", lambda self, *args: False)
    assert _shape(lint_source(ELIF_AND_HEADERS)) + _related(ELIF_AND_HEADERS) == partial


def _related(text):
    return [tuple(d.related) for d in lint_source(text, preview=True).diagnostics]


def test_a_file_that_cannot_parse_gets_its_ac000_when_it_could_matter():
    """The prefilter decides before parsing: an A2A file that does not parse is reported,
    a file that could yield no finding is skipped, broken or not."""
    assert [d.code for d in lint_source("from a2a.client import A2AClient\n\ndef f(:\n").diagnostics] == ["AC000"]
    assert lint_source("import os\n\ndef f(:\n").diagnostics == []
    assert [d.code for d in lint_source("import os\n\ndef f(:\n", prefilter=False).diagnostics] == ["AC000"]


# --- positions placed a top-level statement at a time ---------------------------------------------

TOP_LEVEL_SHAPES = [
    '"""Module doc."""\nimport a2a  # x\n\n\n@traced\n# a comment between\n@retry(times=3,\n       delay=1)\nasync def f(card):\n    s = """\nfoo = card.url\n"""\n    return s\n',
    "try:\n    import httpx\nexcept ImportError:\n    httpx = None\nelse:\n    pass\nfinally:\n    x = 1\n",
    "if x:\n    y = g(1)\nelif z:\n    y = g(2)\nelse:\n    y = g(3)\na = 1; b = h(a)\n",
    "x = [1,\n2, f(3)]\ny = 1 + \\\n    k(2)\n@dataclass\nclass C:\n    card: dict\n",
    "s = '''\nelse\n@x\ndef g(): pass\n'''\ndef g():\n    return f(s)\n",
    "s = '''\n@x'''\ndef g():\n    return f(s)\n",
    "match = re.match('a', b)\nmatch match:\n    case 1:\n        f(1)\n",
    "async def f():\n    pass\n\x0cdef g():\n    return f()\n",
    "\ufeffimport a2a\nf(a2a)\n",
    "x = f'{a\n}'\ny = g(x)\n",
    "def f(): return g(1)\n# trailing comment\n",
]


def _model_of(text):
    import libcst as cst

    from a2alint.model import build_model
    from a2alint.nesting import Nesting

    model = build_model(cst.parse_module(text), "x.py")
    model.tops = Nesting.of(text).tops
    return model


def _facts(model):
    nodes = [f.node for s in model.scopes for f in (*s.calls, *s.binds, *s.tests, *s.exits, *s.frames)]
    return nodes + [p.node for s in model.scopes for p in s.params]


def _texts_and_shapes():
    texts = [p.read_text(encoding="utf-8") for p in SOURCES] + list(_rule_examples()) + TOP_LEVEL_SHAPES
    import libcst as cst

    for text in texts:
        try:
            cst.parse_module(text)
        except cst.ParserSyntaxError:
            continue
        yield text


def test_top_level_statements_split_where_cpython_starts_them():
    """Each top-level statement's text starts on the line of its first token (its first
    decorator), as CPython's parse of the whole text says; a text that cannot be split so
    is placed whole."""
    split = whole = 0
    for text in _texts_and_shapes():
        model = _model_of(text)
        spans = positions._top_level_spans(text, model.tops, model.module.body) if model.tops is not None else None
        if spans is None:
            whole += 1
            continue
        split += 1
        truth = positions.Positions(model, text)
        truth._parse_whole()
        if truth.starts is None:  # CPython's statements do not pair with libcst's: generated
            continue
        for statement in model.module.body:
            first = truth._ast[id(statement)][0]
            line = min([first.lineno, *(d.lineno for d in getattr(first, "decorator_list", ()))])
            assert spans[id(statement)][2] == line, text
    assert split > 60 and whole >= 1  # the form feed (strings that look like code are read as strings)


def test_positions_placed_a_statement_at_a_time_are_the_ones_libcst_generates():
    """What a statement-at-a-time placement places is where libcst's PositionProvider puts
    it, and it parses only the top-level statements it is asked about."""
    from libcst.metadata import MetadataWrapper, PositionProvider

    placed = partial = 0
    for text in _texts_and_shapes():
        model = _model_of(text)
        where = positions.Positions(model, text)
        facts = _facts(model)
        asked = facts[: max(1, len(facts) // 3)]
        truth = MetadataWrapper(model.module, unsafe_skip_copy=True).resolve(PositionProvider)
        for batch in (asked, facts):  # some, then all
            found = where.get(batch)
            for node in batch:  # (a generated node's start is exact, its end too unless rough)
                assert found[node].start == truth[node].start, (type(node).__name__, model.module.code_for_node(node))
                assert id(node) in where._rough or found[node] == truth[node], (type(node).__name__, model.module.code_for_node(node))
            placed += len(batch)
            if batch is asked and where._unparsed:
                partial += 1
    assert placed > 1000 and partial > 20


def test_findings_placed_a_statement_at_a_time_are_the_ones_a_whole_parse_places(monkeypatch):
    texts = [p.read_text(encoding="utf-8") for p in SOURCES] + list(_rule_examples()) + TOP_LEVEL_SHAPES
    by_statement = [_shape(lint_source(text, preview=True)) + _related(text) for text in texts]
    monkeypatch.setattr(positions, "_top_level_spans", lambda *args: None)
    assert [_shape(lint_source(text, preview=True)) + _related(text) for text in texts] == by_statement


def test_a_checked_file_s_positions_parse_only_the_statements_its_findings_are_in(monkeypatch):
    """The runner hands the nesting scan's lines to the model: a check of a module whose
    finding sits in one of its functions parses that function alone."""
    made = []
    init = positions.Positions.__init__

    def keeping(self, model, text):
        init(self, model, text)
        made.append(self)

    monkeypatch.setattr(positions.Positions, "__init__", keeping)
    helpers = "".join(f"\n\ndef helper_{i}(x):\n    return x + {i}\n" for i in range(5))
    text = FIXABLE + helpers
    assert lint_source(text).diagnostics
    [where] = made
    assert where._unparsed is not None and len(where._unparsed) >= 5  # the helpers were never parsed


def test_one_process_parses_every_file_then_models_them_then_checks_them(monkeypatch, many_files):
    """The phases of a run in one process: each phase's code stays in the processor's
    caches (interleaved, the benchmark's project ran 11% longer)."""
    events: list[str] = []
    parse, build, check = runner.cst.parse_module, runner.build_model, runner.Linter.check_model
    monkeypatch.setattr(runner.cst, "parse_module", lambda text: events.append("parse") or parse(text))
    monkeypatch.setattr(runner, "build_model", lambda module, path: events.append("model") or build(module, path))
    monkeypatch.setattr(runner.Linter, "check_model", lambda self, *args: events.append("check") or check(self, *args))
    (many_files / "broken.py").write_text("import a2a\ndef f(:\n", encoding="utf-8")
    work = [(path.name, path, Settings(root=many_files)) for path in sorted(many_files.glob("*.py"))]
    results = runner.check_files(runner.Linter(load_rules()), work, jobs=1)
    checked = len(work) - 1  # the broken file is parsed, refused, and neither modelled nor checked
    assert events == ["parse"] * len(work) + ["model"] * checked + ["check"] * checked
    broken = next(r for r in results if r.display == "broken.py")
    assert [d.code for d in broken.diagnostics] == ["AC000"]
    assert any(d.code == "AC101" for r in results for d in r.diagnostics)


def test_a_file_that_cannot_matter_is_prefiltered_once(monkeypatch, tmp_path):
    """The run asks the prefilter of each file's bytes once and hands the answer on (a
    tree of mostly other code is mostly this question)."""
    asked = []
    real = runner.apimodel.may_matter
    monkeypatch.setattr(runner.apimodel, "may_matter", lambda data, settings: asked.append(data) or real(data, settings))
    for index in range(5):
        (tmp_path / f"plain{index}.py").write_text(f"import os\n\nprint(os.getcwd(), {index})\n", encoding="utf-8")
    (tmp_path / "binary.py").write_bytes(b"x = 1\n\x00\n")  # settled on its bytes all the same
    work = [(path.name, path, Settings(root=tmp_path)) for path in sorted(tmp_path.glob("*.py"))]
    results = runner.check_files(runner.Linter(load_rules()), work, jobs=1)
    assert sorted(asked) == sorted(path.read_bytes() for _, path, _ in work)
    assert [[d.code for d in r.diagnostics] for r in results] == [["AC000"], [], [], [], [], []]


def test_one_process_and_a_pool_agree_on_a_caller_two_imports_away(tmp_path):
    """A run in one process parses all its files before checking any, but each joins the
    project as its check comes (as in a pool's share, and as file by file): the callers a
    question finds are the ones a pool finds (``c`` calls ``a.relay`` through ``b``, and
    sorts after ``a``)."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "a.py").write_text(
        "import httpx\nfrom a2a.client import A2AClient\nfrom a2a.types import Message\n\n\n"
        "async def relay(peer_info, text):\n"
        "    client = A2AClient(httpx.AsyncClient(), agent_card=peer_info)\n"
        "    msg = Message(role='user', parts=[{'kind': 'text', 'text': text}], message_id='1')\n"
        "    return await client.send_message(msg)\n",
        encoding="utf-8",
    )
    (package / "b.py").write_text("from a import relay\n\n__all__ = ['relay']\n", encoding="utf-8")
    (package / "c.py").write_text(
        "import httpx\nfrom a2a.client import A2ACardResolver\nfrom b import relay\n\n\n"
        "async def main(url):\n"
        "    async with httpx.AsyncClient() as http:\n"
        "        found = await A2ACardResolver(http, url).get_agent_card()\n"
        "        await relay(found, 'hello')\n",
        encoding="utf-8",
    )
    for index in range(MIN_FILES_PER_POOL + 6):  # enough files for the pool to run
        (package / f"m{index:02}.py").write_text(
            f"from a2a.client import A2ACardResolver\n\n\nasync def f{index}(http, url):\n"
            "    return await A2ACardResolver(http, url).get_agent_card()\n",
            encoding="utf-8",
        )
    one = _run(tmp_path, "--no-cache", "--jobs", "1")
    two = _run(tmp_path, "--no-cache", "--jobs", "2")
    assert one.stdout == two.stdout
    assert ("pkg/a.py", "AC103") in [(d["path"], d["code"]) for d in json.loads(one.stdout)["diagnostics"]]
