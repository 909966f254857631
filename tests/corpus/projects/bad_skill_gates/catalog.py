"""What an agent's published document says it can do."""

from __future__ import annotations


def advertised(doc: dict) -> set[str]:
    return {entry["id"] for entry in doc.get("skills", [])}
