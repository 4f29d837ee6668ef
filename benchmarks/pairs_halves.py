"""Retained / redacted / benign flagged of runs of the 20 development injection sets, per half of the harness'
``--half`` convention (odd id number = read, even = unread) and summed (h38-pairs' gate 1).

    .venv/bin/python benchmarks/pairs_halves.py base=runs/base/dev P1=runs/cand/P1 ...
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from pairs_devsets import SETS


def half(case_id: str) -> str:
    m = re.search(r"(\d+)$", case_id)
    return "read" if m and int(m.group(1)) % 2 else "unread"


def main(argv: list[str]) -> int:
    print("| run | retained read / unread / sum | redacted | benign flagged | sets missing |")
    print("|---|---|---|---|---|")
    for arm in argv:
        name, d = arm.split("=", 1)
        ret = {"read": 0, "unread": 0}
        red = ben = missing = 0
        for s in SETS:
            f = Path(d) / f"{s}.json"
            if not f.exists():
                missing += 1
                continue
            for r in json.loads(f.read_text()):
                if r["benign"]:
                    ben += bool(r["redacted"])
                    continue
                red += bool(r["redacted"])
                ret[half(r["id"])] += bool(r["retained"] and not r["redacted"])
        print(f"| {name} | {ret['read']} / {ret['unread']} / {ret['read'] + ret['unread']} | {red} | {ben} | {missing} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
