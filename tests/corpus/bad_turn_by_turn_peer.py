"""Issue 11's reproductions 1 and 3: a task continued turn after turn, and a task
polled to its end, each re-resolving the peer's card on every pass (AC101 and AC104
on the same fetch)."""

import time

import httpx
from a2a.client import A2ACardResolver, ClientConfig, ClientFactory
from a2a.types import Message, Part, Role, TaskState, TextPart


async def conversation(url, text):
    task_id = None
    async with httpx.AsyncClient() as http:
        resolver = A2ACardResolver(http, url)
        for _ in range(5):
            card = await resolver.get_agent_card()  # expect: AC101, AC104
            client = ClientFactory(ClientConfig(httpx_client=http)).create(card)
            msg = Message(role=Role.user, message_id="m", task_id=task_id, parts=[Part(root=TextPart(text=text))])
            async for task, _update in client.send_message(msg):  # expect: AC103
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


def poll_task(base_url, task_id):
    card = httpx.get(f"{base_url}/.well-known/agent-card.json").json()  # expect: AC101, AC104
    headers = auth_headers(card)
    body = {"jsonrpc": "2.0", "id": 1, "method": "tasks/get", "params": {"id": task_id}}
    return httpx.post(card["url"], json=body, headers=headers).json()["result"]


def wait(base_url, task_id):
    while True:
        task = poll_task(base_url, task_id)
        if task["status"]["state"] in ("completed", "failed", "canceled"):
            return task
        time.sleep(2)
