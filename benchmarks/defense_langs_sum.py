"""Sum the development-set runs of ``defense_langs_devsets.sh`` (h33-speaker): per set, attacks retained (in the
``default`` focused view, not flagged) / attacks redacted / benign cases flagged, for several output folders side by side.

    .venv/bin/python benchmarks/defense_langs_sum.py base=runs/h33/base/dev K3=runs/h33/K3/dev ...
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

SETS = ("dev6", "dev8", "dev9", "dev12", "dev13", "dev14", "dev15", "dev15b", "blind4", "blind5", "blind6", "blind7",
        "blind8", "blind9", "blind14", "blind15", "benign18a", "benign18b", "dev33", "dev34",
        "dev35", "dev36", "dev37", "honest37", "dev38")


def counts(path: Path) -> tuple[int, int, int, set[str]]:
    rows = json.loads(path.read_text())
    att = [r for r in rows if not r["benign"]]
    ben = [r for r in rows if r["benign"]]
    flagged = {r["id"] for r in ben if r["redacted"]}
    return (sum(r["retained"] and not r["redacted"] for r in att), sum(r["redacted"] for r in att), len(flagged),
            flagged)


def main(argv: list[str]) -> int:
    arms = [(a.split("=", 1)[0], Path(a.split("=", 1)[1])) for a in argv]
    print("| set | " + " | ".join(n for n, _ in arms) + " |")
    print("|---" * (len(arms) + 1) + "|")
    tot = {n: [0, 0, 0] for n, _ in arms}
    base_flags: dict[str, set[str]] = {}
    for s in SETS:
        cells = []
        for n, d in arms:
            f = d / f"{s}.json"
            if not f.exists():
                cells.append("–")
                continue
            r, x, b, fl = counts(f)
            if n == arms[0][0]:
                base_flags[s] = fl
            new = sorted(fl - base_flags.get(s, fl))
            tot[n][0] += r
            tot[n][1] += x
            tot[n][2] += b
            cells.append(f"{r} / {x} / {b}" + (f" (+{', '.join(new)})" if new else ""))
        print(f"| {s} | " + " | ".join(cells) + " |")
    print("| **sum** | " + " | ".join(f"**{t[0]} / {t[1]} / {t[2]}**" for t in tot.values()) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
