"""Facts that cross a module boundary: a constant, a function re-exported by another
module, and the callers that tell a helper's lifecycle. Splitting a program into modules
(a helper moved next door and imported back) must not change what is found, nor may the
order the files are given in or the folder a check starts from."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from a2alint.config import Settings
from a2alint.registry import load_rules
from a2alint.runner import Linter, check_files, lint_project
from rewrites import all_cases, moved

PROJECTS = Path(__file__).parent / "corpus" / "projects"


def write(root: Path, sources: dict[str, str]) -> None:
    for relative, text in sources.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")


def findings(root: Path, reported: list[str], everything: list[str]) -> list[tuple[str, int, str]]:
    """What a check reports on ``reported`` (in that order), with the rest of ``everything``
    as the project around them."""
    settings = Settings(root=root)
    files = [(name, root / name, settings) for name in reported]
    context = [(name, root / name, settings) for name in everything if name not in reported]
    results = check_files(Linter(load_rules()), files, jobs=1, context=context)
    return sorted((r.display, d.line, d.code) for r in results for d in r.diagnostics)


# --- a module constant read from another module ---------------------------------------------

RELAY = {
    "relay/__init__.py": "",
    "relay/config.py": """
        WELL_KNOWN = "/.well-known/agent-card.json"
        POLL_SECONDS = 5.0
    """,
    "relay/watch.py": """
        import asyncio

        import httpx

        from .config import POLL_SECONDS, WELL_KNOWN


        async def wait_done(client: httpx.AsyncClient, base: str, task_id: str) -> dict:
            for _ in range(240):
                card = (await client.get(base + WELL_KNOWN)).json()
                reply = await client.post(card["url"], json={"jsonrpc": "2.0", "id": 1, "method": "tasks/get", "params": {"id": task_id}})
                task = reply.json()["result"]
                if task["status"]["state"] in ("TASK_STATE_COMPLETED", "TASK_STATE_FAILED"):
                    return task
                await asyncio.sleep(POLL_SECONDS)
            raise TimeoutError(task_id)
    """,
}


def test_a_card_path_imported_from_a_settings_module_is_a_card_path():
    sources = {name: textwrap.dedent(text).lstrip("\n") for name, text in RELAY.items()}
    results = lint_project(sources)
    found = sorted((path, d.line, d.code) for path, result in results.items() for d in result.diagnostics)
    assert found == [("relay/watch.py", 10, "AC101"), ("relay/watch.py", 10, "AC104")]


# --- a function re-exported by the module its callers import --------------------------------


def test_a_helper_a_package_re_exports_is_judged_with_the_package_importers_calls():
    """``partnerkit/cards.py`` checked alone (pre-commit) or from its own folder: its
    caller imports ``card_of`` from the package, not from ``cards``."""
    root = PROJECTS / "bad_partnerkit_reexport"
    everything = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.py"))
    expected = [("partnerkit/cards.py", 6, "AC101"), ("partnerkit/cards.py", 6, "AC104")]
    assert findings(root, everything, everything) == expected
    assert findings(root, ["partnerkit/cards.py"], everything) == expected
    package = [name for name in everything if name.startswith("partnerkit/")]
    assert findings(root, package, everything) == expected


PEERS = {
    "peers.py": """
        PEERS = {"billing": "https://billing.agents.internal"}

        from peer_cards import load_peer_card  # noqa: E402  (re-exported: callers import it from here)
    """,
    "peer_cards.py": """
        from a2a.client import A2ACardResolver

        from peers import PEERS


        async def load_peer_card(http, name: str):
            return await A2ACardResolver(http, PEERS[name]).get_agent_card()
    """,
    "work.py": """
        from a2a.client import ClientFactory
        from a2a.types import TaskQueryParams

        from peers import load_peer_card


        async def follow(http, factory: ClientFactory, message):
            client = await factory.create(await load_peer_card(http, "billing"))
            async for event in client.send_message(message):
                task, _ = event
                break
            while task.status.state.value not in ("completed", "failed"):
                card = await load_peer_card(http, "billing")
                if "billing.refunds" not in {skill.id for skill in card.skills}:
                    await client.cancel_task(TaskQueryParams(id=task.id))
                    return None
                task = await client.get_task(TaskQueryParams(id=task.id))
            return task
    """,
}


def test_a_helper_re_exported_by_a_sibling_module_is_judged_with_its_callers(tmp_path: Path):
    """``work.py`` imports the fetch from ``peers``, which imports it from ``peer_cards``
    (a function moved out of ``peers`` and imported back where it stood)."""
    write(tmp_path, PEERS)
    alone = findings(tmp_path, ["peer_cards.py"], sorted(PEERS))
    assert ("peer_cards.py", 7, "AC101") in alone
    assert alone == [f for f in findings(tmp_path, sorted(PEERS), sorted(PEERS)) if f[0] == "peer_cards.py"]


# --- the order of the files and the folder a check starts from ------------------------------


def in_every_order(root: Path) -> list[tuple[str, int, str]]:
    """What a check of the project at ``root`` reports, the same whether its files are given
    in one order or the other, each on its own, or each folder's on their own (pre-commit, a
    check started from a package's folder), the rest of the project around them."""
    everything = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.py"))
    forward = findings(root, everything, everything)
    assert findings(root, everything[::-1], everything) == forward
    for name in everything:
        assert findings(root, [name], everything) == [f for f in forward if f[0] == name], name
    for folder in {name.rpartition("/")[0] for name in everything if "/" in name}:
        inside = [name for name in everything if name.startswith(folder + "/")]
        assert findings(root, inside, everything) == [f for f in forward if f[0] in inside], folder
    return forward


