"""ask-agent: send one prompt to an A2A 1.x agent and print the answer (a2a-sdk 1.x).

The card (extended, when the agent offers one) is read before sending, its
protocol version checked, and its contract digest attached to the request
metadata. After the stream ends the task's own status is read with get_task,
and a still-running task is followed with subscribe.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import sys
from uuid import uuid4

import httpx
from a2a.client import ClientConfig, create_client
from a2a.helpers import get_message_text
from a2a.types import (
    AgentCard,
    GetExtendedAgentCardRequest,
    GetTaskRequest,
    Message,
    Part,
    Role,
    SendMessageRequest,
    SubscribeToTaskRequest,
    TaskState,
)
from google.protobuf.json_format import MessageToDict

SUPPORTED_VERSION = "1.0"
TERMINAL = {
    TaskState.TASK_STATE_COMPLETED,
    TaskState.TASK_STATE_FAILED,
    TaskState.TASK_STATE_CANCELED,
    TaskState.TASK_STATE_REJECTED,
}


def contract_digest(card: AgentCard) -> str:
    contract = {
        "supportedInterfaces": sorted(f"{i.protocol_binding}|{i.protocol_version}|{i.url}" for i in card.supported_interfaces),
        "securitySchemes": {name: MessageToDict(scheme) for name, scheme in card.security_schemes.items()},
        "securityRequirements": [MessageToDict(requirement) for requirement in card.security_requirements],
    }
    return hashlib.sha256(json.dumps(contract, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


async def run(url: str, prompt: str, stream: bool) -> int:
    async with httpx.AsyncClient(timeout=60) as http:
        client = await create_client(url, client_config=ClientConfig(httpx_client=http, streaming=stream))
        card = await client.get_extended_agent_card(GetExtendedAgentCardRequest())
        versions = {interface.protocol_version for interface in card.supported_interfaces}
        if SUPPORTED_VERSION not in versions:
            print(f"agent speaks {sorted(versions)}, this CLI speaks {SUPPORTED_VERSION}", file=sys.stderr)
            return 2
        request = SendMessageRequest(
            message=Message(role=Role.ROLE_USER, message_id=uuid4().hex, parts=[Part(text=prompt)]),
        )
        request.metadata.update({"contract_digest": contract_digest(card)})
        task_id = None
        async for response in client.send_message(request):
            if response.HasField("message"):
                print(get_message_text(response.message))
                return 0
            if response.HasField("task"):
                task_id = response.task.id
            elif response.HasField("status_update"):
                print("...", TaskState.Name(response.status_update.status.state), file=sys.stderr)
        if task_id is None:
            return 1
        task = await client.get_task(GetTaskRequest(id=task_id))
        if task.status.state not in TERMINAL and stream:
            async for response in client.subscribe(SubscribeToTaskRequest(id=task_id)):
                if response.HasField("status_update") and response.status_update.status.state in TERMINAL:
                    break
            task = await client.get_task(GetTaskRequest(id=task_id))
        print(TaskState.Name(task.status.state))
        for artifact in task.artifacts:
            print("\n".join(part.text for part in artifact.parts if part.HasField("text")))
        return 0 if task.status.state == TaskState.TASK_STATE_COMPLETED else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ask-agent", description=__doc__.splitlines()[0])
    parser.add_argument("url", help="the agent's base URL")
    parser.add_argument("prompt")
    parser.add_argument("--no-stream", action="store_true", help="wait for the final task instead of streaming")
    args = parser.parse_args(argv)
    return asyncio.run(run(args.url, args.prompt, not args.no_stream))


if __name__ == "__main__":
    sys.exit(main())
