"""Files a customs declaration for a shipment, then follows it."""

from shipments.agents import broker_card, rpc


def declare(base: str, shipment_id: str, manifest: str) -> dict:
    card = broker_card(base)
    message = {"role": "user", "messageId": shipment_id, "parts": [{"kind": "text", "text": manifest}]}
    return rpc(card["url"], "message/send", {"message": message})  # expect: AC103


def follow(base: str, task_id: str) -> dict:
    card = broker_card(base)
    if "customs-hold" not in {s["id"] for s in card.get("skills", [])}:
        return rpc(card["url"], "tasks/cancel", {"id": task_id})  # expect: AC102
    return rpc(card["url"], "tasks/get", {"id": task_id})
