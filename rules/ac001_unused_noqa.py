from a2alint.rule import Invalid, Rule


class UnusedNoqa(Rule):
    """A `# noqa` for a2alint codes that suppressed nothing.

    ## What it does
    With `--report-unused-noqa` (or `AC001` selected by its code), reports a
    `# noqa: AC1xx` comment whose a2alint codes matched no finding on its
    line, a `# a2alint: noqa` that matched nothing, and the codes of a
    file's `# a2alint: noqa: AC1xx` line that matched nothing in the file.
    Codes of other tools in the same comment are left alone.

    The fix (safe, with `--fix`) takes the unused codes out of the comment,
    and the directive with them when no code is left: the rest of the
    comment stays (`# noqa: AC101  # type: ignore` becomes
    `# type: ignore`), a comment that held nothing else goes, and so does a
    line that held nothing but it.

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
    fix_availability = "Sometimes"  # not for a "#" the tokenizer did not find (it may be in a string)
    requires_a2a = False
    suggestion = "remove the unused code from the comment"

    INVALID = [
        Invalid(
            """
from a2a.client import A2ACardResolver

resolver = None  # noqa: AC107, E501  # expect: AC001
""",
            fixed="""
from a2a.client import A2ACardResolver

resolver = None  # noqa: E501  # expect: AC001
""",
        ),
    ]
