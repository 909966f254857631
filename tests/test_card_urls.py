"""A raw GET is a card fetch when its URL names the card, however the URL is spelt: the
well-known path relative to the agent's base (``urljoin(base, ".well-known/agent-card.json")``),
or a URL object or request made of a card URL (``httpx.URL(base + CARD_PATH)``,
``yarl.URL(CARD_PATH)``). Each fetch sits in a project helper that hands back the JSON,
and the caller decides on it after the send (AC101); each has a twin whose GET names
something else (a status page, a one-word field that spells a card path's last part), which
is no card fetch.
"""

from __future__ import annotations

import pytest

from a2alint.runner import lint_source


def findings(source: str, code: str) -> list[int]:
    return sorted(d.line for d in lint_source(source, select=(code,)).diagnostics)


RELATIVE_HTTPX = """\
import httpx
from a2a.types import TaskIdParams

CARD_PATH = {path!r}


async def peer_profile(http: httpx.AsyncClient, base: str) -> dict:
    reply = await http.get(httpx.URL(base).join(CARD_PATH))
    reply.raise_for_status()
    return reply.json()


async def follow(client, http: httpx.AsyncClient, base: str, message):
    async for task, update in client.send_message(message):
        profile = await peer_profile(http, base)
        if profile["protocolVersion"] != "0.3.0":
            await client.cancel_task(TaskIdParams(id=task.id))
"""

URL_OBJECT_REQUESTS = """\
import requests
import yarl

WELL_KNOWN = {path!r}


def load_card(session: requests.Session, base: str) -> dict:
    url = yarl.URL(base + WELL_KNOWN)
    return session.get(str(url), timeout=5).json()


def rpc(session: requests.Session, endpoint: str, method: str, params: dict) -> dict:
    body = {{"jsonrpc": "2.0", "id": 1, "method": method, "params": params}}
    return session.post(endpoint, json=body, timeout=30).json()["result"]


def run(session: requests.Session, base: str, endpoint: str, message: dict) -> dict:
    task = rpc(session, endpoint, "message/send", {{"message": message}})
    card = load_card(session, base)
    if not card["capabilities"].get("streaming"):
        rpc(session, endpoint, "tasks/cancel", {{"id": task["id"]}})
    return task
"""


@pytest.mark.parametrize("source", [RELATIVE_HTTPX, URL_OBJECT_REQUESTS], ids=["relative-httpx", "url-object-requests"])
def test_a_card_url_however_spelt_is_a_card_fetch(source):
    fetch = next(n for n, line in enumerate(source.splitlines(), 1) if ".get(" in line)
    assert findings(source.format(path=".well-known/agent-card.json"), "AC101") == [fetch]
    assert findings(source.format(path="/.well-known/agent.json"), "AC101") == [fetch]


@pytest.mark.parametrize("source", [RELATIVE_HTTPX, URL_OBJECT_REQUESTS], ids=["relative-httpx", "url-object-requests"])
@pytest.mark.parametrize("path", ["status/health.json", "extendedAgentCard", "/healthz"])
def test_a_url_that_names_no_card_is_no_card_fetch(source, path):
    assert findings(source.format(path=path), "AC101") == []
