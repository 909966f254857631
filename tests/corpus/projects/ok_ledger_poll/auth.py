"""Request headers for the ledger agent, derived from what its agent document declares.

Tokens come from the environment: LEDGER_TOKEN (or LEDGER_TOKEN_<SCHEME> for a
named bearer scheme) and LEDGER_API_KEY for header API keys.
"""

from __future__ import annotations

import os


class NoUsableScheme(RuntimeError):
    """The peer requires an auth scheme this client holds no credential for."""


def _bearer(name: str) -> str | None:
    return os.environ.get(f"LEDGER_TOKEN_{name.upper()}") or os.environ.get("LEDGER_TOKEN")


def _one(name: str, scheme: dict) -> dict[str, str] | None:
    kind = scheme.get("type")
    if kind == "http" and scheme.get("scheme", "").lower() == "bearer":
        token = _bearer(name)
        return {"Authorization": f"Bearer {token}"} if token else None
    if kind == "apiKey" and scheme.get("in") == "header":
        key = os.environ.get("LEDGER_API_KEY")
        return {scheme["name"]: key} if key else None
    if kind == "oauth2":
        token = _bearer(name)
        return {"Authorization": f"Bearer {token}"} if token else None
    return None


def headers_for(meta: dict) -> dict[str, str]:
    """Headers satisfying the first security requirement we hold credentials for."""
    schemes = meta.get("securitySchemes") or {}
    requirements = meta.get("security")
    if not requirements:
        return {}
    for requirement in requirements:
        headers: dict[str, str] = {}
        for name in requirement:
            got = _one(name, schemes.get(name, {}))
            if got is None:
                break
            headers.update(got)
        else:
            return headers
    raise NoUsableScheme(f"no credential for any of {[list(r) for r in requirements]}")
