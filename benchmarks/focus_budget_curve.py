"""Recall vs token budget of ``default`` (and the BM25 baselines at their fixed operating points).

Runs on cached observations only (no browser): the real-page goal sets' cache written by
``benchmarks/realpage_goals.py`` and, when given, the bundled cases' cache written by
``pagelens eval-cases --cache DIR``. All figures are development figures: these goals were
read while the ranker was built.

    .venv/bin/python benchmarks/focus_budget_curve.py [--budget 0.05 --budget 0.10 ...]
        [--cases-cache runs/casecache] [--json out.json]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import pickle
import statistics
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from realpage_goals import GOALS, HELD_OUT, SET_LABELS, evaluate, observations  # noqa: E402


def case_rows(cache: Path, budgets: list[float], baselines: list[str]) -> list[dict[str, Any]]:
    from pagelens.api import render_observation
    from pagelens.bench.cases import bundled_paths, item_kept, load_cases
    from pagelens.focus.apply import focus
    from pagelens.focus.base import FocusQuery
    from pagelens.focus.registry import make_retriever

    path, _ = bundled_paths()
    cases = load_cases(path)
    rows: list[dict[str, Any]] = []
    runs = [("default", b) for b in budgets] + [(name, None) for name in baselines]
    rendered: dict[str, Any] = {}
    for name, budget in runs:
        ret = make_retriever(name)
        for case in cases:
            key = hashlib.sha1(json.dumps([case.page, case.injection.html if case.injection else None]).encode())
            f = cache / f"{key.hexdigest()[:20]}.obs.pickle"
            if not f.is_file():
                continue
            if f.name not in rendered:
                rendered[f.name] = render_observation(pickle.loads(f.read_bytes()))
            r = rendered[f.name]
            res = focus(r, FocusQuery(case.goal, budget=budget), ret)
            kept = [ln for ln in r.lines if ln.no in res.kept]
            shown = [ln.text for ln in res.lines if ln.no is not None]
            ok = [item_kept(m, kept, shown) for m in case.must_keep]
            rows.append({"retriever": name if budget is None else f"default@{budget:.2f}", "set": "bundled cases",
                         "kept": sum(ok), "items": len(ok), "pruning": res.pruning})
    return rows


def summary(rows: list[dict[str, Any]]) -> str:
    out = ["| set | retriever | goals | recall (items) | case recall | pruning |", "|---|---|---|---|---|---|"]
    keys = list(dict.fromkeys((r["set"], r["retriever"]) for r in rows))
    for s, name in keys:
        rs = [r for r in rows if r["set"] == s and r["retriever"] == name]
        items = sum(r["items"] for r in rs) or 1
        out.append(f"| {s} | {name} | {len(rs)} | {sum(r['kept'] for r in rs) / items:.3f} | "
                   f"{sum(r['kept'] == r['items'] for r in rs) / len(rs):.3f} | "
                   f"{statistics.mean(r['pruning'] for r in rs):.1%} |")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", type=Path, default=HERE.parent.parent / "shared" / "corpus" / "realpages")
    ap.add_argument("--cache", type=Path, default=HERE.parent / "runs" / "realpages")
    ap.add_argument("--cases-cache", type=Path)
    ap.add_argument("--budget", type=float, action="append", dest="budgets")
    ap.add_argument("--baseline", action="append", dest="baselines")
    ap.add_argument("--goals", type=Path, action="append", dest="goal_files",
                    help="a further development goal file (e.g. benchmarks/data/realpage_goals_dev6.jsonl)")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    budgets = args.budgets or [0.05, 0.10, 0.15, 0.20, 0.25]
    baselines = args.baselines if args.baselines is not None else ["bm25-200", "bm25-400"]
    # the development goal file only: the held-out set's file is never opened here
    goals = [json.loads(line) for line in GOALS[0].read_text().splitlines() if line.strip()]
    goals = [g for g in goals if g["set"] in SET_LABELS and g["set"] not in HELD_OUT]
    for path in args.goal_files or ():
        if "blind" in path.name:
            ap.error(f"{path}: held-out goal files are never read here")
        goals += [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    observed = observations(args.pages, args.cache, {g["page"] for g in goals})
    rows: list[dict[str, Any]] = []
    for b in budgets:
        for r in evaluate(goals, observed, ["default"], budget=b):
            rows.append({**r, "retriever": f"default@{b:.2f}", "set": SET_LABELS.get(r["set"], r["set"])})
    for r in evaluate(goals, observed, baselines):
        rows.append({**r, "set": SET_LABELS.get(r["set"], r["set"])})
    if args.cases_cache is not None:
        rows += case_rows(args.cases_cache, budgets, baselines)
    rows.sort(key=lambda r: r["set"])
    print(summary(rows))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
