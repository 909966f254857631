"""The httpx-sse client of ok_httpx_sse_followup.py gone wrong: one stream is submitted
with no contract frozen, and another re-reads the peer's card while its task streams and
lets that card decide the answer to input-required."""

import hashlib
import json

import httpx
from httpx_sse import aconnect_sse, connect_sse

CARD_PATH = "/.well-known/agent-card.json"


def contract_of(card: dict) -> str:
    fields = {k: card.get(k) for k in ("protocolVersion", "securitySchemes", "security")}
    return hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()


def turn(method: str, text: str, contract: str | None = None, task_id: str | None = None) -> dict:
    message = {"role": "user", "messageId": f"{method}-{len(text)}", "parts": [{"kind": "text", "text": text}]}
    if task_id:
        message["taskId"] = task_id
    params = {"message": message, "metadata": {"contract_hash": contract}} if contract else {"message": message}
    return {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}


async def run(http: httpx.AsyncClient, base: str, text: str, answer: str) -> None:
    card = (await http.get(base + CARD_PATH)).json()
    contract = contract_of(card)
    async with aconnect_sse(http, "POST", card["url"], json=turn("message/stream", text, contract)) as source:
        async for sse in source.aiter_sse():
            result = json.loads(sse.data)["result"]
            if result.get("status", {}).get("state") == "input-required":
                fresh = (await http.get(base + CARD_PATH)).json()  # expect: AC101, AC104
                if fresh["protocolVersion"] != card["protocolVersion"]:
                    return
                await http.post(card["url"], json=turn("message/send", answer, contract, result["taskId"]))


def follow(url: str, text: str) -> list[str]:
    """A stream submitted to a configured URL, with no contract captured for it."""
    seen = []
    with httpx.Client(timeout=None) as http:
        with connect_sse(http, "POST", url, json=turn("message/stream", text)) as source:  # expect: AC103
            for sse in source.iter_sse():
                seen.append(json.loads(sse.data)["result"].get("kind", "?"))
    return seen
