from a2alint.rule import Rule


class UnparsableFile(Rule):
    """A file a2alint could not analyse: a syntax error, bad encoding, or unreadable bytes.

    ## What it does
    Reported by the engine, at the position of the problem, when a file that
    may hold A2A client code cannot be read, decoded or parsed: a syntax
    error, a file that is not UTF-8 and declares no other encoding, NUL bytes
    (a binary file named `.py`), a file larger than `max-file-size` (1 MiB by
    default), or nesting too deep for the parser. The rest of the run goes on.
    A file that cannot hold A2A code, by its bytes, is never parsed: its syntax
    errors are not reported (a2alint is not a Python linter; ruff reports them),
    and a large one of those is skipped, not refused.

    ## Why is this bad?
    Nothing in that file was checked, so a finding may be hiding in it; and
    the interpreter will refuse the file too.

    ## Example
    ```python
    async def send(client, message)
        await client.send_message(message)
    ```

    ## Use instead
    ```python
    async def send(client, message):
        await client.send_message(message)
    ```

    ## Covers
    Python 3.0 to 3.14 syntax, as libcst's native parser reads it.
    """

    code = "AC000"
    name = "unparsable-file"
    severity = "error"
    engine = True
    requires_a2a = False
    suggestion = "fix the file so that Python can read it; a2alint checked nothing in it"

    INVALID = [
        """
from a2a.client import A2ACardResolver

async def send(client, message):
    await client.send_message(message))  # expect: AC000
""",
    ]
