"""Focus latency per page on the real-page corpus: ``default``'s ``select`` alone and the whole
``focus()`` call (injection defense included), with ``bm25-400`` measured in the same run.

Uses the observations cached by ``benchmarks/realpage_goals.py`` (every corpus page that has a
goal); goals are generic ("Find the price", "Sign in", ...), two runs per page, the second
counted (warm caches, as in an episode).

    .venv/bin/python benchmarks/focus_latency.py [--cache runs/realpages]
"""

from __future__ import annotations

import argparse
import pickle
import statistics
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
GOALS = ("What does this cost?", "Sign in to my account", "Go to the next page", "Who wrote this?")


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cache", type=Path, default=HERE.parent / "runs" / "realpages")
    args = ap.parse_args()
    from pagelens.api import render_observation
    from pagelens.focus.apply import focus
    from pagelens.focus.base import FocusQuery
    from pagelens.focus.registry import make_retriever

    rets = {n: make_retriever(n) for n in ("default", "bm25-400")}
    sel: dict[str, list[float]] = {n: [] for n in rets}
    whole: dict[str, list[float]] = {n: [] for n in rets}
    biggest: tuple[int, str, float, float] | None = None
    for f in sorted(args.cache.glob("*.obs.pickle")):
        r = render_observation(pickle.loads(f.read_bytes()))  # noqa: S301 - own cache
        for name, ret in rets.items():
            for goal in GOALS:
                q = FocusQuery(goal)
                ret.select(q, r)  # warm
                t = time.perf_counter()
                ret.select(q, r)
                s = (time.perf_counter() - t) * 1000
                t = time.perf_counter()
                focus(r, q, ret)
                w = (time.perf_counter() - t) * 1000
                sel[name].append(s)
                whole[name].append(w)
                if name == "default" and (biggest is None or len(r) > biggest[0]):
                    biggest = (len(r), f.name.split(".")[0], s, w)
    print("| retriever | select p50 ms | select p95 ms | focus() p50 ms | focus() p95 ms | focus() max ms |")
    print("|---|---|---|---|---|---|")
    for name in rets:
        print(f"| {name} | {statistics.median(sel[name]):.0f} | {pct(sel[name], .95):.0f} | "
              f"{statistics.median(whole[name]):.0f} | {pct(whole[name], .95):.0f} | {max(whole[name]):.0f} |")
    if biggest is not None:
        print(f"largest page: {biggest[1]} ({biggest[0]} lines): default select {biggest[2]:.0f} ms, "
              f"focus() {biggest[3]:.0f} ms (last goal)")


if __name__ == "__main__":
    main()
