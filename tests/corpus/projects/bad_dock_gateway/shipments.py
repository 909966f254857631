"""Moves parked shipments on once the carrier agent advertises the skill they wait for.

Defect: the shipment is marked as working because the carrier's card lists the skill,
not because the carrier reported a task state for it.
"""

from dataclasses import dataclass, field

from dock import load_card


@dataclass
class Shipment:
    ref: str
    task_id: str
    waiting_for: str
    status: str = field(default="submitted")


def unpark(carrier_url: str, parked: list[Shipment]) -> list[Shipment]:
    card = load_card(carrier_url)
    offered = {s["id"] for s in card.get("skills", [])}
    moved = []
    for shipment in parked:
        if shipment.status == "submitted" and shipment.waiting_for in offered:
            shipment.status = "working"  # expect: AC201
            moved.append(shipment)
    return moved
