"""a2alint: a static analyzer for Python code that acts as an A2A protocol client.

The engine lives in this package (``a2alint``); the rules live in
``a2alint.rules``, one module per rule.
"""

__version__ = "0.1.0"

#: Where each rule's documentation lives (``a2alint rule CODE`` prints the same text).
DOCS_URL = "https://github.com/a2alint/a2alint/blob/main/README.md#{code}"
