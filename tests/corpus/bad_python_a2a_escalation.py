"""Escalation bot: hands incidents to the on-call agent and follows them (python-a2a).

Bugs: the message goes out with no frozen contract, and while following the
incident the bot builds a fresh A2AClient (whose constructor re-reads the
card) on every poll, cancelling the incident when "page-oncall" is missing
from that newer card. The chat bot's own send_message is not A2A.
"""

from __future__ import annotations

import logging
import time

from python_a2a import A2AClient, Message, MessageRole, TextContent

log = logging.getLogger("escalation")


class ChatOpsBot:
    """Posts into the incident channel of the chat tool."""

    def __init__(self, webhook: str):
        self.webhook = webhook

    def send_message(self, channel: str, text: str) -> None:
        log.info("-> %s: %s", channel, text)


def escalate(endpoint: str, incident: str, chat: ChatOpsBot) -> str | None:
    client = A2AClient(endpoint, timeout=30)
    reply = client.send_message(Message(content=TextContent(text=incident), role=MessageRole.USER))  # expect: AC103
    task_id = (reply.metadata or {}).get("task_id")
    chat.send_message("#incidents", f"escalated to on-call agent as {task_id}")
    return follow(client, endpoint, task_id, chat) if task_id else reply.content.text


def follow(client: A2AClient, endpoint: str, task_id: str, chat: ChatOpsBot, max_polls: int = 60) -> str | None:
    for _ in range(max_polls):
        task = client.get_task(task_id)
        state = task.status.state.value
        if state in ("completed", "failed", "canceled"):
            chat.send_message("#incidents", f"{task_id} is {state}")
            return state
        peer = A2AClient(endpoint)  # expect: AC101, AC104
        if "page-oncall" not in [skill.id for skill in peer.agent_card.skills]:
            client.cancel_task(task_id)  # expect: AC102
            chat.send_message("#incidents", f"on-call agent can no longer page; cancelled {task_id}")
            return None
        time.sleep(10)
    return None
