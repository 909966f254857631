"""Moves parked shipments on once the carrier agent advertises the skill they wait for.

A shipment is only flagged as ready to resend; its status stays what the carrier
reports for its task.
"""

from dataclasses import dataclass, field

from dock import load_card


@dataclass
class Shipment:
    ref: str
    task_id: str
    waiting_for: str
    status: str = field(default="submitted")
    ready: bool = False


def unpark(carrier_url: str, parked: list[Shipment]) -> list[Shipment]:
    card = load_card(carrier_url)
    offered = {s["id"] for s in card.get("skills", [])}
    moved = []
    for shipment in parked:
        if shipment.status == "submitted" and shipment.waiting_for in offered:
            shipment.ready = True
            moved.append(shipment)
    return moved
