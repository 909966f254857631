"""Every flow finding shows its evidence: the send, the guard, the decision, the cards.

For each flow rule, a program of several functions (most through a same-module helper)
pins the exact related locations (line, column, label) and the concrete suggestion;
then the output formats: ``json`` carries ``related``, ``sarif`` ``relatedLocations``
and, for AC101/AC105, a ``codeFlows`` thread (valid SARIF 2.1.0), ``github`` folds the
labels into its one line.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import libcst as cst
import pytest
from test_output_formats import GITHUB_LINE, sarif_schema_errors
from test_rule_examples import RULES

from a2alint.rule import Files, Invalid, Note, Rule
from a2alint.runner import lint_project, lint_source
from conftest import write

FLOW_RULES = ("AC101", "AC102", "AC103", "AC104", "AC105", "AC106", "AC201", "AC202")
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def source(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def findings(code: str, text: str) -> list[tuple]:
    result = lint_source(source(text), select=(code,))
    assert result.errors == []
    return [
        (d.line, d.column, [(r.line, r.column, r.label) for r in d.related], d.suggestion, d.code_flow)
        for d in result.diagnostics
    ]


# --- AC101: the send (or loop, handler) that makes it post-submission, and the decision -------------

AC101_FETCH_IN_HELPER = """
    from a2a.client import A2ACardResolver
    from a2a.types import TaskIdParams


    class Delegate:
        def __init__(self, client, resolver: A2ACardResolver):
            self.client = client
            self.resolver = resolver

        async def load_card(self):
            return await self.resolver.get_agent_card()

        async def run(self, message, contract_hash):
            frozen = contract_hash(await self.load_card())
            async for task, update in self.client.send_message(message):
                latest = await self.load_card()
                if contract_hash(latest) != frozen:
                    await self.client.cancel_task(TaskIdParams(id=task.id))
"""

AC101_HELPER_AFTER_SEND = """
    from a2a.client import A2ACardResolver


    async def refresh(resolver: A2ACardResolver, routes):
        card = await resolver.get_agent_card()
        if card.skills:
            routes.clear()


    async def run(client, resolver: A2ACardResolver, message, routes):
        async for event in client.send_message(message):
            await refresh(resolver, routes)
