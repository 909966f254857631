"""hostsvc: the host side of delegated jobs (links to peers, openings, follow-ups)."""
