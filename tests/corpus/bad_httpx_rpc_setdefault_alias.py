"""Posts tasks to a translation agent over raw JSON-RPC with httpx (A2A 0.3 wire format).

Each request carries the caller's tenant in ``params.metadata``, filled through
the dict that ``setdefault`` hands back. Replies are polled with ``tasks/get``
until final.

Defect: no digest of the agent card's contract is sent with the task.
"""

import asyncio
import os
import sys
import uuid

import httpx

FINAL = {"completed", "failed", "canceled", "rejected"}


def rpc(method: str, params: dict) -> dict:
    return {"jsonrpc": "2.0", "id": str(uuid.uuid4()), "method": method, "params": params}


async def translate(http: httpx.AsyncClient, endpoint: str, text: str, lang: str) -> dict:
    message = {"role": "user", "messageId": str(uuid.uuid4()), "parts": [{"kind": "text", "text": text}]}
    body = rpc("message/send", {"message": message})
    meta = body["params"].setdefault("metadata", {})
    meta["targetLanguage"] = lang
    meta["tenant"] = os.environ["TRANSLATOR_TENANT"]
    response = await http.post(endpoint, json=body, timeout=60)  # expect: AC103
    response.raise_for_status()
    return response.json()["result"]


async def wait(http: httpx.AsyncClient, endpoint: str, task: dict) -> dict:
    for _ in range(60):
        if task["status"]["state"] in FINAL:
            return task
        await asyncio.sleep(2)
        response = await http.post(endpoint, json=rpc("tasks/get", {"id": task["id"]}), timeout=30)
        response.raise_for_status()
        task = response.json()["result"]
    raise TimeoutError(f"task {task['id']} still {task['status']['state']}")


async def main(endpoint: str, lang: str, text: str) -> int:
    async with httpx.AsyncClient() as http:
        task = await wait(http, endpoint, await translate(http, endpoint, text, lang))
    if task["status"]["state"] != "completed":
        print(f"translation {task['status']['state']}", file=sys.stderr)
        return 1
    for artifact in task.get("artifacts", []):
        for part in artifact["parts"]:
            print(part.get("text", ""))
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1], sys.argv[2], " ".join(sys.argv[3:]))))
