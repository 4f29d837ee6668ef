"""Out-of-fold figures of the learned fusion against ``default`` (RRF) and ``bm25-400``, same goals.

For each configuration (``--config``, :data:`focus_learn.CONFIGS`) and each of the 5 folds by
page (:func:`focus_learn.folds`), a model is fitted on the goals of the other folds' pages
(``runs/learn/data.npz`` from ``focus_learn.py data``) and written to ``runs/learn/oof/``; the
fold's goals are then focused through ``focus()`` (defense on) with that model, at each budget
(``--budget``, a share of the full tree's tokens), and scored with the benchmark's matcher.
``default`` (RRF) runs on every goal at the same budgets and ``bm25-400`` once. Every row is
written to ``--json``; the tables print aggregates only (item recall, case recall, mean pruning)
per set, per goal kind and overall.

    .venv/bin/python benchmarks/focus_learn_oof.py --config gbdt --config logreg [--all-units]
        [--budget 0.05 --budget 0.10 ...] [--json runs/learn/oof.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from dataclasses import replace
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import focus_learn as fl  # noqa: E402
from realpage_goals import evaluate  # noqa: E402


def summary(rows: list[dict]) -> tuple[int, float, float, float]:
    items = sum(r["items"] for r in rows)
    return (len(rows), sum(r["kept"] for r in rows) / max(1, items),
            sum(r["kept"] == r["items"] for r in rows) / max(1, len(rows)),
            statistics.mean(r["pruning"] for r in rows) if rows else 0.0)


def tables(rows: list[dict]) -> str:
    labels = list(dict.fromkeys(r["retriever"] for r in rows))
    out = ["| group | retriever | goals | item recall | case recall | pruning |", "|---|---|---|---|---|---|"]
    groups: list[tuple[str, str, str]] = [("all", "", "")]
    groups += [(f"set {s}", "set", s) for s in dict.fromkeys(r["set"] for r in rows)]
    groups += [(f"kind {k}", "kind", k) for k in sorted({str(r["kind"]) for r in rows})]
    for title, key, val in groups:
        for lab in labels:
            rs = [r for r in rows if r["retriever"] == lab and (not key or str(r[key]) == val)]
            if rs:
                n, rec, case, prun = summary(rs)
                out.append(f"| {title} | {lab} | {n} | {rec:.3f} | {case:.3f} | {prun:.1%} |")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cache", type=Path, default=HERE.parent / "runs" / "realpages")
    ap.add_argument("--out", type=Path, default=HERE.parent / "runs" / "learn")
    ap.add_argument("--config", action="append", dest="configs", choices=sorted(fl.CONFIGS))
    ap.add_argument("--all-units", action="store_true", help="the model orders every unit (RulesConfig.fusion_all_units)")
    ap.add_argument("--budget", action="append", dest="budgets", type=float)
    ap.add_argument("--no-baselines", action="store_true")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    from pagelens.focus.rules import RulesConfig, RulesRetriever

    goals = fl.load_goals()
    fold = fl.folds([g["page"] for g in goals])
    rend = fl.renderings(args.cache, {g["page"] for g in goals})
    goals.sort(key=lambda g: (g["page"], g["id"]))
    budgets = args.budgets or [0.25]
    rows: list[dict] = []
    if not args.no_baselines:
        for b in budgets:
            rows += evaluate(goals, {}, [(f"default@{b:g}", RulesRetriever())], budget=b, parsed=rend)
        rows += evaluate(goals, {}, ["bm25-400"], parsed=rend)
    suffix = "-all" if args.all_units else ""
    for config in args.configs or []:
        for f in range(fl.N_FOLDS):
            train = {g["id"] for g in goals if fold[g["page"]] != f}
            test = [g for g in goals if fold[g["page"]] == f]
            assert not {g["page"] for g in test} & {g["page"] for g in goals if g["id"] in train}
            path = args.out / "oof" / f"{config}_fold{f}.json"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(fl.fit_on(config, args.out, train)))
            cfg = replace(RulesConfig(), fusion="learned", fusion_model=str(path), fusion_all_units=args.all_units)
            for b in budgets:
                got = evaluate(test, {}, [(f"{config}{suffix}@{b:g}", RulesRetriever(cfg))], budget=b, parsed=rend)
                rows += [{**r, "fold": f} for r in got]
            print(f"{config} fold {f} done", file=sys.stderr)
    print(tables(rows))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(rows))


if __name__ == "__main__":
    main()
