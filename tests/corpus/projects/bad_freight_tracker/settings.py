"""Where the freight partner's agent lives and how often the tracker looks (env overrides)."""

import os

PARTNER_BASE = os.environ.get("FREIGHT_AGENT_URL", "https://freight-agent.example.net")
CARD_ROUTE = "/.well-known/agent-card.json"
LOOK_EVERY = float(os.environ.get("FREIGHT_LOOK_EVERY", "20"))
DONE = ("TASK_STATE_COMPLETED", "TASK_STATE_FAILED", "TASK_STATE_CANCELED", "TASK_STATE_REJECTED")
