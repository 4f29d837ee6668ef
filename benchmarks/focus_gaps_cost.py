"""What closing gaps and the signal quota cost ``default``'s ``select``: the same rendering and
goal with both mechanisms on and off, alternated in one process (the page analysis cached, as
for a new goal), so that machine load hits both alike.

    .venv/bin/python benchmarks/focus_gaps_cost.py [--cache runs/realpages]
"""

from __future__ import annotations

import argparse
import pickle
import statistics
import time
from dataclasses import replace
from pathlib import Path

HERE = Path(__file__).resolve().parent
GOALS = ("What does this cost?", "Sign in to my account", "Go to the next page", "Who wrote this?")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cache", type=Path, default=HERE.parent / "runs" / "realpages")
    args = ap.parse_args()
    from pagelens.api import render_observation
    from pagelens.focus.base import FocusQuery
    from pagelens.focus.rules import RulesConfig, RulesRetriever

    on = RulesRetriever()
    off = RulesRetriever(replace(RulesConfig(), gap_tokens=0, signal_quota=0))
    ms: dict[str, list[float]] = {"on": [], "off": []}
    big: dict[str, list[float]] = {"on": [], "off": []}
    for f in sorted(args.cache.glob("*.obs.pickle")):
        r = render_observation(pickle.loads(f.read_bytes()))
        for goal in GOALS:
            q = FocusQuery(goal)
            on.select(q, r)  # the analysis, once
            for _ in range(3):
                for name, ret in (("on", on), ("off", off)):
                    t = time.perf_counter()
                    ret.select(q, r)
                    ms[name].append((time.perf_counter() - t) * 1000)
                    if len(r) > 8000:
                        big[name].append(ms[name][-1])
    for name in ("off", "on"):
        print(f"{name}: select p50 {statistics.median(ms[name]):.1f} ms, p95 "
              f"{sorted(ms[name])[int(0.95 * (len(ms[name]) - 1))]:.1f} ms"
              + (f", largest page p50 {statistics.median(big[name]):.0f} ms" if big[name] else ""))
    print(f"ratio on/off p50 {statistics.median(ms['on']) / statistics.median(ms['off']):.2f}")


if __name__ == "__main__":
    main()
