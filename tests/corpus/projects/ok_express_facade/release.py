"""Marks orders held for the express lane as ready once the courier partner offers it
again; an order's state stays what the partner reports for its task."""

import enum
from dataclasses import dataclass

import httpx

from partner.api import partner_profile


class Progress(str, enum.Enum):
    SUBMITTED = "submitted"
    WORKING = "working"
    COMPLETED = "completed"


@dataclass
class HeldOrder:
    order_id: str
    task_id: str
    state: Progress = Progress.SUBMITTED
    express_ready: bool = False


def release_held(http: httpx.Client, base: str, held: list[HeldOrder]) -> int:
    profile = partner_profile(http, base)
    if "express" not in {skill["id"] for skill in profile.get("skills", [])}:
        return 0
    released = 0
    for order in held:
        if order.state is Progress.SUBMITTED and not order.express_ready:
            order.express_ready = True
            released += 1
    return released
