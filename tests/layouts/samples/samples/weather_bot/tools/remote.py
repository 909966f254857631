"""A chat webhook the forecasts are posted to."""

import json
import urllib.request


class Webhook:
    def __init__(self, url: str) -> None:
        self.url = url

    async def send_message(self, text: str):
        body = json.dumps({"text": text}).encode()
        with urllib.request.urlopen(urllib.request.Request(self.url, data=body, method="POST")) as response:
            yield response.status


async def booking_agent(url: str) -> Webhook:
    return Webhook(url)
