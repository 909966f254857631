"""orchestra: sequential workflows whose steps are delegated to A2A agents found in a registry.

    orchestra.cli               command line entry point (``python -m orchestra.cli``)
    orchestra.graph             Workflow: runs nodes in order, pauses and resumes
    orchestra.node              AgentNode: one step carried out by a remote agent
    orchestra.registry_client   the MCP agent registry (``find_agent``)

Install with ``pip install -e .`` from the repository root; the package lives
under ``src/``.
"""

__version__ = "0.4.2"
__all__ = ["cli", "graph", "node", "registry_client"]

#: how long a paused node may wait for the user before the CLI gives up (seconds)
RESUME_TIMEOUT = 15 * 60
