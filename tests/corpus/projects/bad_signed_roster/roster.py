"""The job roster: jobs handed to the partner's agent wait as `submitted` until it is
known to be the partner that holds them."""

from dataclasses import dataclass

from a2a.types import AgentCard, TaskState
from a2a.utils.signing import SignatureVerificationError

from keys import check_card_signature


@dataclass
class Job:
    job_id: str
    remote_task: str
    state: TaskState = TaskState.submitted


def confirm_partner(card: AgentCard, jobs: list[Job]) -> int:
    try:
        check_card_signature(card)
    except SignatureVerificationError:
        return 0
    confirmed = 0
    for job in jobs:
        if job.state is TaskState.submitted:
            job.state = TaskState.working  # expect: AC201
            confirmed += 1
    return confirmed
