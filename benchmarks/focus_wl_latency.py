"""``default`` against a WordLlama arm (issue 9, h22-wl; after h18-static's ``focus_static_latency.py``), paired: the same (page, goal) timed with each in turn, cold (the
analysis caches emptied) and for a new goal on the analysed page, in alternating order; ratios of the
percentiles; and the process RSS the table adds (loaded, plus every page's unit vectors computed).

    PYTHONPATH=src:/work/venvs/wl-site nice -n 10 .venv/bin/python benchmarks/focus_wl_latency.py --cache runs/rp \
        --arm default:wl --rounds 2
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cache", type=Path, default=HERE.parent / "runs" / "realpages")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--json", type=Path, help="write every timing here (to pool runs)")
    ap.add_argument("--arm", default="default:wl", help="a registry name or focus_tail's default+field=value,...")
    ap.add_argument("--cold-memo", action="store_true",
                    help="also forget the embedder's per-word token memo before each cold timing (every word new)")
    ap.add_argument("--pool", type=Path, nargs="+", help="only pool these --json files of earlier runs and print the ratios")
    a = ap.parse_args()
    sys.path.insert(0, str(HERE))
    from focus_latency import GOALS, cached_renderings, pct, timed
    from focus_wl_cost import rss_mb

    if a.pool:
        import json

        runs = [json.loads(p.read_text()) for p in a.pool]
        ms = {k: [x for r in runs for x in r[k]] for k in runs[0]}
        print(f"pooled {len(runs)} runs")
        table(ms, pct)
        return
    from focus_tail import _retriever

    from pagelens.focus.analysis import clear_caches
    from pagelens.focus.base import FocusQuery
    from pagelens.focus.registry import make_retriever

    base, stat = make_retriever("default"), _retriever(a.arm)
    pages = [r for _, r in cached_renderings(a.cache)]
    for r in pages:  # warm imports and per-text caches, both ways
        base.select(FocusQuery(GOALS[0]), r)
    before = rss_mb()
    from pagelens.focus.lookup import shared_lookup

    assert shared_lookup()[0] is not None, shared_lookup()[1]
    loaded = rss_mb()
    ms: dict[str, list[float]] = {k: [] for k in ("cold base", "cold arm", "new goal base", "new goal arm")}
    for rnd in range(a.rounds):
        for r in pages:
            for gi, goal in enumerate(GOALS):
                q, other = FocusQuery(goal), FocusQuery(GOALS[(gi + 1) % len(GOALS)])
                pair = [("base", base), ("arm", stat)]
                for name, ret in pair if (rnd + gi) % 2 == 0 else pair[::-1]:
                    clear_caches()
                    if a.cold_memo:
                        shared_lookup()[0]._memo.clear()  # type: ignore[union-attr]
                    ms[f"cold {name}"].append(timed(lambda: ret.select(q, r)))  # noqa: B023
                    ms[f"new goal {name}"].append(timed(lambda: ret.select(other, r)))  # noqa: B023
    after = rss_mb()
    print(f"{len(ms['cold base'])} (page, goal) timings each, {a.rounds} rounds")
    table(ms, pct)
    if a.json:
        import json

        a.json.write_text(json.dumps(ms))
    print(f"RSS: {before:.0f} MB before the table, {loaded:.0f} MB loaded (+{loaded - before:.0f}), "
          f"{after:.0f} MB after every page's vectors (+{after - before:.0f}; the analyses are cached too)")


def table(ms: dict[str, list[float]], pct) -> None:  # type: ignore[no-untyped-def]
    print("| measure | base p50 / p95 ms | arm p50 / p95 ms | p50 ratio | p95 ratio |")
    print("|---|---|---|---|---|")
    for m in ("cold", "new goal"):
        b, s = ms[f"{m} base"], ms[f"{m} arm"]
        print(f"| {m} | {statistics.median(b):.1f} / {pct(b, .95):.1f} | {statistics.median(s):.1f} / {pct(s, .95):.1f} | "
              f"{statistics.median(s) / statistics.median(b):.2f} | {pct(s, .95) / pct(b, .95):.2f} |")


if __name__ == "__main__":
    main()
