"""Follows every shipment still open at the broker."""

import sys

from shipments.declare import follow

for task_id in sys.argv[2:]:
    print(follow(sys.argv[1], task_id))
