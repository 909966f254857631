"""relaykit: hand-rolled JSON-RPC plumbing for talking to remote A2A agents."""

from .discovery import DIGEST_KEY, WELL_KNOWN, endpoint_of, fetch_descriptor, terms_digest
from .envelope import RpcChannel, RpcFault
from .senders import post_alert, run_skill, submit_report

__all__ = [
    "DIGEST_KEY",
    "WELL_KNOWN",
    "RpcChannel",
    "RpcFault",
    "endpoint_of",
    "fetch_descriptor",
    "post_alert",
    "run_skill",
    "submit_report",
    "terms_digest",
]
