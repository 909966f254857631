"""How findings survive semantics-preserving rewrites (issue 25, section 5), in one table.

    python benchmarks/invariance.py                 # every rewrite
    python benchmarks/invariance.py rename move     # some of them
    python benchmarks/invariance.py --why           # and each case that loses or gains a finding

Every rule example and every case of ``tests/corpus/`` (single files and projects) is
rewritten by each rewrite of ``tests/rewrites.py`` and checked again; a finding is kept
when it is found again where the rewrite puts it (rename: the same line; the others: the
same file, a moved function's findings in its new module). Per rewrite and rule: the
findings kept of those before, the share, and the findings gained. For rename, ``--why``
also names the names the analysis decides by (renaming all but those keeps every finding).
The issue's targets: rename keeps every finding no rule page's Limits puts down to a name,
every other rewrite keeps >= 95% per rule, and no rewrite gains a finding.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from rewrites import REWRITES, all_cases, compare, names_relied_on, validate  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rewrites", nargs="*", help=f"rewrites to run (default: all of {', '.join(REWRITES)})")
    parser.add_argument("--why", action="store_true", help="list each case that loses or gains a finding")
    args = parser.parse_args()
    unknown = set(args.rewrites) - set(REWRITES)
    if unknown:
        parser.error(f"no rewrite {', '.join(sorted(unknown))}")
    cases = all_cases()
    before = {case.name: case.findings() for case in cases}
    print(f"{len(cases)} cases ({sum(c.project for c in cases)} projects), {sum(map(len, before.values()))} findings")
    print(f"{'rewrite':<16}{'rule':<8}{'kept':>10}{'share':>8}{'gained':>8}")
    for name in args.rewrites or REWRITES:
        start = time.perf_counter()
        kept, lost, gained, applied, why = Counter(), Counter(), Counter(), 0, []
        for case in cases:
            for rewritten in REWRITES[name](case, before[case.name]):
                validate(rewritten)
                outcome = compare(before[case.name], rewritten)
                kept, lost, gained, applied = kept + outcome.kept, lost + outcome.lost, gained + outcome.gained, applied + 1
                if args.why and (outcome.lost or outcome.gained):
                    relied = f" relies on {names_relied_on(case, before[case.name])}" if name == "rename" else ""
                    why.append(f"  {case.name}: lost {sorted(outcome.lost_at)} gained {sorted(outcome.gained_at)}{relied}")
        for code in sorted(set(kept) | set(lost) | set(gained)):
            total = kept[code] + lost[code]
            share = f"{kept[code] / total:.0%}" if total else "-"
            print(f"{name:<16}{code:<8}{kept[code]:>5}/{total:<4}{share:>8}{gained[code]:>8}")
        total = sum(kept.values()) + sum(lost.values())
        print(f"{name:<16}{'all':<8}{sum(kept.values()):>5}/{total:<4}{sum(kept.values()) / max(total, 1):>8.0%}"
              f"{sum(gained.values()):>8}   ({applied} rewritten cases, {time.perf_counter() - start:.0f} s)")
        print("\n".join(why))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
