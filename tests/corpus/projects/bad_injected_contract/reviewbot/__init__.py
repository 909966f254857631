"""review-bot: CI helper that asks a remote code-review agent to review a diff.

Modules:

    app        command line and the review desk (entry: ``python -m reviewbot.app``)
    session    ReviewSession: the connection to the review agent (a2a-sdk 1.x)

The review agent's URL comes from ``REVIEW_AGENT_URL``; the bot exits non-zero
when any file got a blocking remark, so the CI step fails.
"""

__version__ = "2.0.3"
__all__ = ["app", "session"]

BLOCKING_MARK = "[blocking]"
