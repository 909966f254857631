"""Hands parcels to the carrier partner."""

from uuid import uuid4

from cardshop.partners import Partner, terms_digest


def _request(text: str, extra: dict):
    return {
        "id": uuid4().hex,
        "params": {
            "message": {"role": "user", "parts": [{"kind": "text", "text": text}], "messageId": uuid4().hex},
            "metadata": extra,
        },
    }


async def book_pickup(http, carrier_url: str, parcel: str):
    carrier = await Partner.connect(http, carrier_url)
    request = _request(f"pickup {parcel}", {"terms": terms_digest(carrier.card)})
    return await carrier.client.send_message(request)


async def chase_pickup(http, carrier_url: str, parcel: str):
    carrier = await Partner.connect(http, carrier_url)
    return await carrier.client.send_message(_request(f"where is {parcel}", {}))  # expect: AC103