@pytest.mark.parametrize(
    "project",
    ["bad_payout_settler", "bad_partnerkit_reexport", "bad_freight_tracker", "bad_partner_relisting", "bad_courier_handover"],
)
def test_findings_do_not_depend_on_the_order_the_files_are_given_in(project: str):
    """A fetch called both where the task is in flight and before the next task is sent
    (payout_settler): which caller is looked at first must not decide the finding. A
    partner entry that keeps what the profile it was fetched with offers, and is handed
    back to that fetch (partner_relisting): which of the two is asked of first must not
    decide whether the profile is a card."""
    assert in_every_order(PROJECTS / project)


@pytest.mark.parametrize("project", ["ok_partner_relisting", "ok_courier_handover"])
def test_a_silent_project_is_silent_in_every_order(project: str):
    assert in_every_order(PROJECTS / project) == []


@pytest.mark.parametrize("project", ["courier_handover", "partner_relisting", "partnerkit_reexport"])
def test_a_project_split_into_a_module_per_function_is_judged_alike_in_every_order(project: str, tmp_path: Path):
    """Each function moved into a module of its own and imported back where it stood (the
    move rewrite): the cycle through the partner entry now crosses modules."""
    for kind in ("bad", "ok"):
        case = next(c for c in all_cases() if c.name == f"{kind}_{project}")
        [split] = moved(case, case.findings())
        write(tmp_path / kind, split.case.sources)
        assert bool(in_every_order(tmp_path / kind)) == (kind == "bad")


# --- a callable another module holds -------------------------------------------------------

TRUST = {
    "trust/__init__.py": """
        from a2a.utils.signing import create_signature_verifier

        from .keys import key_for

        signed_by_partner = create_signature_verifier(key_for, ["ES256"])
    """,
    "trust/keys.py": """
        from jwt import PyJWK

        KEYS: dict[str, PyJWK] = {}


        def key_for(kid, jku):
            return KEYS[kid]
    """,
    "inbox.py": """
        from a2a.types import AgentCard
        from a2a.utils.signing import SignatureVerificationError

        from trust import signed_by_partner


        async def on_partner_card(card: AgentCard, records: dict[str, dict]) -> None:
            try:
                signed_by_partner(card)
            except SignatureVerificationError:
                return
            for record in records.values():
                if record["state"] == "submitted":
                    record["state"] = "working"
    """,
}


def test_a_verifier_made_in_another_module_is_what_a_call_of_its_name_runs():
    """``signed_by_partner`` is the SDK's verifier, made where it is imported from (its name
    says nothing of verifying): the state written after it rests on the card's signature."""
    sources = {name: textwrap.dedent(text).lstrip("\n") for name, text in TRUST.items()}
    found = [(path, d.line, d.code) for path, result in lint_project(sources).items() for d in result.diagnostics]
    assert found == [("inbox.py", 14, "AC201")]


# --- a record class three imports from the fetch --------------------------------------------

ROUTING = {
    "partners/__init__.py": """
        from partners.cards import card_for  # re-exported: callers import it from the package
    """,
    "partners/cards.py": """
        import requests


        def card_for(base: str) -> dict:
            return requests.get(base + "/.well-known/agent-card.json", timeout=5).json()
    """,
    "work/orders.py": """
        import enum
        from dataclasses import dataclass


        class Step(enum.Enum):
            QUEUED = "submitted"
            RUNNING = "working"


        @dataclass
        class Order:
            peer: str
            step: Step = Step.QUEUED
    """,
    "work/route.py": """
        from partners import card_for
        from work.orders import Order, Step


        def route(orders: list[Order], bases: dict[str, str]) -> None:
            for order in orders:
                card = card_for(bases[order.peer])
                if "express" in {skill["id"] for skill in card.get("skills", [])}:
                    order.step = Step.RUNNING
    """,
}


def test_a_record_class_three_imports_from_the_fetch_is_read():
    """``work/route.py`` imports the fetch through the package that re-exports it, and its
    record class from a module of its own: three imports from the fetch. Whether the
    order's step is a task state is in that module."""
    sources = {name: textwrap.dedent(text).lstrip("\n") for name, text in ROUTING.items()}
    found = [(path, d.line, d.code) for path, result in lint_project(sources).items() for d in result.diagnostics]
    assert found == [("work/route.py", 9, "AC201")]
