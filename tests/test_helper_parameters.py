"""A helper's parameter is what its callers pass: code moved into a helper of its own is
judged by the values its call sites give it, not by everything they could hold. Each
source is a client as a developer writes it, its findings marked ``# expect: CODE``."""

from __future__ import annotations

import textwrap

import pytest
from test_rule_examples import expected

from a2alint.runner import lint_source

#: A hash helper given the contract fields of a raw JSON card; a second caller hands it the
#: whole card, which is still found in the helper.
HASH_HELPER_RAW = """
import hashlib
import json

import httpx

CONTRACT_KEYS = ("protocolVersion", "securitySchemes", "security")


def _sha256_json(payload) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True, separators=(",", ":")).encode()).hexdigest()  # {mark}


def pin_peer(base_url: str) -> str:
    card = httpx.get(f"{base_url}/.well-known/agent-card.json", timeout=5).json()
    return _sha256_json({key: card.get(key) for key in CONTRACT_KEYS})
"""

HASH_HELPER_RAW_WHOLE = HASH_HELPER_RAW + '''

def pin_whole(base_url: str) -> str:
    card = httpx.get(f"{base_url}/.well-known/agent-card.json", timeout=5).json()
    return _sha256_json(card)
'''

#: The same with an a2a-sdk card, a static method and a keyword argument.
HASH_HELPER_SDK = """
import hashlib
import json

from a2a.client import A2ACardResolver


class ContractPin:
    @staticmethod
    def _digest(blob, salt=""):
        return hashlib.sha256((salt + json.dumps(blob, sort_keys=True, default=str)).encode()).hexdigest()  # {mark}

    async def pin(self, resolver: A2ACardResolver) -> str:
        card = await resolver.get_agent_card()
        terms = {k: v for k, v in card.model_dump().items() if k in ("protocol_version", "security_schemes", "security")}
        return self._digest(blob=terms)
"""

HASH_HELPER_SDK_WHOLE = HASH_HELPER_SDK + '''
    async def pin_all(self, resolver: A2ACardResolver) -> str:
        card = await resolver.get_agent_card()
        return self._digest(blob=card.model_dump())
'''

SOURCES = {
    "hash-helper-raw": HASH_HELPER_RAW.replace("{mark}", "the contract fields only"),
    "hash-helper-raw-whole": HASH_HELPER_RAW_WHOLE.replace("{mark}", "expect: AC107"),
    "hash-helper-sdk": HASH_HELPER_SDK.replace("{mark}", "the contract fields only"),
    "hash-helper-sdk-whole": HASH_HELPER_SDK_WHOLE.replace("{mark}", "expect: AC107"),
}


@pytest.mark.parametrize("name", SOURCES)
def test_findings_are_judged_by_what_callers_pass(name):
    source = textwrap.dedent(SOURCES[name])
    result = lint_source(source, path=f"{name}.py")
    assert result.errors == []
    assert sorted((d.line, d.code) for d in result.diagnostics) == expected(source)
