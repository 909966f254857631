"""Where the terminology agent lives and how its card is addressed."""

AGENT_BASE = "https://terms.internal.example/a2a/"
#: Relative, so that it resolves under the agent's base path rather than the host root.
CARD_LOCATION = ".well-known/agent-card.json"
