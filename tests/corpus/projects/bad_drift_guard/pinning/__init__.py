"""pinning: runs translation jobs on a partner agent pinned to the card it was approved with (a2a-sdk 1.x)."""
