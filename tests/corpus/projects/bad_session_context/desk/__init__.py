"""desk: the support desk's side of conversations with a specialist agent."""
