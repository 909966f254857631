from a2alint.rule import Rule


def elif_chain(branches: int) -> str:
    """A router that fetches a card and sends in each of ``branches`` branches of one
    ``elif`` chain: the shape that made the analysis of a 900-line file take minutes."""
    lines = [
        "from a2a.client import A2ACardResolver",
        "",
        "async def route(client, http, kind, text):  # expect: AC002",
        "    if kind == 0:",
        "        return await client.send_message(text)",
    ]
    for branch in range(1, branches):
        lines += [
            f"    elif kind == {branch}:",
            f"        card = await A2ACardResolver(http, 'https://peer-{branch}.example').get_agent_card()",
            "        reply = await client.send_message(card)",
        ]
    return "\n".join(lines) + "\n"


def helpers_calling_helpers(count: int, fan: int) -> str:
    """Helpers that each await the ``fan`` before them and then cancel and send: the paths
    from the last one down to a send are exponentially many. Summaries that kept every
    path took 24 GB for 120 helpers of fan 40; this shape must stay fast and silent of
    AC002 (the tests and ``benchmarks/worst_shapes.py`` time it)."""
    lines = ["from a2a.client import A2ACardResolver", ""]
    for index in range(count):
        lines.append(f"async def h{index}(client, card):")
        lines += [f"    c{j} = await h{j}(client, card)" for j in range(max(0, index - fan), index)]
        lines += ["    if card.skills:", "        await client.cancel_task(card)", "    return await client.send_message(card)"]
    return "\n".join(lines) + "\n"


class TooComplex(Rule):
    """A file whose analysis stopped at a2alint's budget, so none of its findings are reported.

    ## What it does
    Reported by the engine, at the function it was analysing, when the analysis of a
    file takes more steps (control-flow questions such as "can this run after that?",
    values worked out) than its budget allows: five times what the largest real module
    measured takes, ten times the largest hand-written one; or when its questions
    through the project's modules nest deeper than the 50,000 Python frames the
    analysis has (a chain of about 3,000 modules each handing a card to the next).
    Nothing of that file is reported (a half-analysed file's findings are not
    trusted), and nothing its analysis had worked out is kept for the files after it;
    the rest of the run goes on, at its usual speed.

    ## Why is this bad?
    The file was not checked, so a finding may be hiding in it. The shapes that get
    here (hundreds of card fetches and sends in one `elif` chain, one function doing
    the work of a dispatch table) are as hard for a reader to follow as for the tool.

    ## Example
    ```python
    async def route(client, http, kind, text):
        if kind == 0:
            return await client.send_message(text)
        elif kind == 1:
            card = await A2ACardResolver(http, "https://peer-1.example").get_agent_card()
            reply = await client.send_message(card)
        ...  # and 300 more branches like it
    ```

    ## Use instead
    ```python
    PEERS = {1: "https://peer-1.example", ...}

    async def route(client, http, kind, text):
        card = await A2ACardResolver(http, PEERS[kind]).get_agent_card()
        return await client.send_message(card)
    ```

    ## Covers
    Every file a2alint analyses. `# noqa: AC002` on the function's line accepts it.

    ## Limits
    - The answers one file's analysis works out serve the files checked after it in
      the same process, so a file's steps and depth depend a little on which files
      came before it (the job count, the files named): up to three times fewer steps
      on a project of 1,000 modules. A file within that of either bound may be
      reported here in one run and checked in another; real modules stay below a
      fifth of the budget, and chains of modules below the depth up to about 3,000.
    """

    code = "AC002"
    name = "too-complex-to-analyse"
    severity = "warning"
    engine = True
    requires_a2a = False
    suggestion = "split the function (a table of peers instead of a chain of branches): a2alint checked nothing in this file"

    INVALID = [elif_chain(260)]
