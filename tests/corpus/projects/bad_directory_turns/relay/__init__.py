"""relay: answers questions that partner agents ask in the middle of a job.

    relay.directory   the partner directory service (agents are rows; the card is a JSON column)
    relay.cards       the card of a partner, refreshed every few minutes
    relay.jobs        opens a job with a partner and answers its questions
"""
