"""``[tool.a2alint.api]`` matched as one table, however long: a name without a wildcard
by lookup, the rest by one expression, and the prefilter by words (a declared API of
100,000 functions once took 70 s; ``benchmarks/worst_shapes.py`` times it)."""

from __future__ import annotations

from types import SimpleNamespace

from a2alint.apimodel import NamePatterns, may_matter
from conftest import write


def test_exact_and_wildcard_patterns_match_as_fnmatch_does():
    patterns = NamePatterns(["mypkg.delegate.submit", "*.refresh_peer_card", "mypkg.load_?"])
    assert patterns.match("mypkg.delegate.submit")
    assert not patterns.match("mypkg.delegate.submit_all", "mypkg.delegate")
    assert patterns.match(None, "", "app.peers.Registry.refresh_peer_card")
    assert patterns.match("mypkg.load_1") and not patterns.match("mypkg.load_12")


def test_the_prefilter_reads_a_declared_name_as_a_word_and_a_wildcard_as_text():
    settings = SimpleNamespace(api={"send": ("mypkg.delegate.submit",), "card-fetch": ("*.fetch*card*",)})
    assert may_matter(b"from mypkg.delegate import submit\nsubmit(job)\n", settings)
    assert not may_matter(b"def resubmit(job):\n    return job\n", settings)
    assert may_matter(b"x = registry.fetch_peer_cards()\n", settings)


def test_a_long_declared_api_finds_what_a_short_one_does(project, check):
    write(project / "relay.py", "async def relay(transport, message):\n    return await transport.deliver(message)\n")
    declared = ", ".join(f'"vendor{i}.client.call_{i}"' for i in range(20_000))
    write(project / "pyproject.toml", f'[tool.a2alint.api]\nsend = [{declared}, "*.deliver"]\n')
    result = check("--no-cache", "--output-format", "concise", "-q")
    assert result.exit_code == 1 and "relay.py:2:18: AC103" in result.stdout
