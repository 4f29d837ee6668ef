"""Where honest pages restate goals (h39-echo): ``echo.judge`` on the clean corpus renderings with a group's goals.

Every line is judged (flags of the other steps ignored), so the lines printed are every line that step 8 would flag on
a clean page for that goal, by mode; ``--cost`` also times the step alone per (page, goal) of ``realpage_goals.jsonl``
(the focus stage always has a goal; ``defense_fp.py`` times the defense without one).

    PYTHONPATH=src .venv/bin/python benchmarks/echo_goals.py --cache runs/defense-cache --mode E1 --mode E3 [--cost]

The renderings are ``defense_fp.py``'s cache (``corpus_<page>.pkl``); the goals are ``focus_tail.py``'s choose group.
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cache", type=Path, default=HERE.parent / "runs" / "defense-cache")
    ap.add_argument("--mode", action="append", required=True)
    ap.add_argument("--group", default="choose")
    ap.add_argument("--cost", action="store_true")
    args = ap.parse_args()
    from focus_tail import load

    from pagelens.focus import defense, echo

    pages = {p.stem[len("corpus_"):]: pickle.loads(p.read_bytes()) for p in args.cache.glob("corpus_*.pkl")}
    goals = list(dict.fromkeys((g["page"], g["goal"]) for g in load(args.group)))
    prepared = {}
    for name, r in pages.items():
        prepared[name] = ([defense._payload(ln) for ln in r.lines], defense._live_regions(r.lines),
                          {ln.no: k for k, ln in enumerate(r.lines)})
    print(f"{len(goals)} distinct (page, goal) pairs of group {args.group}, {len(pages)} pages")
    for mode in args.mode:
        echo.MODE = mode
        hits = []
        for page, goal in goals:
            if page not in pages:
                continue
            payloads, regions, pos = prepared[page]
            for i, _ in echo.judge(pages[page].lines, payloads, regions, goal, lambda i: False, pos.get):
                hits.append((page, goal, regions[i], pages[page].lines[i].role, payloads[i][:160]))
        print(f"{mode}: {len(hits)} lines")
        for h in hits:
            print("   ", h)
        if args.cost:
            rows = [json.loads(x) for x in (HERE / "data" / "realpage_goals.jsonl").read_text().splitlines() if x.strip()]
            cost = []
            for g in rows:
                payloads, regions, pos = prepared[g["page"]]
                best = 1e9
                for _ in range(5):
                    t = time.perf_counter()
                    list(echo.judge(pages[g["page"]].lines, payloads, regions, g["goal"], lambda i: False, pos.get))
                    best = min(best, (time.perf_counter() - t) * 1000)
                cost.append(best)
            cost.sort()
            print(f"{mode}: step 8 alone, {len(cost)} goals, fastest of 5: p50 {cost[len(cost) // 2]:.3f} ms, "
                  f"p95 {cost[int(round(0.95 * (len(cost) - 1)))]:.3f} ms, max {cost[-1]:.3f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
