"""The same code gets the same report in every run. A set of atoms iterates by their
hashes, and an object's hash is its address, which moves from run to run: nothing a
report says may hang on that order."""

from __future__ import annotations

import gc
import textwrap
from pathlib import Path

import pytest

from a2alint import values
from a2alint.config import Layer, Overrides, Settings
from a2alint.registry import load_rules
from a2alint.runner import Linter, lint_source

#: A python_a2a client (a card fetch that makes a client): what the send is called on is both
#: that type and "a client made from a card", and its name decides AC103's help.
PEER = textwrap.dedent(
    """\
    from python_a2a import A2AClient


    class Peer:
        def __init__(self, url):
            self._client = A2AClient(url)

        def ask(self, message):
            return self._client.send_message(message)
    """
)


#: A method held in an attribute, one of two functions: one keeps the card (a cache,
#: re-read on expiry: AC104), the other only logs it; which one the call runs is the first
#: of its targets, and must be the same first in every run.
HELD = textwrap.dedent(
    """\
    import time

    import httpx
    from a2a.client import A2ACardResolver

    _CARDS = {}


    def keep_card(url, card):
        _CARDS[url] = card


    def log_card(url, card):
        print(url, card.name)


    class Peer:
        def __init__(self, keep):
            self.fetched_at = 0.0
            self.remember = keep_card if keep else log_card

        async def refresh(self, url):
            if time.monotonic() - self.fetched_at > 60:
                card = await A2ACardResolver(httpx.AsyncClient(), url).get_agent_card()
                self.remember(url, card)
                return card
            return None
    """
)


class _Ordered(frozenset):
    """A frozenset that iterates in an order a test chooses (as another run's addresses might)."""

    backwards = False

    def __iter__(self):  # (atoms that print alike, two classes of one name, by address)
        return iter(sorted(frozenset.__iter__(self), key=lambda atom: (repr(atom), [id(part) for part in atom]), reverse=self.backwards))


def _in_order(monkeypatch, backwards: bool) -> None:
    """Every answer of the analysis iterates forwards or backwards (by its atoms' text)."""
    resolve, attributes = values.Analysis.resolve, values.Analysis.attr_atoms
    order = type("Order", (_Ordered,), {"backwards": backwards})
    monkeypatch.setattr(values.Analysis, "resolve", lambda self, atoms, *args, **kwargs: order(resolve(self, atoms, *args, **kwargs)))
    monkeypatch.setattr(values.Analysis, "attr_atoms", lambda self, *args: order(attributes(self, *args)))


@pytest.mark.parametrize("backwards", [False, True])
def test_a_function_held_in_an_attribute_is_chosen_the_same_in_every_run(monkeypatch, backwards):
    _in_order(monkeypatch, backwards)
    assert [(d.code, d.line) for d in lint_source(HELD, "peer.py").diagnostics] == [("AC104", 24)]


@pytest.mark.parametrize("backwards", [False, True])
def test_what_a_call_runs_does_not_hang_on_the_order_of_its_atoms(monkeypatch, backwards):
    _in_order(monkeypatch, backwards)
    [finding] = lint_source(PEER, "peer.py").diagnostics
    assert finding.code == "AC103"
    assert finding.suggestion.endswith("(no automatic fix: the fix knows the metadata of a2a-sdk messages and raw JSON-RPC bodies, not python_a2a's)")


@pytest.mark.parametrize("backwards", [False, True])
def test_two_classes_of_one_name_in_two_modules_are_told_apart_the_same_in_every_run(monkeypatch, tmp_path, backwards):
    """``Store`` of ``x.store`` keeps the card, ``Store`` of ``y.store`` logs it: their
    methods share a name and a qualified name, so their modules order them."""
    from a2alint.config import Settings
    from a2alint.registry import load_rules
    from a2alint.runner import Linter, check_files

    for package, body in (("x", "    def __init__(self):\n        self._cards = {}\n\n    def put(self, url, card):\n        self._cards[url] = card\n"),
                          ("y", "    def put(self, url, card):\n        print(url, card.name)\n")):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("", encoding="utf-8")
        (tmp_path / package / "store.py").write_text("class Store:\n" + body, encoding="utf-8")
    (tmp_path / "m.py").write_text(textwrap.dedent(
        """\
        import time

        import httpx
        from a2a.client import A2ACardResolver

        from x.store import Store as KeepingStore
        from y.store import Store as LoggingStore


        async def refresh(url, keep, state):
            store = KeepingStore() if keep else LoggingStore()
            if time.monotonic() - state.fetched_at > 60:
                card = await A2ACardResolver(httpx.AsyncClient(), url).get_agent_card()
                store.put(url, card)
                return card
            return None
        """
    ), encoding="utf-8")
    _in_order(monkeypatch, backwards)
    files = [(p.relative_to(tmp_path).as_posix(), p, Settings(root=tmp_path)) for p in sorted(tmp_path.rglob("*.py"))]
    found = [(r.display, d.code, d.line) for r in check_files(Linter(load_rules()), files, jobs=1) for d in r.diagnostics]
    assert found == [("m.py", "AC104", 13)]


# --- one linter, settings that come and go ---------------------------------------------------


def test_a_linter_answers_for_the_settings_it_is_given_not_an_earlier_object_at_their_address(tmp_path):
    """The language server keeps one linter while settings come and go (a config edited,
    another folder opened): a new settings object can take a freed one's address."""
    linter = Linter(load_rules())
    for turn in range(60):
        code = ("AC101", "AC103", "AC104")[turn % 3]
        settings = Settings(root=tmp_path).with_overrides(Overrides(layer=Layer(select=(code,))))
        assert linter.enabled(settings) == {code}, turn
        del settings
        gc.collect()  # the settings go, and their address is free for the next ones


def test_one_linter_checking_a_file_under_one_selection_after_another_reports_each_ones_rules(tmp_path):
    path = Path(__file__).parent / "corpus" / "bad_requests_watch_cli.py"
    data = path.read_bytes()
    linter = Linter(load_rules())
    for turn in range(30):
        code = ("AC101", "AC103", "AC105")[turn % 3]
        settings = Settings(root=tmp_path).with_overrides(Overrides(layer=Layer(select=(code,))))
        result = linter.check_bytes(data, path.name, path, settings)
        assert {d.code for d in result.diagnostics} == {code}, turn
        del settings, result
        gc.collect()
