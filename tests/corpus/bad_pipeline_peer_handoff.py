"""The pipeline of ok_pipeline_peer_handoff.py gone wrong: inside stage A's stream the
driver re-reads stage A's own card (the same resolver, the same URL) and lets it decide
A's task, instead of the contract frozen before the send."""

import hashlib
import json

import httpx
from a2a.client import A2ACardResolver, ClientConfig, ClientFactory
from a2a.types import TaskIdParams


def contract_hash(card) -> str:
    fields = card.model_dump(mode="json", include={"protocol_version", "security_schemes", "security"})
    return hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()


def digest_of(card: dict) -> str:
    fields = {key: card.get(key) for key in ("protocolVersion", "securitySchemes", "security")}
    return hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()


async def handoff(http: httpx.AsyncClient, a_url: str, msg_a):
    factory = ClientFactory(ClientConfig(httpx_client=http))
    resolver = A2ACardResolver(http, a_url)
    a_card = await resolver.get_agent_card()
    frozen = contract_hash(a_card)
    msg_a.metadata = {"contract_hash": frozen}
    client = factory.create(a_card)
    async for task, _update in client.send_message(msg_a):
        again = await resolver.get_agent_card()  # expect: AC101, AC104
        if contract_hash(again) != frozen:
            await client.cancel_task(TaskIdParams(id=task.id))  # expect: AC105
            return


def rpc(method: str, text: str, contract: str) -> dict:
    message = {"role": "user", "messageId": method + text[:8], "parts": [{"kind": "text", "text": text}]}
    return {"jsonrpc": "2.0", "id": 1, "method": method, "params": {"message": message, "metadata": {"contract_hash": contract}}}


def relay(upstream: str, text: str) -> dict:
    """Over plain JSON-RPC: the upstream card is read again after the send, and its
    skills decide whether the task it already runs is cancelled."""
    with httpx.Client(timeout=30) as http:
        first = http.get(f"{upstream}/.well-known/agent-card.json").json()
        answer = http.post(first["url"], json=rpc("message/send", text, digest_of(first))).json()["result"]
        second = http.get(f"{upstream}/.well-known/agent-card.json").json()  # expect: AC101
        if "summarize" not in {skill["id"] for skill in second.get("skills", [])}:
            cancel = {"jsonrpc": "2.0", "id": 2, "method": "tasks/cancel", "params": {"id": answer["id"]}}
            http.post(first["url"], json=cancel)  # expect: AC102
        return answer
