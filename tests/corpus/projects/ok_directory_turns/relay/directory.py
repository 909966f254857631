"""Thin client of the partner directory (a key/value service, one row per partner)."""

from __future__ import annotations

import json
import os

import requests

DIRECTORY = os.environ.get("PARTNER_DIRECTORY", "https://directory.internal.example/v1")
_http = requests.Session()


def partner_row(partner: str) -> dict:
    row = _http.get(f"{DIRECTORY}/partners/{partner}", timeout=8).json()
    return json.loads(row["agentCard"])
