"""The same code gets the same report in every run. A set of atoms iterates by their
hashes, and an object's hash is its address, which moves from run to run: nothing a
report says may hang on that order."""

from __future__ import annotations

import textwrap

import pytest

from a2alint import values
from a2alint.runner import lint_source

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


class _Ordered(frozenset):
    """A frozenset that iterates in an order a test chooses (as another run's addresses might)."""

    backwards = False

    def __iter__(self):
        return iter(sorted(frozenset.__iter__(self), key=repr, reverse=self.backwards))


@pytest.mark.parametrize("backwards", [False, True])
def test_what_a_call_runs_does_not_hang_on_the_order_of_its_atoms(monkeypatch, backwards):
    resolve = values.Analysis.resolve
    order = type("Order", (_Ordered,), {"backwards": backwards})
    monkeypatch.setattr(values.Analysis, "resolve", lambda self, atoms, *args, **kwargs: order(resolve(self, atoms, *args, **kwargs)))
    [finding] = lint_source(PEER, "peer.py").diagnostics
    assert finding.code == "AC103"
    assert finding.suggestion.endswith("(no automatic fix: the fix knows the metadata of a2a-sdk messages and raw JSON-RPC bodies, not python_a2a's)")
