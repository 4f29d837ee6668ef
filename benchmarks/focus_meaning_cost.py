"""What the meaning columns cost per page (the thirtieth pass): every unit's vector and its cosine to the goal
(:func:`pagelens.focus.lookup.similarities`) after the analysis caches are emptied, against ``default``'s cold
``select`` on the same page, over the observations cached by ``realpage_goals.py``.

    PYTHONPATH=src .venv/bin/python benchmarks/focus_meaning_cost.py --cache runs/rp22
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from focus_latency import cached_renderings, pct  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cache", type=Path, default=HERE.parent / "runs" / "realpages")
    ap.add_argument("--goal", default="What does this cost?")
    args = ap.parse_args()
    from pagelens.focus.analysis import analysis_of, clear_caches
    from pagelens.focus.base import FocusQuery
    from pagelens.focus.lookup import shared_lookup, similarities
    from pagelens.focus.rules import RulesConfig, RulesRetriever

    emb, why = shared_lookup()
    if emb is None:
        raise SystemExit(why)
    cfg = RulesConfig()
    ret = RulesRetriever(cfg)
    q = FocusQuery(args.goal)
    share, vec_ms, sel_ms = [], [], []
    for _name, r in cached_renderings(args.cache):
        clear_caches()
        t = time.perf_counter()
        ret.select(q, r)
        s = (time.perf_counter() - t) * 1000
        clear_caches()
        pa = analysis_of(r, cfg.limits, cfg.unit_text_chars)
        t = time.perf_counter()
        similarities(pa, emb, q.goal, cfg.meaning_chars)
        e = (time.perf_counter() - t) * 1000
        share.append(e / s)
        vec_ms.append(e)
        sel_ms.append(s)
    print(f"{len(share)} pages; vectors + cosine: p50 {statistics.median(vec_ms):.1f} ms, p95 {pct(vec_ms, .95):.1f} ms; "
          f"share of the cold select: p50 {statistics.median(share):.1%}, p95 {pct(share, .95):.1%}")


if __name__ == "__main__":
    main()
