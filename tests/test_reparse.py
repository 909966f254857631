"""An edited buffer parsed from its last version: the tree is the one a full parse gives,
and only the statement the edit falls in is parsed again."""

from __future__ import annotations

import random
from pathlib import Path

import libcst as cst
import pytest

from a2alint.config import Settings
from a2alint.model import Expr, Fact, Frame, Fragment, Scope, build_model
from a2alint.positions import Positions
from a2alint.registry import load_rules
from a2alint.reparse import Reparser, spliced
from a2alint.runner import Linter
from a2alint.workspace import Workspace

ROOT = Path(__file__).resolve().parents[1]

BUFFER = '''"""Routing agent: forwards a user's turn to the peer that can take it."""
import hashlib
import json

import httpx
from a2a.client import A2ACardResolver


# peers by name, filled at start-up
PEERS: dict = {}


@staticmethod
def pick(name):
    # the first peer whose name matches
    for key, meta in PEERS.items():
        if key == name:
            return meta
    return None


async def forward(name, text):
    meta = pick(name)
    async with httpx.AsyncClient() as http:
        card = await A2ACardResolver(http, meta["url"]).get_agent_card()
        digest = hashlib.sha256(json.dumps(card.model_dump()).encode()).hexdigest()
        return card.name, text


class Router:
    def __init__(self):
        self.count = 0

    def route(self, text):
        self.count += 1
        return text
        # a note at the end of the block


if __name__ == "__main__":
    print(PEERS)
'''


def _splice(old: str, new: str) -> cst.Module | None:
    module = cst.parse_module(old)
    return spliced(old, module, Positions.statement_starts(module, old), new)


def _edit(text: str, anchor: str, replacement: str) -> str:
    assert text.count(anchor) == 1, anchor
    return text.replace(anchor, replacement)


@pytest.mark.parametrize(
    "anchor, replacement",
    [
        ('meta["url"]', 'meta.get("url")'),  # an expression inside a function
        ("        return card.name, text\n", "        return card.name, text\n        print(card)\n"),  # a new line
        ("    meta = pick(name)\n", "    meta = pick(name)\n\n    # looked up\n"),  # a blank line and a comment
        ("        self.count += 1\n", "        self.count += 1\n        if text:\n            text = text.strip()\n"),
        ("def pick(name):", "def pick(name, default=None):"),  # the decorated def's own line
        ("    def route(self, text):", "    async def route(self, text):"),  # a block that ends in a comment
        ("    return None\n", "    return None\n    # more\n"),  # a comment indented into the block
        ("        return card.name, text\n", "        return card.name, text\nDEFAULT = 1\n"),  # a new statement after it
    ],
)
def test_an_edit_inside_one_statement_is_spliced_as_a_full_parse_would_read_it(anchor, replacement):
    new = _edit(BUFFER, anchor, replacement)
    got = _splice(BUFFER, new)
    assert got is not None
    assert got.deep_equals(cst.parse_module(new)) and got.code == new


def test_the_statements_the_edit_misses_are_the_old_nodes():
    old = cst.parse_module(BUFFER)
    new_text = _edit(BUFFER, 'meta["url"]', 'meta.get("url")')
    new = spliced(BUFFER, old, Positions.statement_starts(old, BUFFER), new_text)
    changed = [i for i, (a, b) in enumerate(zip(old.body, new.body)) if a is not b]
    assert len(old.body) == len(new.body) and len(changed) == 1
    assert "async def forward" in old.code_for_node(old.body[changed[0]])


@pytest.mark.parametrize(
    "anchor, replacement",
    [
        ('"""Routing agent', '"""The routing agent'),  # the first statement (the module's header is there)
        ("    print(PEERS)\n", "    print(PEERS, flush=True)\n"),  # the last statement (the file's end)
        ("# peers by name, filled at start-up\n", "# peers, by name\n"),  # the lines above a statement
        ("    return None\n\n\nasync def", "    return None\nasync def"),  # across two statements
        ("        # a note at the end of the block\n", "# a note at the end of the block\n"),  # a trailing comment's owner
        ("    return None\n", "    return None\n# more\n"),  # a new comment at the margin: the next statement's
        ("    meta = pick(name)\n", "    meta = pick(name\n"),  # left unclosed: the full parse says what is wrong
    ],
)
def test_an_edit_a_splice_cannot_be_sure_of_is_a_full_parse(anchor, replacement):
    assert _splice(BUFFER, _edit(BUFFER, anchor, replacement)) is None


