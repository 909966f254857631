"""turnkit: a terminal chat with the company's remote helpdesk agent over A2A.

Modules:

    chat      the REPL (entry point: ``python -m turnkit.chat``)
    turns     one user turn: a new request or an answer to the agent's question
    wrapper   HelpdeskAgent, the lazily connected handle on the remote agent

Configuration comes from the environment: HELPDESK_URL (the agent's base URL)
and HELPDESK_API_KEY (sent as ``X-API-Key`` when set).
"""

__version__ = "1.3.0"
__all__ = ["chat", "turns", "wrapper"]

DEFAULT_URL = "http://localhost:9999"
