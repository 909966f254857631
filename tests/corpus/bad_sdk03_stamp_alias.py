"""Dispatches work to peer agents with the contract pin from the deploy manifest (a2a-sdk 0.3).

The manifest holds, per peer, the release it was last reviewed in;
the dispatcher stamps it into each message's metadata through a local name for
the metadata dict, before the message goes out.

Defect: the stamp is a release name, not a digest of the peer card's contract:
nothing frozen ties the task to the contract it was sent under.
"""

import argparse
import asyncio
import json
import logging
from pathlib import Path
from uuid import uuid4

import httpx
from a2a.client import Client, ClientConfig, ClientFactory
from a2a.types import Message, Part, Role, TextPart

log = logging.getLogger("dispatch")


def load_manifest(path: Path) -> dict[str, str]:
    entries = json.loads(path.read_text())
    return {entry["peer"]: entry["release"] for entry in entries["peers"]}


class Dispatcher:
    def __init__(self, client: Client, manifest: dict[str, str]):
        self.client = client
        self.manifest = manifest

    async def dispatch(self, peer: str, text: str) -> list[str]:
        message = Message(role=Role.user, message_id=uuid4().hex, parts=[Part(root=TextPart(text=text))], metadata={})
        stamp = message.metadata
        stamp["origin"] = "dispatcher"
        stamp["release"] = self.manifest[peer]
        replies = []
        async for event in self.client.send_message(message):  # expect: AC103
            log.debug("event from %s: %s", peer, event)
            replies.append(str(event))
        return replies


async def run(base_url: str, peer: str, manifest_path: Path, text: str) -> None:
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as http:
        client = await ClientFactory.connect(base_url, client_config=ClientConfig(httpx_client=http))
        dispatcher = Dispatcher(client, load_manifest(manifest_path))
        for reply in await dispatcher.dispatch(peer, text):
            print(reply)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("base_url")
    parser.add_argument("peer")
    parser.add_argument("text")
    parser.add_argument("--manifest", type=Path, default=Path("deploy/pins.json"))
    args = parser.parse_args()
    asyncio.run(run(args.base_url, args.peer, args.manifest, args.text))


if __name__ == "__main__":
    main()