"""

AFTER_SUBMISSION = "(the task's own status reports failures); re-fetch only before submission, or only log the newer card"


def test_ac101_at_the_fetch_in_a_helper_names_the_send_the_call_site_the_decision_and_the_frozen_hash():
    ((line, column, related, suggestion, code_flow),) = findings("AC101", AC101_FETCH_IN_HELPER)
    assert (line, column) == (11, 22)  # the fetch itself, inside the helper that hands the card back
    assert related == [
        (15, 35, "submits the task and iterates its stream"),
        (16, 28, "self.load_card() hands back the card fetched at the flagged line (or a client built from it)"),
        (17, 16, "the fetched card (latest) decides this if condition"),
    ]
    assert suggestion == f"decide from the contract hash frozen at line 14 (frozen), not from the re-fetched card {AFTER_SUBMISSION}"
    assert code_flow == (1, 2, 0, 3)  # send, call site, the fetch inside the helper, decision


def test_ac101_in_a_helper_called_after_the_send_names_the_call_site():
    ((line, column, related, suggestion, code_flow),) = findings("AC101", AC101_HELPER_AFTER_SEND)
    assert (line, column) == (5, 18)
    assert related == [
        (6, 8, "the fetched card (card) decides this if condition"),
        (11, 24, "submits the task and iterates its stream"),
        (12, 15, "calls refresh() after submission"),
    ]
    assert suggestion == (
        "freeze the card's contract before the send at line 11 and decide from that, not from the re-fetched card "
        + AFTER_SUBMISSION
    )
    assert code_flow == (2, 3, 0, 1)


# --- AC102: the skill-absence test that guards the cancel --------------------------------------------


def test_ac102_names_the_absence_test_the_helper_that_reads_skills_and_the_cancel_in_a_helper():
    ((line, column, related, suggestion, code_flow),) = findings(
        "AC102",
        """
        from a2a.client import A2ACardResolver
        from a2a.types import TaskIdParams


        def lists_skill(card, skill_id):
            return any(s.id == skill_id for s in card.skills)


        async def stop(client, task):
            await client.cancel_task(TaskIdParams(id=task.id))


        async def reconcile(client, resolver: A2ACardResolver, task, skill_id, query):
            status = await client.get_task(query)
            card = await resolver.get_agent_card()
            if not lists_skill(card, skill_id):
                await stop(client, task)
        """,
    )
    assert (line, column) == (17, 15)  # the call of stop()
    assert related == [
        (6, 5, "lists_skill() looks for the skill in card.skills here"),
        (10, 11, "the cancel inside stop()"),
        (16, 8, "the cancel runs when this finds a skill missing from the card's skills"),
    ]
    assert suggestion == (
        "do not cancel on capability data: let the task's own status decide (get_task at line 14 reports failed, "
        "with its message), and route by skills only before sending"
    )
    assert code_flow == ()


# --- AC103: the card the send uses ------------------------------------------------------------------

CAPTURE = (
    " before sending: sha256 of the canonical JSON of its contract fields (protocolVersion, securitySchemes, "
    "security); attach it to the message metadata and verify later peer messages against it"
)

AC103_CASES = [
    pytest.param(
        """
        from a2a.client import ClientFactory


        class Peer:
            def __init__(self, factory: ClientFactory, card):
                self.card = card
                self.factory = factory

            async def ask(self, message):
                client = self.factory.create(self.card)
                async for event in client.send_message(message):
                    print(event)
        """,
        (11, 28),
        [(6, 9, "the card this send uses (self.card) is set here, in __init__()"), (10, 9, "client is created from self.card here")],
        "capture the contract of the card this send uses (self.card, set at line 6)",
        None,
        id="card-attribute",
    ),
    pytest.param(
        """
        from a2a.client import ClientFactory


        async def open_client(url):
            return await ClientFactory.connect(url)


        async def delegate(url, message):
            client = await open_client(url)
            async for event in client.send_message(message):
                print(event)
        """,
        (10, 24),
        [(9, 20, "the card this send uses is fetched here, by open_client(), to create client")],
        "capture the contract of the card this send uses (fetched at line 9 to create client)",
        "the card is fetched inside the making of client, not held in a variable here",
        id="connect-in-a-helper",
    ),
    pytest.param(
        """
        import httpx


        def submit(url, params):
            return httpx.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": params})


        def main(base):
            card = httpx.get(base + "/.well-known/agent-card.json").json()
            return submit(card["url"], {})
        """,
        (10, 12),  # submit() passes on the params it is given: its caller builds them, and is judged
        [(5, 12, "submit() sends the task here"), (9, 12, "the card this send uses (card) is fetched here")],
        "capture the contract of the card this send uses (card, fetched at line 9)",
        None,
        id="send-through-a-generic-transport",
    ),
    pytest.param(
        """
        import httpx
        from a2a.client import A2AClient


        async def run(http: httpx.AsyncClient, url, request):
            probe = await http.get(url + "/.well-known/agent-card.json")
            print("peer is up:", probe.status_code)
            client = A2AClient(http, url=url)
            return await client.send_message(request)
        """,
        (9, 18),
        [(6, 19, "the last card fetched before this send (probe)")],
        "capture the contract of the card this send uses",
        "the card fetched before it is not tied to this send (not its client, its URL or an argument): freeze that card by hand if it is the one",
        id="nothing-ties-the-card-to-the-send",
    ),
    pytest.param(
        """
        from a2a.client import A2ACardResolver, Client


        class Registry:
            def __init__(self, http):
                self.http, self.cards = http, {}

            async def admit(self, url):
                self.cards[url] = await A2ACardResolver(self.http, url).get_agent_card()


        async def ask(registry: Registry, client: Client, url, request):
            card = registry.cards[url]
            request.metadata.update({"partner": card.name})
            return await client.send_message(request)
        """,
        (15, 18),
        [(13, 5, "the last card held before this send (card)")],
        "capture the contract of the card this send uses",
        "the card held before it is not tied to this send (not its client, its URL or an argument): freeze that card by hand if it is the one",
        id="a-card-read-from-a-registry-is-held",
    ),
]


@pytest.mark.parametrize("text, at, expected, advice, no_fix", AC103_CASES)
def test_ac103_names_the_card_the_send_uses(text, at, expected, advice, no_fix):
    ((line, column, related, suggestion, _),) = findings("AC103", text)
    assert (line, column) == at
    assert related == expected
    assert suggestion == advice + CAPTURE + (f" (no automatic fix: {no_fix})" if no_fix else "")


# --- AC104: the earlier fetch or the cached card it re-reads ----------------------------------------


def test_ac104_at_the_fetch_in_a_helper_names_the_first_fetch_the_loop_and_the_call_site():
    ((line, column, related, suggestion, _),) = findings(
        "AC104",
        """
        from a2a.client import A2ACardResolver


        async def load(resolver):
            return await resolver.get_agent_card()


        async def watch(resolver: A2ACardResolver, client, message):
            card = await load(resolver)
            async for event in client.send_message(message):
                latest = await load(resolver)
                print(latest.version, card.version)
        """,
    )
    assert (line, column) == (5, 18)  # the fetch itself, inside the helper the loop calls
    assert related == [
        (9, 18, "the card is first fetched here (card), by load(); this re-reads it"),
        (10, 5, "re-runs on every iteration of this loop, re-reading the card the last one fetched"),
        (11, 24, "load() hands back the card fetched at the flagged line (or a client built from it)"),
    ]
    assert suggestion == (
        "send If-None-Match with the ETag of the fetch at line 9 and keep that card on 304; "
        "without a validator treat the card as immutable for the task's lifetime"
    )


def test_ac104_on_a_ttl_names_the_expiry_check_and_the_cached_card():
    ((line, column, related, suggestion, _),) = findings(
        "AC104",
        """
        import time
        from a2a.client import A2ACardResolver


        class Peer:
            def __init__(self, resolver: A2ACardResolver):
                self.resolver = resolver
                self.card = None
                self.fetched_at = 0.0

            async def current(self):
                if time.monotonic() - self.fetched_at > 3600:
                    self.card = await self.resolver.get_agent_card()
                    self.fetched_at = time.monotonic()
                return self.card
        """,
    )
    assert (line, column) == (13, 31)
    assert related == [
        (12, 12, "re-reads the card whenever this cache expiry check is true"),
        (15, 9, "serves the cached card (self.card) until the expiry check re-reads it"),
    ]
    assert suggestion.startswith("keep this fetch's ETag and send it as If-None-Match next time")


# --- AC105: the send of the task and the card-change comparison --------------------------------------


def test_ac105_through_two_helpers_names_the_send_the_call_site_the_comparison_and_the_cancel():
    ((line, column, related, suggestion, code_flow),) = findings(
        "AC105",
        """
        from a2a.client import A2ACardResolver
        from a2a.types import TaskIdParams


        async def abort(client, task_id):
            await client.cancel_task(TaskIdParams(id=task_id))


        async def check(client, resolver: A2ACardResolver, task_id, frozen, contract_hash):
            card = await resolver.get_agent_card()
            if contract_hash(card) != frozen:
                await abort(client, task_id)


        async def run(client, resolver: A2ACardResolver, message, frozen, contract_hash):
            async for task, update in client.send_message(message):
                await check(client, resolver, task.id, frozen, contract_hash)
        """,
    )
    assert (line, column) == (12, 15)  # the call of abort()
    assert related == [
        (6, 11, "the cancel inside abort()"),
        (11, 8, "the card-change comparison (contract_hash) that decides this"),
        (16, 31, "submits the task and iterates its stream"),
        (17, 15, "calls check() after submission"),
    ]
    assert suggestion == (
        "compare cards before the send at line 16 and abort there; for a task in flight, defer, poll the "
        "task's own status, and escalate only after a bounded window"
    )
    assert code_flow == (3, 4, 2, 0, 1)  # send, call of check(), comparison, call of abort(), cancel


# --- AC106: the two cards compared ------------------------------------------------------------------


def test_ac106_names_the_cached_and_the_newer_card_and_the_comparison():
    ((line, column, related, suggestion, _),) = findings(
        "AC106",
        """
        from a2a.client import A2ACardResolver


        class PeerChanged(Exception):
            pass


        async def fetch(resolver: A2ACardResolver):
            return await resolver.get_agent_card()


        async def route(resolver: A2ACardResolver, pinned_card, request):
            current = await fetch(resolver)
            if current.skills != pinned_card.skills:
                raise PeerChanged(request)
            return current
        """,
    )
    assert (line, column) == (15, 9)
    assert related == [
        (12, 44, "the cached card (pinned_card), received here"),
        (13, 21, "the newer card (current), fetched here, by fetch()"),
        (14, 8, "compares capability fields (skills) of two cards"),
    ]
    assert suggestion.startswith("block only on contract fields (compare the contract hashes of current and pinned_card);")


# --- AC201: the verification or the card field the state rests on -----------------------------------


def test_ac201_names_the_signature_check_and_how_the_state_depends_on_it():
    found = findings(
        "AC201",
        """
        from a2a.client import A2ACardResolver
        from a2a.types import TaskState
        from a2a.utils.signing import create_signature_verifier


        class Reconciler:
            def __init__(self, resolver: A2ACardResolver, keys):
                self.resolver = resolver
                self.verify = create_signature_verifier(keys, ["ES256"])

            async def settle(self, task):
                card = await self.resolver.get_agent_card()
                try:
                    self.verify(card)
                    task.status.state = TaskState.completed
                except Exception:
                    task.status.state = TaskState.failed
        """,
    )
    advice = (
        "the signature check at line 14 proves who the agent is, not what it did to the task; take the task's "
        "state from its status channel (get_task or the status stream)"
    )
    assert found == [
        (15, 13, [(14, 13, "the state is set once this signature check of the card passes")], advice, ()),
        (17, 13, [(14, 13, "the state is set when this signature check of the card fails")], advice, ()),
    ]


def test_ac201_names_the_card_field_the_state_is_read_from():
    ((line, column, related, suggestion, _),) = findings(
        "AC201",
        """
        from a2a.types import TaskState


        async def restore(client, task, card, query):
            latest = await client.get_task(query)
            task.status.state = TaskState(card.metadata["last_state"])
            return latest
        """,
    )
    assert (line, column) == (6, 5)
    assert related == [(6, 35, "the new state is read from the card here (card.metadata.last_state)")]
    assert suggestion == (
        "card.metadata.last_state is what the card claims, not the task's state; take the task's state from its "
        "status channel (get_task at line 5 or the status stream)"
    )


# --- AC202: the fetch the loop retries -----------------------------------------------------------


def test_ac202_names_the_retried_fetch_through_the_helper_and_the_only_way_out():
    ((line, column, related, suggestion, _),) = findings(
        "AC202",
        """
        from a2a.client import A2ACardResolver


        async def load(resolver):
            return await resolver.get_agent_card()


        async def wait_for(resolver: A2ACardResolver, digest, card_digest):
            while True:
                card = await load(resolver)
                if card_digest(card) == digest:
                    return card
        """,
    )
    assert (line, column) == (9, 5)
    assert related == [
        (10, 22, "calls load(), which fetches the card: the fetch this loop retries"),
        (11, 12, "the loop ends when this check passes; nothing bounds the attempts"),
    ]
    assert suggestion.startswith("stop re-fetching the card (line 10) until it succeeds: enter a deferred state")


# --- AC107: the hash the unstable text feeds, when it is computed elsewhere ------------------------


def test_ac107_names_the_digest_a_dumps_or_str_feeds_through_a_variable_but_not_the_call_around_it():
    found = findings(
        "AC107",
        """
        import hashlib, json
        from a2a.client import A2ACardResolver


        async def pin(resolver: A2ACardResolver):
            card = await resolver.get_agent_card()
            contract = {"protocolVersion": card.protocol_version, "securitySchemes": card.security_schemes}
            blob = json.dumps(contract)
            hasher = hashlib.sha256()
            hasher.update(blob.encode())
            text = str(contract)
            direct = hashlib.sha256(json.dumps(contract).encode())
            return hasher.hexdigest(), hashlib.md5(text.encode()).hexdigest(), direct
        """,
    )
    assert [(line, column, related) for line, column, related, _, _ in found] == [
        (8, 12, [(10, 5, "the digest it feeds is computed here (hasher.update())")]),
        (11, 12, [(13, 32, "the digest it feeds is computed here (hashlib.md5())")]),
        (12, 29, []),
    ]


# --- every flow finding has notes ----------------------------------------------------------------


@pytest.mark.parametrize(
    "rule, example",
    [pytest.param(RULES[c], e, id=f"{c}-{i}") for c in FLOW_RULES for i, e in enumerate(RULES[c].INVALID)],
)
def test_every_flow_finding_in_the_rule_examples_has_related_locations(rule, example):
    if isinstance(example, Files):
        text = "\n".join(example.files.values())
        results = lint_project({p: textwrap.dedent(t) for p, t in example.files.items()}, select=(rule.code,)).values()
    else:
        text = example.source if isinstance(example, Invalid) else example
        results = [lint_source(textwrap.dedent(text), select=(rule.code,))]
    for diagnostic in (d for result in results for d in result.diagnostics):
        nothing_to_show = rule.code == "AC103" and "card" not in text and "client" not in text  # a bare httpx.post
        assert diagnostic.related or nothing_to_show, f"{rule.code} at line {diagnostic.line} shows no evidence"
        assert "{line:" not in diagnostic.suggestion


def test_every_flow_finding_in_the_examples_has_notes(check):
    document = check("--format", "json", "--no-cache", str(EXAMPLES)).json()
    flow = [d for d in document["diagnostics"] if d["code"] in FLOW_RULES]
    assert {d["code"] for d in flow} == set(FLOW_RULES)
    for diagnostic in flow:
        assert diagnostic["related"], f"{diagnostic['code']} at {diagnostic['path']}:{diagnostic['line']}"


# --- the output formats ---------------------------------------------------------------------------

AC105_FILE = source(
    """
    from a2a.client import A2ACardResolver
    from a2a.types import TaskIdParams


    async def run(client, resolver: A2ACardResolver, message, frozen, contract_hash):
        async for task, update in client.send_message(message):
            card = await resolver.get_agent_card()
            if contract_hash(card) != frozen:
                await client.cancel_task(TaskIdParams(id=task.id))
    """
)


@pytest.fixture
def flow_file(project):
    write(project / "peer.py", AC105_FILE)
    return project


def test_json_carries_the_related_locations(flow_file, check):
    diagnostics = check("--format", "json", "--select", "AC105", "peer.py").json()["diagnostics"]
    assert [d["related"] for d in diagnostics] == [
        [
            {"path": "peer.py", "line": 6, "column": 31, "label": "submits the task and iterates its stream"},
            {"path": "peer.py", "line": 8, "column": 12, "label": "the card-change comparison (contract_hash) that decides this"},
        ]
    ]
    assert diagnostics[0]["suggestion"].startswith("compare cards before the send at line 6 and abort there;")


def _sarif_results(check, *args) -> tuple[dict, list[dict]]:
    document = check("--format", "sarif", "--select", "AC101,AC105", *args, "peer.py").json()
    return document, {r["ruleId"]: r for r in document["runs"][0]["results"]}


def test_sarif_has_related_locations_and_a_code_flow_in_execution_order(flow_file, check):
    _, results = _sarif_results(check)
    ac105 = results["AC105"]
    assert [(r["id"], r["physicalLocation"]["region"], r["message"]["text"]) for r in ac105["relatedLocations"]] == [
        (1, {"startLine": 6, "startColumn": 31}, "submits the task and iterates its stream"),
        (2, {"startLine": 8, "startColumn": 12}, "the card-change comparison (contract_hash) that decides this"),
    ]
    (flow,) = ac105["codeFlows"]
    (thread,) = flow["threadFlows"]
    steps = [(s["location"]["physicalLocation"]["region"]["startLine"], s["location"]["message"]["text"]) for s in thread["locations"]]
    assert steps == [
        (6, "submits the task and iterates its stream"),
        (8, "the card-change comparison (contract_hash) that decides this"),
        (9, "in-flight task cancelled or failed because the peer's Agent Card changed"),
    ]
    assert [s["executionOrder"] for s in thread["locations"]] == [1, 2, 3]
    ac101 = results["AC101"]
    lines = [s["location"]["physicalLocation"]["region"]["startLine"] for s in ac101["codeFlows"][0]["threadFlows"][0]["locations"]]
    assert lines == [6, 7, 8]  # the send, the fetch (the finding), the decision


def test_sarif_code_flows_survive_the_cache(flow_file, check):
    cold = _sarif_results(check)[1]
    warm = _sarif_results(check)[1]  # read back from .a2alint_cache
    assert (flow_file / ".a2alint_cache").is_dir()
    assert warm == cold and "codeFlows" in warm["AC101"]


def test_sarif_with_related_locations_and_code_flows_validates(flow_file, check):
    document = check("--format", "sarif", "--no-cache", str(EXAMPLES), "peer.py").json()
    assert sarif_schema_errors(document) == []
    results = document["runs"][0]["results"]
    assert all("relatedLocations" in r for r in results if r["ruleId"] in FLOW_RULES)
    assert {r["ruleId"] for r in results if "codeFlows" in r} == {"AC101", "AC105"}


def test_github_folds_the_labels_into_its_one_line(flow_file, check):
    (line,) = check("--format", "github", "--select", "AC105", "peer.py").stdout.splitlines()
    message = GITHUB_LINE.match(line).group("message")
    assert message.endswith(
        "; note: line 6: submits the task and iterates its stream"
        "; note: line 8: the card-change comparison (contract_hash) that decides this"
    )


def test_text_prints_the_notes_under_the_finding(flow_file, check):
    lines = check("--select", "AC105", "peer.py").stdout.splitlines()
    assert lines[1].startswith("  help: compare cards before the send at line 6")
    assert lines[2:4] == [
        "  note: peer.py:6:31: submits the task and iterates its stream",
        "  note: peer.py:8:12: the card-change comparison (contract_hash) that decides this",
    ]


# --- the rule API: suggestions that name lines, notes of one place ------------------------------------


class _Names(Rule):
    code, name = "AC999", "names"

    def check(self, model) -> None:
        first, second = model.module.body
        self.report(
            second,
            "m",
            suggestion="see line {line:first}, not {line:first}; keep {braces} and {line:unknown-ish}",
            notes=[Note(first, "a"), Note(first, "b"), Note(first, "a")],
            lines={"first": first},
            flow=[first, second, first],
        )


def test_suggestion_lines_are_resolved_and_notes_of_one_place_are_joined():
    rule = _Names()
    module = cst.parse_module("x = 1\n\ny = 2\n")

    class Model:
        pass

    model = Model()
    model.module = module
    rule.check(model)
    (report,) = rule.reports
    assert [n.label for n in report.notes] == ["a; b"]
    assert report.flow == (module.body[0], module.body[1])
    assert report.suggestion_text(lambda node: 1 if node is module.body[0] else 3) == (
        "see line 1, not 1; keep {braces} and {line:unknown-ish}"
    )
