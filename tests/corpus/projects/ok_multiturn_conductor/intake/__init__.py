"""Claims intake over A2A.

A conductor that opens a claim with a remote claims agent and answers the
agent's follow-up questions from the claim file until the claim is complete.

    conductor  drives the conversation (entry point: ``python -m intake.conductor``)
    turns      opens the session with the claims agent and sends one message
    answers    finds the reply to each follow-up question
"""

import logging

__version__ = "0.4.2"
__all__ = ["answers", "conductor", "turns"]

logging.getLogger("intake").addHandler(logging.NullHandler())
