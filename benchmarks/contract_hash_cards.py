"""Run the helper AC103's fix inserts on real Agent Cards of every a2a-sdk shape.

    python benchmarks/contract_hash_cards.py            # a2a-sdk 0.2.16, 0.3.26 and 1.3.0
    python benchmarks/contract_hash_cards.py 0.3.10     # other versions

For each version it makes a virtualenv (in a temporary folder), installs that a2a-sdk
from PyPI, builds cards with the SDK's own ``AgentCard`` (pydantic in 0.2/0.3, protobuf
in 1.x) and checks, on the helper exactly as the fix writes it, that:

- equal contracts give equal digests, whatever the order the card was given in;
- changing a contract field (protocol version, security schemes, security) changes it;
- changing only the skills or the description leaves it as it was;
- ``a2a_with_contract_hash`` puts the digest in the metadata of that version's message
  (and of its send request).

It prints one line per check and exits 1 if any fails. The unit tests run the same
helper on raw JSON cards; this script needs the network (for pip), so CI does not run it.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import textwrap
import venv
from pathlib import Path

from a2alint.freeze import helper_source  # the helper exactly as the fix writes it

VERSIONS = ("0.2.16", "0.3.26", "1.3.0")

CHECKS = '''
import hashlib, json, sys
from importlib.metadata import version

HELPERS
PROTOBUF = hasattr(AgentCard, "DESCRIPTOR")

def card(**changes):
    fields = dict(name="Travel agent", description="Books trips", version="1.4.0",
                  skills=[dict(id="book", name="Book", description="Book a trip", tags=["trips"])],
                  default_input_modes=["text/plain"], default_output_modes=["text/plain"])
    reverse = changes.pop("_reversed", False)
    if PROTOBUF:
        from google.protobuf.json_format import ParseDict
        fields.update(capabilities={}, supported_interfaces=[dict(url="https://t.example/a2a", protocol_binding="JSONRPC", protocol_version="1.0")],
                      security_schemes={"oauth": {"oauth2_security_scheme": {"flows": {"client_credentials": {"token_url": "https://id.example/t"}}}}},
                      security_requirements=[{"schemes": {"oauth": {"list": ["trips:write"]}}}])
        fields.update(changes)
        camel = lambda k: k.split("_")[0] + "".join(p.title() for p in k.split("_")[1:])
        def convert(v):
            if isinstance(v, dict):
                return {camel(k) if k not in ("oauth",) else k: convert(x) for k, x in v.items()}
            return [convert(x) for x in v] if isinstance(v, list) else v
        ordered = dict(reversed(list(convert(fields).items()))) if reverse else convert(fields)
        return ParseDict(ordered, AgentCard())
    fields.update(url="https://t.example/a2a", capabilities={}, protocol_version="0.3.0",
                  security_schemes={"oauth": {"type": "oauth2", "flows": {"clientCredentials": {"tokenUrl": "https://id.example/t", "scopes": {}}}}},
                  security=[{"oauth": ["trips:write"]}])
    fields.update(changes)
    if reverse:
        fields = dict(reversed(list(fields.items())))
    return AgentCard(**fields)

results = []
def check(name, ok):
    results.append(ok)
    print(f"  {'ok  ' if ok else 'FAIL'} {name}")

base = a2a_contract_hash(card())
check("same contract, given in another order", a2a_contract_hash(card(_reversed=True)) == base)
check("only the skills changed", a2a_contract_hash(card(skills=[])) == base)
check("only the description changed", a2a_contract_hash(card(description="Now hotels too")) == base)
if PROTOBUF:
    check("protocol version changed", a2a_contract_hash(card(supported_interfaces=[dict(url="https://t.example/a2a", protocol_binding="JSONRPC", protocol_version="1.1")])) != base)
    check("security requirements changed", a2a_contract_hash(card(security_requirements=[])) != base)
    check("security schemes changed", a2a_contract_hash(card(security_schemes={})) != base)
    from a2a.types import Message, Part, SendMessageRequest
    message = Message(message_id="m", parts=[Part(text="hi")])
    check("Message.metadata carries it", dict(a2a_with_contract_hash(message, card()).metadata)["KEY"] == base)
    request = SendMessageRequest(message=Message(message_id="m", parts=[Part(text="hi")]))
    check("SendMessageRequest.metadata carries it", dict(a2a_with_contract_hash(request, card()).metadata)["KEY"] == base)
else:
    check("protocol version changed", a2a_contract_hash(card(protocol_version="0.2.5")) != base)
    check("security changed", a2a_contract_hash(card(security=[])) != base)
    check("security schemes changed", a2a_contract_hash(card(security_schemes={})) != base)
    from a2a.types import Message, MessageSendParams, Part, SendMessageRequest, TextPart
    message = Message(role="user", message_id="m", parts=[Part(root=TextPart(text="hi"))])
    check("Message.metadata carries it", a2a_with_contract_hash(message, card()).metadata["KEY"] == base)
    request = SendMessageRequest(id="1", params=MessageSendParams(message=Message(role="user", message_id="m", parts=[Part(root=TextPart(text="hi"))])))
    check("the request's message carries it", a2a_with_contract_hash(request, card()).params.message.metadata["KEY"] == base)
sys.exit(0 if all(results) else 1)
'''


def run(version: str, folder: Path) -> bool:
    home = folder / f"a2a-{version}"
    venv.create(home, with_pip=True)
    python = home / "bin" / "python"
    pip = subprocess.run(
        [python, "-m", "pip", "install", "-q", "--disable-pip-version-check", f"a2a-sdk=={version}"],
        capture_output=True, text=True,
    )
    if pip.returncode != 0:
        print(f"a2a-sdk {version}: pip failed\n{pip.stderr[-2000:]}")
        return False
    key = "a2a_contract_hash"
    script = CHECKS.replace("HELPERS", "from a2a.types import AgentCard\n" + helper_source(key)).replace('"KEY"', repr(key))
    print(f"a2a-sdk {version}")
    return subprocess.run([python, "-c", textwrap.dedent(script)]).returncode == 0


def main() -> int:
    versions = sys.argv[1:] or VERSIONS
    with tempfile.TemporaryDirectory(prefix="a2alint-cards-") as folder:
        passed = [run(v, Path(folder)) for v in versions]
    print(f"{sum(passed)} of {len(passed)} versions pass")
    return 0 if all(passed) else 1


if __name__ == "__main__":
    sys.exit(main())
