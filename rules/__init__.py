"""The a2alint rules: one module per rule, each with its documentation and examples."""