def test_an_unclosed_edit_is_the_full_parse_error():
    reparser = Reparser()
    model = Linter(load_rules()).model_of(BUFFER, "router.py", Settings(root=Path.cwd()), frozenset())
    reparser.keep("router.py", BUFFER, model)
    with pytest.raises(cst.ParserSyntaxError):
        reparser.parse("router.py", _edit(BUFFER, "    meta = pick(name)\n", "    meta = pick(name\n"))


def _sources() -> list[Path]:
    return sorted([*(ROOT / "tests" / "corpus").rglob("*.py"), *(ROOT / "examples").rglob("*.py")])


SNIPPETS = ["x", " ", "\n", "\n\n", "    ", "# c\n", "    # c\n", "        # deep\n", "if x:\n    y = 1\n", "pass\n",
            ")", "(", '"""', "'", ":", "\\\n", "\t", "def g():\n", "\n    return 1\n", "@dec\n", "else:\n", "  ", "#"]


def _random_edit(rng: random.Random, text: str, snippets: list[str]) -> tuple[int, str]:
    """Where, and ``text`` with a snippet typed there or a few characters deleted."""
    at = rng.randrange(len(text) + 1)
    if rng.random() < 0.6:
        return at, text[:at] + rng.choice(snippets) + text[at:]
    return at, text[:at] + text[at + rng.randint(1, 12):]


def test_random_edits_splice_only_to_the_full_parse():
    """Edits of every kind at random places of real modules: a splice is either refused
    or the tree (and code) a full parse gives. The edits chain, as typing does."""
    rng = random.Random(11)
    sources = _sources()
    spliced_count = 0
    for _ in range(60):
        text = rng.choice(sources).read_text()
        module = cst.parse_module(text)
        for _ in range(6):
            at, new = _random_edit(rng, text, SNIPPETS)
            got = spliced(text, module, Positions.statement_starts(module, text), new)
            try:
                full = cst.parse_module(new)
            except Exception:
                full = None
            if got is not None:
                spliced_count += 1
                assert full is not None, (at, new[max(0, at - 80) : at + 80])
                assert got.deep_equals(full) and got.code == full.code and got.default_indent == full.default_indent, (
                    at, new[max(0, at - 80) : at + 80]
                )
            if full is not None:
                text, module = new, full
    assert spliced_count >= 40  # the property is not empty: many of the edits are spliced


def test_a_buffer_checked_after_an_edit_has_the_findings_of_a_fresh_check(tmp_path):
    (tmp_path / "router.py").write_text(BUFFER)
    registry = load_rules()
    from a2alint.config import SettingsResolver

    def workspace() -> tuple[Workspace, Settings]:
        resolver = SettingsResolver(registry, cwd=tmp_path)
        return Workspace(Linter(registry), resolver), resolver.for_path(tmp_path / "router.py")

    editing, settings = workspace()
    path = tmp_path / "router.py"
    editing.check("router.py", path, BUFFER, settings)
    edited = _edit(BUFFER, "        return card.name, text\n", "        card = await A2ACardResolver(http, meta['url']).get_agent_card()\n        return card.name, text\n")
    reparses = []
    original = editing._reparser.parse
    editing._reparser.parse = lambda key, text: reparses.append(key) or original(key, text)
    after_edit = editing.check("router.py", path, edited, settings)
    fresh, settings = workspace()
    assert reparses  # the edited version was parsed from the last one
    assert after_edit.diagnostics  # and there is something to compare
    assert [d.to_json() for d in after_edit.diagnostics] == [d.to_json() for d in fresh.check("router.py", path, edited, settings).diagnostics]


def test_an_unsaved_buffer_writes_nothing_to_the_cache(tmp_path, monkeypatch):
    """The editor's text, saved or not, is the editor's: neither its facts nor its findings
    are kept on disk (the command line reads them otherwise)."""
    from a2alint.cache import Cache
    from a2alint.config import SettingsResolver

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "home"))  # the cache's signing key lives there
    (tmp_path / "router.py").write_text(BUFFER)
    registry = load_rules()
    written = []
    monkeypatch.setattr(Cache, "_write", lambda self, key, kind, payload: written.append(kind))
    resolver = SettingsResolver(registry, cwd=tmp_path)
    workspace = Workspace(Linter(registry), resolver)
    path = tmp_path / "router.py"
    result = workspace.check("router.py", path, _edit(BUFFER, 'meta["url"]', 'meta.get("url")'), resolver.for_path(path))
    assert result.diagnostics  # it was checked
    assert written == []


