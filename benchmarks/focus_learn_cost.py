"""What the learned fusion costs per ``select``: ``default`` (learned) and ``default:rrf`` alternated
on the same renderings in one process, CPU time (``time.thread_time``, robust to a loaded machine).

Per corpus page (the observations cached by ``benchmarks/realpage_goals.py``) and generic goal,
the page's analysis is warmed first (the "new goal" case), then each variant's ``select`` is timed
``--repeat`` times, alternating, and the fastest of each kept.

    .venv/bin/python benchmarks/focus_learn_cost.py [--cache runs/realpages] [--repeat 3]
"""

from __future__ import annotations

import argparse
import pickle
import statistics
import time
from pathlib import Path

from focus_latency import GOALS, pct

HERE = Path(__file__).resolve().parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cache", type=Path, default=HERE.parent / "runs" / "realpages")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    from pagelens.api import render_observation
    from pagelens.focus.base import FocusQuery
    from pagelens.focus.registry import make_retriever

    variants = {"learned": make_retriever("default"), "rrf": make_retriever("default:rrf")}
    ms: dict[str, list[float]] = {v: [] for v in variants}
    biggest: tuple[int, str, dict[str, float]] = (0, "", {})
    for f in sorted(args.cache.glob("*.obs.pickle")):
        r = render_observation(pickle.loads(f.read_bytes()))
        for goal in GOALS:
            q = FocusQuery(goal)
            for ret in variants.values():
                ret.select(q, r)  # warm: the page's analysis, the model file
            best = {v: float("inf") for v in variants}
            for _ in range(args.repeat):
                for v, ret in variants.items():
                    t = time.thread_time()
                    ret.select(q, r)
                    best[v] = min(best[v], (time.thread_time() - t) * 1000)
            for v in variants:
                ms[v].append(best[v])
            if len(r) >= biggest[0]:
                biggest = (len(r), f.name.split(".")[0], best)
    ratio = [a / b for a, b in zip(ms["learned"], ms["rrf"], strict=True) if b > 0]
    print(f"{len(ratio)} (page, goal) pairs; select CPU ms, new goal")
    print("| variant | p50 | p95 | max |")
    print("|---|---|---|---|")
    for v in variants:
        print(f"| {v} | {statistics.median(ms[v]):.1f} | {pct(ms[v], .95):.1f} | {max(ms[v]):.0f} |")
    print(f"median per-row ratio learned / rrf: {statistics.median(ratio):.2f}")
    print(f"largest page {biggest[1]} ({biggest[0]} lines), last goal: "
          + ", ".join(f"{v} {t:.0f} ms" for v, t in biggest[2].items()))


if __name__ == "__main__":
    main()
