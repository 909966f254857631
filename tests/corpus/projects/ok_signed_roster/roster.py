"""The job roster: a job's state is what the partner's agent says of its task; the card's
signature only says the partner is who it claims to be."""

from dataclasses import dataclass

from a2a.types import AgentCard, TaskState
from a2a.utils.signing import SignatureVerificationError

from keys import check_card_signature


@dataclass
class Job:
    job_id: str
    remote_task: str
    state: TaskState = TaskState.submitted
    partner_confirmed: bool = False


def confirm_partner(card: AgentCard, jobs: list[Job]) -> int:
    try:
        check_card_signature(card)
    except SignatureVerificationError:
        return 0
    confirmed = 0
    for job in jobs:
        if not job.partner_confirmed:
            job.partner_confirmed = True
            confirmed += 1
    return confirmed