@pytest.mark.parametrize(
    "old, new",
    [
        ("x = 1\ny = 2\nz = 3\n", "x = 1\n\ufeffw = 2\nz = 3\n"),  # a byte order mark pasted mid-file: an error
        ("import os\n\x0c\nx += 1\nx += 1\nx += 1\nprint(x)\n", "import os\n\x0c\nx += 2\nx += 1\nx += 1\nprint(x)\n"),
        ("a = 'x\u2028y'\npass\npass\npass\nb = 1\n", "a = 'x\u2028y'\nok = 1\npass\npass\nb = 1\n"),  # not line breaks
        # the file's first indented block taken away: its indentation is the next block's
        ("x = 1\ndef f():\n    pass\ny = 2\ndef g():\n  pass\nz = 3\n", "x = 1\nf = 1\ny = 2\ndef g():\n  pass\nz = 3\n"),
    ],
)
def test_what_a_full_parse_reads_otherwise_is_never_spliced(old, new):
    got = _splice(old, new)
    try:
        full = cst.parse_module(new)
    except cst.ParserSyntaxError:
        full = None
    assert got is None or (full is not None and got.deep_equals(full) and got.code == full.code and got.default_indent == full.default_indent)


def test_a_check_in_the_workspace_leaves_no_cycles_behind(tmp_path):
    """The server runs without the cyclic collector: what a keystroke's check made (its
    model, its analysis) is freed when the check ends, not at the next collection."""
    import gc

    from a2alint.config import SettingsResolver

    (tmp_path / "router.py").write_text(BUFFER)
    registry = load_rules()
    resolver = SettingsResolver(registry, cwd=tmp_path)
    workspace = Workspace(Linter(registry), resolver)
    path, settings = tmp_path / "router.py", resolver.for_path(tmp_path / "router.py")
    workspace.check("router.py", path, BUFFER, settings)
    gc.collect()
    gc.disable()
    try:
        result = workspace.check("router.py", path, _edit(BUFFER, 'meta["url"]', 'meta.get("url")'), settings)
        left = gc.collect()
    finally:
        gc.enable()
    assert result.diagnostics and left == 0


FACT_LISTS = ("calls", "binds", "tests", "guards", "exits", "frames")


def _facts(model) -> list:
    """Everything ``model`` says, as plain data (facts by their place, nodes by identity,
    frames by their kind and counts): two models equal here say the same."""
    places = {
        id(fact): (name, scope.index, index)
        for scope in model.scopes
        for name in ("calls", "binds", "tests", "guards", "exits")
        for index, fact in enumerate(getattr(scope, name))
    }

    def plain(value):
        if isinstance(value, Fact):
            return ("fact", places.get(id(value)))
        if isinstance(value, Frame):
            return ("frame", value.kind, value.start, value.end, value.branch, value.endless, value.deadline,
                    sorted(value.exits.items()), id(value.node), plain(value.test))
        if isinstance(value, Scope):  # and whether it is this model's
            return ("scope", value.index, value.index < len(model.scopes) and model.scopes[value.index] is value)
        if isinstance(value, cst.CSTNode):
            return ("node", id(value))
        if isinstance(value, (list, tuple)):
            return [plain(item) for item in value]
        if isinstance(value, (set, frozenset)):
            return sorted(repr(plain(item)) for item in value)
        if hasattr(value, "items"):
            return sorted((repr(key), plain(item)) for key, item in value.items())
        if isinstance(value, Expr) or hasattr(value, "__dict__"):
            return (type(value).__name__, sorted((k, plain(v)) for k, v in vars(value).items() if v and k != "scope"))
        return value

    def fields(thing) -> list:
        return sorted((k, plain(v)) for k, v in vars(thing).items() if v and k not in FACT_LISTS and k != "scope")

    said = []
    for scope in model.scopes:
        said.append(fields(scope))  # its own fields, then each fact's
        for name in FACT_LISTS:
            said += [(name, fields(fact)) for fact in getattr(scope, name)]
    said.append((plain(model.imports), plain(model.strings), plain(model.rpc_methods), plain(model.classes),
                 plain(model.statement_of), plain(model.parent_statement)))
    return said


