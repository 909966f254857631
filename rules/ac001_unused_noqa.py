from a2alint.rule import Rule


class UnusedNoqa(Rule):
    """A `# noqa` for a2alint codes that suppressed nothing.

    ## What it does
    With `--report-unused-noqa` (or `AC001` selected by its code), reports a
    `# noqa: AC1xx` comment whose a2alint codes matched no finding on its
    line, a `# a2alint: noqa` that matched nothing, and the codes of a
    file's `# a2alint: noqa: AC1xx` line that matched nothing in the file.
    Codes of other tools in the same comment are left alone.

    ## Why is this bad?
    A stale suppression hides the next real finding on that line.

    ## Example
    ```python
    card = load_card()  # noqa: AC101
    ```

    ## Use instead
    ```python
    card = load_card()
    ```

    ## Covers
    Every file a2alint checks.
    """

    code = "AC001"
    name = "unused-noqa"
    severity = "warning"
    engine = True
    opt_in = True
    requires_a2a = False
    suggestion = "remove the unused code from the comment"

    INVALID = [
        """
from a2a.client import A2ACardResolver

resolver = None  # noqa: AC107  # expect: AC001
""",
    ]
