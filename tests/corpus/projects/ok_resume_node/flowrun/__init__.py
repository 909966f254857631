"""flowrun: a small workflow engine whose steps are delegated to remote A2A agents.

Modules:

    engine    runs, pauses and resumes workflows (entry: ``python -m flowrun.engine``)
    nodes     DelegateNode, the step that hands work to one remote agent
    registry  PeerRegistry, where a node finds the agent it delegates to

Workflow state is plain JSON so that a paused run survives a restart.
"""

__version__ = "0.9.0"
__all__ = ["engine", "nodes", "registry"]

DEFAULT_STATE_DIR = ".flowrun"
