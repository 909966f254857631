"""The nightly batch: one settlement per day still open, the agent's card checked before
each; a day the agent cannot take stays open for tomorrow's run."""

from reconciler import Settler


def run_open_days(settler: Settler, open_days: dict[str, list[dict]]) -> tuple[dict[str, str], list[str]]:
    settled: dict[str, str] = {}
    still_open: list[str] = []
    for day in sorted(open_days):
        try:
            settler.refresh()
            settled[day] = settler.settle(day, open_days[day])
        except RuntimeError:
            still_open.append(day)
    return settled, still_open
