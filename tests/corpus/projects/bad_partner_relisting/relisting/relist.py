"""Re-list the partners every night from their signed profiles, and move their jobs on."""

import httpx
import jwt

from relisting.jobs import Job, Stage
from relisting.profiles import published_profile, signed_by_partner


def relist(http: httpx.Client, partners: dict[str, dict], jobs: list[Job], keys: jwt.PyJWKClient) -> None:
    for name, partner in partners.items():
        profile = published_profile(http, partner["base"])
        partner["skills"] = [skill["id"] for skill in profile.get("skills", [])]
        if not signed_by_partner(profile, keys):
            partner["status"] = "rejected"
            continue
        partner["status"] = "listed"
        for job in jobs:
            if job.partner == name and job.stage is Stage.SUBMITTED:
                job.stage = Stage.WORKING  # expect: AC201
