"""Re-list the partners every night from their signed profiles, and move their jobs on."""

import httpx
import jwt

from relisting.jobs import Job, Stage
from relisting.profiles import published_profile, signed_by_partner


def remote_stage(http: httpx.Client, endpoint: str, remote_id: str) -> str:
    reply = http.post(endpoint, json={"jsonrpc": "2.0", "id": remote_id, "method": "tasks/get", "params": {"id": remote_id}})
    return reply.json()["result"]["status"]["state"]


def relist(http: httpx.Client, partners: dict[str, dict], jobs: list[Job], keys: jwt.PyJWKClient) -> None:
    for name, partner in partners.items():
        profile = published_profile(http, partner["base"])
        partner["skills"] = [skill["id"] for skill in profile.get("skills", [])]
        if not signed_by_partner(profile, keys):
            partner["status"] = "rejected"
            continue
        partner["status"] = "listed"
        for job in jobs:
            if job.partner == name:
                job.stage = Stage(remote_stage(http, partner["endpoint"], job.remote_id))
