"""A host agent that pins a peer's contract before delegating, with two unstable digests."""

import hashlib
import json

import httpx
from a2a.client import A2ACardResolver


async def pinned_contract(base_url: str) -> str:
    async with httpx.AsyncClient() as http:
        card = await A2ACardResolver(http, base_url).get_agent_card()
    contract = {
        "protocolVersion": card.protocol_version,
        "securitySchemes": card.security_schemes,
        "security": card.security,
    }
    # Key order of the dump varies between producers: the digest is not canonical.
    return hashlib.sha256(json.dumps(contract).encode()).hexdigest()


def cache_key(card) -> int:
    # Salted per process: two workers never agree on this.
    return hash(card.model_dump_json())
