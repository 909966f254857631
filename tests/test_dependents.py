"""Paths named inside a project (pre-commit's changed files) are reported with the modules
whose findings rest on them, as mypy reports the errors an edit makes in other modules;
``--only-named`` reports on the named paths alone."""

from __future__ import annotations

from conftest import CLIENT, DIGESTS, cross_module_project, write

#: ``follow.py`` cancels on the skills of what ``peers.lookup`` returns: a finding there
#: only once ``peers.py`` fetches an Agent Card.
PEERS_LISTING = '''\
from dataclasses import dataclass, field


@dataclass
class Listing:
    skills: list = field(default_factory=list)


async def lookup(http, base_url):
    return Listing()
'''
PEERS_FETCHING = '''\
from a2a.client import A2ACardResolver


async def lookup(http, base_url):
    return await A2ACardResolver(http, base_url).get_agent_card()
'''
FOLLOW = '''\
from a2a.types import TaskIdParams

from peers import lookup


async def follow(client, http, base_url, task):
    listing = await lookup(http, base_url)
    if "translate" not in [s.id for s in listing.skills]:
        await client.cancel_task(TaskIdParams(id=task.id))
'''


def test_a_change_to_an_imported_module_reports_the_finding_it_makes_in_its_importer(project, check):
    write(project / "pyproject.toml", "[tool.a2alint]\n")
    write(project / "follow.py", FOLLOW)
    write(project / "peers.py", PEERS_LISTING)
    assert check("peers.py").exit_code == 0
    write(project / "peers.py", PEERS_FETCHING)
    run = check("--output-format", "concise", "peers.py")
    assert "follow.py:9:15: AC102" in run.stdout and run.exit_code == 1
    assert run.stdout.endswith("in 2 files checked.\n")
    named = check("--output-format", "concise", "--only-named", "peers.py")
    assert "follow.py" not in named.stdout.replace("note: follow.py", "")
    assert named.stdout.endswith("in 1 file checked.\n")


def test_a_change_to_a_caller_reports_the_finding_it_makes_in_the_helper_it_calls(project, check):
    write(project / "pyproject.toml", "[tool.a2alint]\n")
    cross_module_project(project)
    run = check("--output-format", "concise", "client.py")
    assert (run.exit_code, run.stdout.splitlines()[0]) == (1, "digests.py:6:27: AC107 json.dumps of Agent Card data without sort_keys=True feeds a hash; key order varies between peers")
    assert check("--only-named", "client.py").exit_code == 0


def test_the_fixes_of_what_is_reported_are_applied(project, check):
    write(project / "pyproject.toml", "[tool.a2alint]\n")
    digests = cross_module_project(project)
    assert check("--fix", "--unsafe-fixes", "client.py").exit_code == 0
    assert digests.read_text() == DIGESTS.replace("json.dumps(terms)", "json.dumps(terms, sort_keys=True)")
    assert (project / "client.py").read_text() == CLIENT


def test_outside_a_project_only_the_named_files_are_read(project, check):
    cross_module_project(project)  # no config file, no git work tree: no project to read
    assert check("client.py").stdout == "All checks passed (1 file checked).\n"
