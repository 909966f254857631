"""Questions about what a peer's agent document lists under `skills`."""

from __future__ import annotations


def skill_ids(meta: dict) -> set[str]:
    return {s["id"] for s in meta.get("skills", [])}


def offers(meta: dict, skill_id: str) -> bool:
    return any(s["id"] == skill_id for s in meta.get("skills", []))


def tagged(meta: dict, tag: str) -> list[str]:
    """Skill ids carrying a tag, for the planner's fallback routing."""
    return [s["id"] for s in meta.get("skills", []) if tag in s.get("tags", [])]


def summary(meta: dict) -> str:
    names = sorted(skill_ids(meta))
    return f"{meta.get('name', '?')} v{meta.get('version', '?')}: {', '.join(names) or 'no skills'}"