def test_a_model_built_from_the_last_version_says_what_a_whole_walk_says():
    """Random chained edits of real modules, each version's model built from the last
    one's fragments (the functions the edit missed reused, their counts moved, the last
    run's answers forgotten) and compared with a walk of the whole tree."""
    rng = random.Random(5)
    sources = _sources()
    snippets = [*SNIPPETS, "import os\n", "    import os\n", "class A:\n    pass\n", "f(a=1)", ", b=2", '"message/send"']
    reused = 0
    for _ in range(40):
        text = rng.choice(sources).read_text()
        reparser = Reparser()
        model = reparser.build("m.py", reparser.parse("m.py", text), "m.py")
        reparser.keep("m.py", text, model)
        for _ in range(6):
            at, new = _random_edit(rng, text, snippets)
            for call in model.calls:  # what a run's analysis leaves on the facts
                call.roles, call.qualified = {"send"}, "a2a:Client.send_message"
            model.release()  # as the run that checked it does
            try:
                module = reparser.parse("m.py", new)
            except Exception:
                continue
            last = reparser._last["m.py"].fragments or {}
            model = reparser.build("m.py", module, "m.py")
            reused += sum(1 for fragment in model.fragments.values() if last.get(id(fragment.node)) is fragment)
            assert _facts(model) == _facts(build_model(module, "m.py")), (at, new[max(0, at - 80) : at + 80])
            reparser.keep("m.py", new, model)
            text = new
    assert reused >= 30  # the property is not empty: many functions were reused, not walked


def test_an_edited_function_s_fragment_is_let_go():
    reparser = Reparser()
    model = reparser.build("router.py", reparser.parse("router.py", BUFFER), "router.py")
    reparser.keep("router.py", BUFFER, model)
    fragments = dict(model.fragments)
    assert {f.node.name.value for f in fragments.values()} == {"pick", "forward"}  # the class is walked each time
    edited = _edit(BUFFER, 'meta["url"]', 'meta.get("url")')
    model = reparser.build("router.py", reparser.parse("router.py", edited), "router.py")
    kept = {f.node.name.value: f for f in model.fragments.values()}
    old = {f.node.name.value: f for f in fragments.values()}
    assert kept["pick"] is old["pick"] and kept["forward"] is not old["forward"]
    assert old["forward"].scopes == [] and old["pick"].scopes  # the edited one's cycles are broken
    assert reparser._last["router.py"].fragments is None  # nothing offers the last version's twice


def test_a_buffer_edited_again_and_again_has_the_findings_of_a_fresh_check(tmp_path, monkeypatch):
    from a2alint.config import SettingsResolver

    (tmp_path / "router.py").write_text(BUFFER)
    registry = load_rules()
    installed = []
    original = Fragment.install
    monkeypatch.setattr(Fragment, "install", lambda self, builder: installed.append(self) or original(self, builder))
    resolver = SettingsResolver(registry, cwd=tmp_path)
    editing, path = Workspace(Linter(registry), resolver), tmp_path / "router.py"
    settings = resolver.for_path(path)
    text = BUFFER
    editing.check("router.py", path, text, settings)
    edits = [
        ('meta["url"]', 'meta.get("url")'),
        ("        return card.name, text\n", "        if card.skills:\n            raise SystemExit(1)\n        return card.name, text\n"),
        ("    for key, meta in PEERS.items():\n", "    for key, meta in sorted(PEERS.items()):\n"),
        ("        if card.skills:\n", "        if not card.skills:\n"),
    ]
    for anchor, replacement in edits:
        text = _edit(text, anchor, replacement)
        after_edit = editing.check("router.py", path, text, settings)
        fresh = Workspace(Linter(registry), SettingsResolver(registry, cwd=tmp_path))
        assert [d.to_json() for d in after_edit.diagnostics] == [d.to_json() for d in fresh.check("router.py", path, text, settings).diagnostics]
    assert len(installed) >= len(edits)  # each check reused the function the edit missed


def test_positions_placed_from_the_last_version_are_the_ones_a_full_placement_gives(monkeypatch):
    """Edits of real modules, typed within a line or across lines: each version's positions
    start from the last one's (CPython's statements kept where the edit left them, only the
    edited statement parsed) and place every fact's node where a placement from scratch does."""
    import a2alint.positions as positions

    reused = []
    original = positions._reused
    def counted(*args):
        found = original(*args)
        reused.append(found is not None)
        return found

    monkeypatch.setattr(positions, "_reused", counted)
    rng = random.Random(3)
    sources = _sources()
    snippets = ["x", "f(a=1)", ", b=2", "'s'", "(1)", "é", "\n", "    y = g(x)\n"]
    for _ in range(40):
        text = rng.choice(sources).read_text()
        reparser = Reparser()
        model = reparser.build("m.py", reparser.parse("m.py", text), "m.py")
        Positions.of(model, text)
        reparser.keep("m.py", text, model)
        for _ in range(5):
            _, new = _random_edit(rng, text, snippets)
            try:
                module = reparser.parse("m.py", new)
            except Exception:
                continue
            model = reparser.build("m.py", module, "m.py")
            placed, fresh = Positions.of(model, new), Positions(build_model(module, "m.py"), new)
            assert placed.starts == fresh.starts
            nodes = [fact.node for scope in model.scopes for name in FACT_LISTS[:-1] for fact in getattr(scope, name) if fact.node is not None]
            ours, theirs = placed.get(nodes), fresh.get(nodes)
            assert [ours[n] for n in nodes] == [theirs[n] for n in nodes]
            reparser.keep("m.py", new, model)
            text = new
    assert sum(reused) >= 40  # many versions started from the last one's


