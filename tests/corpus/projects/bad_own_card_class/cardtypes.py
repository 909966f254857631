"""Our own view of a peer's card: the few fields the watcher needs."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class PeerCard:
    name: str
    url: str
    version: str = ""
    skills: list[str] = field(default_factory=list)
