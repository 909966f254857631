"""Support-desk routing agent: an ADK LLM agent that delegates to remote A2A agents.

The LLM sees the roster of remote agents and calls the ``send_message`` tool
with an agent name and the work to hand over; the tool sends it through that
agent's ``RemoteAgentConnection`` (a2a-sdk 0.2 ``A2AClient``) and carries the
task id forward while the remote task waits for input.

Each connection freezes its peer's contract when it is built from the card
read at discovery, and attaches the digest to every message it sends, so the
task carries the contract it was accepted under.
"""

from __future__ import annotations

import asyncio
import json
from uuid import uuid4

from a2a.types import AgentCard, JSONRPCErrorResponse, Message, MessageSendParams, SendMessageRequest, TaskState, TextPart
from google.adk import Agent

from .connection import RemoteAgentConnection
from .discovery import discover_peers, peer_addresses

WAITING = (TaskState.input_required, TaskState.auth_required)


def _text(parts) -> str:
    return "\n".join(p.root.text for p in parts if isinstance(p.root, TextPart))


class RoutingAgent:
    def __init__(self) -> None:
        self.remote_agent_connections: dict[str, RemoteAgentConnection] = {}
        self.peers: dict[str, AgentCard] = {}
        self._threads: dict[str, tuple[str | None, str | None]] = {}

    @classmethod
    async def create(cls, addresses: list[str]) -> RoutingAgent:
        host = cls()
        for name, profile in (await discover_peers(addresses)).items():
            host.remote_agent_connections[name] = RemoteAgentConnection(profile, profile.url)
            host.peers[name] = profile
        return host

    def instruction(self) -> str:
        roster = "\n".join(json.dumps(conn.describe()) for conn in self.remote_agent_connections.values())
        return (
            "You route customer requests to the right specialist agent. "
            "Use send_message(agent_name, task) to delegate, then relay the answer.\n"
            f"Agents:\n{roster}"
        )

    def create_agent(self) -> Agent:
        return Agent(
            model="gemini-2.5-flash",
            name="support_router",
            instruction=self.instruction(),
            tools=[self.send_message],
        )

    async def send_message(self, agent_name: str, task: str) -> str:
        """Hand `task` to the remote agent `agent_name` and return what it answered."""
        if agent_name not in self.remote_agent_connections:
            return f"unknown agent {agent_name!r}; choose one of {sorted(self.remote_agent_connections)}"
        conn = self.remote_agent_connections[agent_name]
        context_id, open_id = self._threads.get(agent_name, (None, None))
        payload = {"message": {"role": "user", "parts": [{"kind": "text", "text": task}], "messageId": uuid4().hex}}
        if context_id:
            payload["message"]["contextId"] = context_id
        if open_id:
            payload["message"]["taskId"] = open_id
        request = SendMessageRequest(id=uuid4().hex, params=MessageSendParams.model_validate(payload))
        response = await conn.send_message(request)
        if isinstance(response.root, JSONRPCErrorResponse):
            return f"{agent_name} failed: {response.root.error.message}"
        outcome = response.root.result
        if isinstance(outcome, Message):
            return _text(outcome.parts)
        waiting = outcome.status.state in WAITING
        self._threads[agent_name] = (outcome.context_id, outcome.id if waiting else None)
        if waiting and outcome.status.message:
            return f"{agent_name} needs more input: {_text(outcome.status.message.parts)}"
        return "\n".join(_text(a.parts) for a in outcome.artifacts or []) or outcome.status.state.value


def build_root_agent() -> Agent:
    host = asyncio.run(RoutingAgent.create(peer_addresses()))
    return host.create_agent()