def test_an_edited_buffer_s_nesting_is_measured_where_it_changed():
    """The last version's depth and the replaced statement's, when both are shallow: what
    the parse and the analysis are run with is decided as a measure of the whole text decides."""
    from a2alint.nesting import ROOMY, Nesting

    reparser = Reparser()
    model = reparser.build("router.py", reparser.parse("router.py", BUFFER), "router.py")
    reparser.keep("router.py", BUFFER, model, Nesting.of(BUFFER))
    edited = _edit(BUFFER, 'meta["url"]', 'meta.get("url")')
    measured = reparser.nesting("router.py", edited)
    assert measured.refusal is None and measured.depth <= ROOMY
    spliced_while_measuring = reparser._measured["router.py"][1]
    assert reparser.parse("router.py", edited) is spliced_while_measuring  # not parsed twice
    deep = _edit(BUFFER, 'meta["url"]', "(" * 120 + "meta" + ")" * 120 + '["url"]')
    measured = reparser.nesting("router.py", deep)
    assert measured.depth == Nesting.of(deep).depth > ROOMY  # too deep for the splice's measure: the whole text's
    rng = random.Random(7)
    sources = _sources()
    agreed = 0
    for _ in range(60):  # enough files that the count does not hang on which ones the corpus holds
        text = rng.choice(sources).read_text()
        reparser = Reparser()
        model = reparser.build("m.py", reparser.parse("m.py", text), "m.py")
        reparser.keep("m.py", text, model, Nesting.of(text))
        for _ in range(5):
            _, new = _random_edit(rng, text, [*SNIPPETS, "((((x))))", "f(g(h(i(j()))))"])
            ours, whole = reparser.nesting("m.py", new), Nesting.of(new)
            assert (ours.refusal is None, ours.depth <= ROOMY) == (whole.refusal is None, whole.depth <= ROOMY)
            agreed += "m.py" in reparser._measured
            try:
                module = reparser.parse("m.py", new)
            except Exception:
                continue
            # what a full parse gives, which is the text itself but where libcst cannot give it
            # back (a line of only a backslash continuation loses its indentation)
            assert module.code == cst.parse_module(new).code
            model = reparser.build("m.py", module, "m.py")
            reparser.keep("m.py", new, model, ours)
            text = new
    assert agreed >= 15  # the property is not empty: versions were measured where they changed


def _cycles_left(tmp_path, act) -> int:
    """Cyclic garbage left by ``act(workspace, path, settings)`` after a first check."""
    import gc

    from a2alint.config import SettingsResolver

    (tmp_path / "router.py").write_text(BUFFER)
    registry = load_rules()
    resolver = SettingsResolver(registry, cwd=tmp_path)
    workspace = Workspace(Linter(registry), resolver)
    path, settings = tmp_path / "router.py", resolver.for_path(tmp_path / "router.py")
    workspace.buffers[path.resolve()] = BUFFER
    workspace.check("router.py", path, BUFFER, settings)
    assert workspace._reparser._last[path.resolve()].fragments  # something to let go of
    gc.collect()
    gc.disable()
    try:
        act(workspace, path, settings)
        return gc.collect()
    finally:
        gc.enable()


def test_a_closed_buffer_s_facts_are_freed_at_once(tmp_path):
    def close(workspace, path, settings):
        workspace.buffers.pop(path.resolve())
        workspace.closed(path)

    assert _cycles_left(tmp_path, close) == 0


def test_a_lint_stopped_after_its_model_was_built_leaves_no_cycles(tmp_path):
    from a2alint.control import Cancelled, cancellable

    def stopped(workspace, path, settings):
        edited = _edit(BUFFER, 'meta["url"]', 'meta.get("url")')
        with pytest.raises(Cancelled), cancellable(lambda: True):
            workspace.check("router.py", path, edited, settings)

    assert _cycles_left(tmp_path, stopped) == 0
