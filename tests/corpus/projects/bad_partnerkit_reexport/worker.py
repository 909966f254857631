"""Asks the translation partner for a document and waits for it, following the partner
to whatever endpoint its card names on each round."""

import hashlib
import json
import time

from partnerkit import call, card_of


def translate(base: str, text: str) -> dict:
    card = card_of(base)
    terms = json.dumps({k: card.get(k) for k in ("protocolVersion", "securitySchemes")}, sort_keys=True)
    message = {"role": "user", "messageId": hashlib.sha256(text.encode()).hexdigest(), "parts": [{"kind": "text", "text": text}],
               "metadata": {"contract": hashlib.sha256(terms.encode()).hexdigest()}}
    task = call(card["url"], "message/send", {"message": message})
    while task["status"]["state"] not in ("completed", "failed", "canceled", "rejected"):
        time.sleep(3)
        endpoint = card_of(base)["url"]
        task = call(endpoint, "tasks/get", {"id": task["id"]})
    return task
