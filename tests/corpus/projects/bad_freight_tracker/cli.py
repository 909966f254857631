"""freight-track BOOKING_ID: prints the final state of a booking the booking desk made
(exit 1 unless completed)."""

import sys

from tracker import follow


def main(argv: list[str]) -> int:
    state = follow(argv[1])
    print(state)
    return 0 if state == "TASK_STATE_COMPLETED" else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
