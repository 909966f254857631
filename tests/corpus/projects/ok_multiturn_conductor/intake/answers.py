"""Finds the answer to the claims agent's follow-up questions in the claim file."""

from __future__ import annotations

from a2a.types import Task, TextPart

FIELDS = {
    "policy": "policy_number",
    "date": "incident_date",
    "where": "location",
    "location": "location",
    "police": "police_report",
    "photo": "photo_urls",
    "amount": "estimated_amount",
}


def question_of(task: Task) -> str:
    message = task.status.message
    if message is None:
        return ""
    return " ".join(p.root.text for p in message.parts if isinstance(p.root, TextPart)).strip()


class AnswerSheet:
    def __init__(self, claim: dict):
        self.claim = claim
        self.asked: list[str] = []

    def answer(self, question: str) -> str:
        self.asked.append(question)
        lowered = question.lower()
        for word, field in FIELDS.items():
            if word in lowered and field in self.claim:
                value = self.claim[field]
                return ", ".join(value) if isinstance(value, list) else str(value)
        return self.claim.get("notes") or "I do not have that information."
