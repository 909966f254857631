"""freight-track BOOKING_ID ROOT: prints the final state of a booking the booking desk made
(exit 1 unless completed); ROOT is the address the desk recorded from the partner's card
when it booked."""

import sys

from tracker import follow


def main(argv: list[str]) -> int:
    state = follow(argv[2], argv[1])
    print(state)
    return 0 if state == "TASK_STATE_COMPLETED" else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
