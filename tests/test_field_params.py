"""A helper handed a record whose one field holds the fetched card (its skills) reads it
field by field: polling the configured endpoint it also holds is not the card deciding."""

from __future__ import annotations

from a2alint.runner import lint_source


def codes(source: str) -> list[tuple[int, str]]:
    return sorted((d.line, d.code) for d in lint_source(source, path="peers.py").diagnostics)


ROSTER_POLL = '''"""Keep a roster of peer agents: refresh what each advertises, and poll their open tasks."""

import httpx

ROSTER = {
    "billing": {"endpoint": "https://billing.internal/a2a", "card_url": "https://billing.internal/.well-known/agent-card.json"},
    "search": {"endpoint": "https://search.internal/a2a", "card_url": "https://search.internal/.well-known/agent-card.json"},
}


def poll_task(client: httpx.Client, peer: dict, task_id: str) -> str:
    reply = client.post(peer["endpoint"], json={"jsonrpc": "2.0", "id": task_id, "method": "tasks/get", "params": {"id": task_id}})
    return reply.json()["result"]["status"]["state"]


def sweep(client: httpx.Client, open_tasks: dict[str, str]) -> dict[str, str]:
    states = {}
    for name, peer in ROSTER.items():
        advertised = client.get(peer["card_url"]).json()
        peer["skills"] = [s["id"] for s in advertised.get("skills", [])]
        if name in open_tasks:
            states[name] = poll_task(client, peer, open_tasks[name])
    return states
'''

RECORD_POLL = '''"""Peers as records: the advertised skills are shown on a dashboard, the task is polled at the configured URL."""

from dataclasses import dataclass, field

import httpx
from a2a.client import A2ACardResolver


@dataclass
class Peer:
    base_url: str
    rpc_url: str
    skills: list[str] = field(default_factory=list)


async def task_state(http: httpx.AsyncClient, peer: Peer, task_id: str) -> str:
    reply = await http.post(peer.rpc_url, json={"jsonrpc": "2.0", "id": 1, "method": "tasks/get", "params": {"id": task_id}})
    return reply.json()["result"]["status"]["state"]


async def refresh(http: httpx.AsyncClient, peers: list[Peer], running: dict[str, str]) -> dict[str, str]:
    seen = {}
    for peer in peers:
        card = await A2ACardResolver(http, peer.base_url).get_agent_card()
        peer.skills = [skill.id for skill in card.skills]
        if peer.base_url in running:
            seen[peer.base_url] = await task_state(http, peer, running[peer.base_url])
    return seen
'''

SKILL_DECIDES = '''"""A roster sweep that lets a peer's re-read skills decide whether its running task is cancelled."""

import httpx

ROSTER = {
    "billing": {"endpoint": "https://billing.internal/a2a", "card_url": "https://billing.internal/.well-known/agent-card.json"},
}


def settle(client: httpx.Client, peer: dict, task_id: str) -> None:
    if "invoice" not in peer["skills"]:
        client.post(peer["endpoint"], json={"jsonrpc": "2.0", "id": task_id, "method": "tasks/cancel", "params": {"id": task_id}})


def sweep(client: httpx.Client, open_tasks: dict[str, str]) -> None:
    for name, peer in ROSTER.items():
        advertised = client.get(peer["card_url"]).json()
        peer["skills"] = [s["id"] for s in advertised.get("skills", [])]
        if name in open_tasks:
            settle(client, peer, open_tasks[name])
'''


def test_a_helper_polling_the_configured_endpoint_of_a_dict_is_silent():
    assert codes(ROSTER_POLL) == []


def test_a_helper_polling_the_configured_url_of_a_record_is_silent():
    assert codes(RECORD_POLL) == []


def test_a_helper_deciding_on_the_card_field_still_reports():
    assert codes(SKILL_DECIDES) == [(12, "AC102"), (17, "AC101")]
