"""A two-stage pipeline: stage A's task streams, and on its first event the driver
resolves stage B's card (a different peer, first time) to start a NEW task there.
B's card decides B's task only; A's task keeps the contract frozen before its send."""

import hashlib
import json

import httpx
from a2a.client import A2ACardResolver, ClientConfig, ClientFactory


def contract_hash(card) -> str:
    skills = sorted(skill.id for skill in card.skills)
    return hashlib.sha256(json.dumps([card.protocol_version, skills], sort_keys=True).encode()).hexdigest()


def digest_of(card: dict) -> str:
    skills = sorted(skill["id"] for skill in card.get("skills", []))
    return hashlib.sha256(json.dumps([card["protocolVersion"], skills], sort_keys=True).encode()).hexdigest()


async def handoff(http: httpx.AsyncClient, a_url: str, b_url: str, msg_a, msg_b):
    factory = ClientFactory(ClientConfig(httpx_client=http))
    a_card = await A2ACardResolver(http, a_url).get_agent_card()
    if a_card.protocol_version != "0.3.0":
        raise RuntimeError("stage A speaks another protocol")
    msg_a.metadata = {"contract_hash": contract_hash(a_card)}
    b = None
    async for event in factory.create(a_card).send_message(msg_a):
        if b is None:  # the first and only fetch of stage B's card
            b_card = await A2ACardResolver(http, b_url).get_agent_card()
            if b_card.protocol_version != "0.3.0":
                raise RuntimeError("stage B speaks another protocol")
            msg_b.metadata = {"contract_hash": contract_hash(b_card)}
            b = factory.create(b_card)
            async for _ in b.send_message(msg_b):
                pass


def rpc(method: str, text: str, contract: str) -> dict:
    message = {"role": "user", "messageId": method + text[:8], "parts": [{"kind": "text", "text": text}]}
    return {"jsonrpc": "2.0", "id": 1, "method": method, "params": {"message": message, "metadata": {"contract_hash": contract}}}


def relay(upstream: str, downstream: str, text: str) -> dict:
    """The same hand-off over plain JSON-RPC: the downstream peer's card is read once
    the upstream answer is in, and decides only the downstream request."""
    with httpx.Client(timeout=30) as http:
        first = http.get(f"{upstream}/.well-known/agent-card.json").json()
        digest = digest_of(first)
        answer = http.post(first["url"], json=rpc("message/send", text, digest)).json()["result"]
        second = http.get(f"{downstream}/.well-known/agent-card.json").json()
        if "summarize" not in {skill["id"] for skill in second.get("skills", [])}:
            return answer
        summary = json.dumps(answer.get("artifacts", []))
        return http.post(second["url"], json=rpc("message/send", summary, digest_of(second))).json()["result"]
