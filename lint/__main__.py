"""``python -m a2alint``: the command line."""

import os
import sys

# `-m` puts the working directory first on sys.path, where a checked project's own
# click.py or libcst/ would shadow a2alint's dependencies (pip's __main__ does this too).
try:
    working = os.getcwd()
except FileNotFoundError:  # deleted: nothing there to shadow anything, and the command says so
    working = ""
if sys.path and sys.path[0] in ("", working):
    sys.path.pop(0)

from a2alint.cli import run  # noqa: E402

run(hard_exit=False)  # an ordinary exit: profilers and coverage run this way write their data
