"""What AC105 says a card-change comparison compared: the card fields it reads that change
with the contract, its version among them, not only the contract fields by name."""

from a2alint.runner import lint_source

REDEPLOYED = '''
from a2a.client import A2ACardResolver
from a2a.types import TaskIdParams


async def resume(client, resolver: A2ACardResolver, ticket, recorded_version):
    peer = await resolver.get_agent_card()
    if peer.version != recorded_version:
        await client.cancel_task(TaskIdParams(id=ticket))
'''


def test_a_version_comparison_is_named_in_the_note():
    found = [d for d in lint_source(REDEPLOYED, "resume.py").diagnostics if d.code == "AC105"]
    assert len(found) == 1
    assert any("comparison (version)" in note.label for note in found[0].related)
