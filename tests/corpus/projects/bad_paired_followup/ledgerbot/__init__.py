"""ledgerbot: hands reconciliation jobs to the books agent (a2a-sdk 0.2) and follows them."""
