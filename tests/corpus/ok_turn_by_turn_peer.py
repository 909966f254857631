"""The correct twin of bad_turn_by_turn_peer.py: the card is resolved and its
contract frozen once, before the task exists; every later turn and every poll
uses what was resolved then."""

import hashlib
import json
import time

import httpx
from a2a.client import A2ACardResolver, ClientConfig, ClientFactory
from a2a.types import Message, Part, Role, TaskState, TextPart


def contract_of(card) -> str:
    fields = {"protocolVersion": card.protocol_version, "security": card.security}
    return hashlib.sha256(json.dumps(fields, sort_keys=True, default=str).encode()).hexdigest()


async def conversation(url, text):
    task_id = None
    async with httpx.AsyncClient() as http:
        card = await A2ACardResolver(http, url).get_agent_card()
        contract = contract_of(card)
        client = ClientFactory(ClientConfig(httpx_client=http)).create(card)
        for _ in range(5):
            msg = Message(
                role=Role.user, message_id="m", task_id=task_id,
                parts=[Part(root=TextPart(text=text))], metadata={"contract": contract},
            )
            async for task, _update in client.send_message(msg):
                pass
            if task.status.state == TaskState.input_required:
                task_id = task.id
                continue
            return task


def auth_headers(card):
    scheme = next(iter(card.get("securitySchemes") or {}), None)
    if card.get("security") and scheme is None:
        raise RuntimeError("no usable security scheme")
    return {"Authorization": "Bearer t"} if scheme else {}


def poll_task(endpoint, headers, task_id):
    body = {"jsonrpc": "2.0", "id": 1, "method": "tasks/get", "params": {"id": task_id}}
    return httpx.post(endpoint, json=body, headers=headers).json()["result"]


def submit_and_wait(base_url, text):
    card = httpx.get(f"{base_url}/.well-known/agent-card.json").json()
    endpoint, headers = card["url"], auth_headers(card)
    message = {"role": "user", "messageId": "m1", "parts": [{"kind": "text", "text": text}],
               "metadata": {"contract": hashlib.sha256(json.dumps(card["security"], sort_keys=True).encode()).hexdigest()}}
    send = {"jsonrpc": "2.0", "id": 0, "method": "message/send", "params": {"message": message}}
    task_id = httpx.post(endpoint, json=send, headers=headers).json()["result"]["id"]
    while True:
        task = poll_task(endpoint, headers, task_id)
        if task["status"]["state"] in ("completed", "failed", "canceled"):
            return task
        time.sleep(2)
