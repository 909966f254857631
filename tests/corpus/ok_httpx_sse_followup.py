"""A raw JSON-RPC client over httpx-sse: the card is read and its contract frozen before
the ``message/stream`` submission, and an input-required turn is answered on the task
the stream reports, with the contract frozen at send (no card read after submission)."""

import hashlib
import json

import httpx
from httpx_sse import aconnect_sse, connect_sse

CARD_PATH = "/.well-known/agent-card.json"


def contract_of(card: dict) -> str:
    fields = {k: card.get(k) for k in ("protocolVersion", "securitySchemes", "security")}
    return hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()


def turn(method: str, text: str, contract: str, task_id: str | None = None) -> dict:
    message = {"role": "user", "messageId": f"{method}-{len(text)}", "parts": [{"kind": "text", "text": text}]}
    if task_id:
        message["taskId"] = task_id
    return {"jsonrpc": "2.0", "id": 1, "method": method, "params": {"message": message, "metadata": {"contract_hash": contract}}}


async def run(http: httpx.AsyncClient, base: str, text: str, answer: str) -> None:
    card = (await http.get(base + CARD_PATH)).json()
    if card["protocolVersion"] != "0.3.0":
        raise RuntimeError("unsupported protocol")
    contract = contract_of(card)
    async with aconnect_sse(http, "POST", card["url"], json=turn("message/stream", text, contract)) as source:
        async for sse in source.aiter_sse():
            result = json.loads(sse.data)["result"]
            if result.get("status", {}).get("state") == "input-required":
                reply = {"role": "user", "messageId": "reply-1", "taskId": result["taskId"],
                         "parts": [{"kind": "text", "text": answer}]}
                await http.post(card["url"], json={"jsonrpc": "2.0", "id": 2, "method": "message/send",
                                                   "params": {"message": reply, "metadata": {"contract_hash": contract}}})


def follow(base: str, text: str, answer: str) -> list[str]:
    """The same submission, synchronously, answering a question on the streamed task."""
    seen = []
    with httpx.Client(timeout=None) as http:
        card = http.get(base + CARD_PATH).json()
        if not card.get("capabilities", {}).get("streaming"):
            raise RuntimeError("the peer does not stream")
        contract = contract_of(card)
        with connect_sse(http, "POST", card["url"], json=turn("message/stream", text, contract)) as source:
            for sse in source.iter_sse():
                event = json.loads(sse.data)["result"]
                seen.append(event.get("kind", "?"))
                if event.get("status", {}).get("state") == "input-required":
                    params = {"message": {"role": "user", "messageId": "reply-2", "taskId": event["taskId"],
                                          "parts": [{"kind": "text", "text": answer}]}, "metadata": {"contract_hash": contract}}
                    http.post(card["url"], json={"jsonrpc": "2.0", "id": 3, "method": "message/send", "params": params})
    return seen
