"""Out-of-fold figures of the learned fusion against ``default`` (RRF) and ``bm25-400``, same goals.

For each configuration (:data:`focus_learn.CONFIGS`; ``--variant`` names how its model is used,
:data:`VARIANTS`) and each of the 5 folds by page (:func:`focus_learn.folds`), a model is fitted on the goals of the other folds' pages
(``runs/learn/data.npz`` from ``focus_learn.py data``) and written to ``runs/learn/oof/``; the
fold's goals are then focused through ``focus()`` (defense on) with that model, at each budget
(``--budget``, a share of the full tree's tokens; below 25% on every ``--curve-every``-th goal id
only, to save time), and scored with the benchmark's matcher.
``default:rrf`` runs on every goal at the same budgets and ``bm25-400`` once. Every row is
written to ``--json``; the tables print aggregates only (item recall, case recall, mean pruning)
per set, per goal kind and overall.

    .venv/bin/python benchmarks/focus_learn_oof.py --variant gbdt --variant gbdt-all [--fold 0 ...]
        [--budget 0.05 --budget 0.25 ...] [--baselines] [--json runs/learn/oof_a.json]
    .venv/bin/python benchmarks/focus_learn_oof.py --report runs/learn/oof_a.json runs/learn/oof_b.json

The eighteenth pass (h18-refit): ``--with-set`` scores and fits on the goal sets ``focus_learn.py data
--with-set`` added (the same sets); ``--by family`` then has one fold per family of
``focus_learn.ALL_FAMILIES``, the pages outside the corpus included. ``--check SET`` keeps a set out of
every fold's training data and scores its goals as one more fold (number ``len(ALL_FAMILIES)``), by a
model fitted on every other goal: a check run once, apart from the folds a choice is made on.
``--fit-corpus-only`` fits each fold on the goals of ``focus_learn.FILES`` only (a refit of the shipped
data, out of fold); ``--tag`` tells such fold models and their rows apart; ``--shipped MODEL`` also
scores that model file, unchanged, on every goal of the folds run (the model as shipped: on the corpus
folds in sample).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

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
    for r in rows:
        r.setdefault("family", fl.family(r["page"]))
    groups += [(f"family {k}", "family", k) for k in fl.ALL_FAMILIES if any(r["family"] == k for r in rows)]
    for title, key, val in groups:
        for lab in labels:
            rs = [r for r in rows if r["retriever"] == lab and (not key or str(r[key]) == val)]
            if rs:
                n, rec, case, prun = summary(rs)
                out.append(f"| {title} | {lab} | {n} | {rec:.3f} | {case:.3f} | {prun:.1%} |")
    return "\n".join(out)


def compare(rows: list[dict], base: str, other: str) -> str:
    """Items kept by ``other`` minus ``base`` on the goals both scored: overall, per family (the
    spread of the difference), and goals that gained / lost an item."""
    by = {lab: {r["id"]: r for r in rows if r["retriever"] == lab} for lab in (base, other)}
    ids = sorted(by[base].keys() & by[other].keys())
    out = [f"{other} vs {base} on {len(ids)} goals:"]
    if not ids:
        return out[0] + " none in common"
    diff = {i: by[other][i]["kept"] - by[base][i]["kept"] for i in ids}
    fams: dict[str, int] = {}
    for i in ids:
        f = fl.family(by[base][i]["page"])
        fams[f] = fams.get(f, 0) + diff[i]
    items = sum(by[base][i]["items"] for i in ids)
    out.append(f"  items {sum(by[base][i]['kept'] for i in ids)} -> {sum(by[other][i]['kept'] for i in ids)} of {items}"
               f" ({sum(diff.values()):+d}); goals +{sum(d > 0 for d in diff.values())} / -{sum(d < 0 for d in diff.values())};"
               f" pruning {statistics.mean(by[base][i]['pruning'] for i in ids):.1%} -> "
               f"{statistics.mean(by[other][i]['pruning'] for i in ids):.1%}")
    out.append("  per family: " + ", ".join(f"{f} {d:+d}" for f, d in fams.items())
               + f" (families ahead {sum(d > 0 for d in fams.values())}, behind {sum(d < 0 for d in fams.values())})")
    return "\n".join(out)


#: How each evaluated variant uses a fold's model: (configuration, RulesConfig.fusion_all_units).
VARIANTS = {"gbdt": ("gbdt", False), "gbdt-all": ("gbdt", True), "logreg": ("logreg", False),
            **{c: (c, False) for c in ("gbdt-rel", "gbdt-mono", "gbdt-reg", "gbdt-relf", "gbdt-ans", "gbdt-lang",
                                       "gbdt-lang2", "gbdt-mean")}}
FULL_BUDGET = 0.25  # the operating point scored on every goal; smaller budgets on the curve sample only


def curve_sample(goals: list[dict], every: int) -> list[dict]:
    """The goals the budget curve is scored on: every ``every``-th goal id (fixed, by id)."""
    return [g for g in goals if g["id"] % every == 0]


def settings(spec: str) -> tuple[str, dict[str, Any]]:
    """``"cog:goal_cognates=true,value_tokens=24"`` -> ``("+cog", {...})``, values typed as the
    :class:`RulesConfig` field's default."""
    from pagelens.focus.rules import RulesConfig

    label, _, pairs = spec.partition(":")
    base = RulesConfig()
    out: dict[str, Any] = {}
    for pair in filter(None, pairs.split(",")):
        key, _, raw = pair.partition("=")
        kind = type(getattr(base, key))
        out[key] = raw.lower() in ("1", "true", "yes") if kind is bool else kind(raw)
    return "+" + label, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cache", type=Path, default=HERE.parent / "runs" / "realpages")
    ap.add_argument("--out", type=Path, default=HERE.parent / "runs" / "learn")
    ap.add_argument("--variant", action="append", dest="variants", choices=sorted(VARIANTS))
    ap.add_argument("--fold", action="append", dest="folds", type=int, help="only these folds (default: all)")
    ap.add_argument("--by", choices=("page", "family", "group"), default="page",
                    help="folds by page (5), one page family left out at a time (focus_learn.ALL_FAMILIES) or "
                         "one group of families (focus_learn.FAMILY_GROUPS)")
    ap.add_argument("--budget", action="append", dest="budgets", type=float)
    ap.add_argument("--curve-every", type=int, default=4, help="budgets below 25%%: every n-th goal id only")
    ap.add_argument("--baselines", action="store_true", help="also default:rrf at each budget and bm25-400")
    ap.add_argument("--with", action="append", dest="settings", default=[], metavar="LABEL:KEY=VALUE,...",
                    help="also score each variant with these RulesConfig settings (same fold models), labelled "
                         "VARIANT+LABEL; e.g. --with cog:goal_cognates=true")
    ap.add_argument("--every", type=int, default=1,
                    help="score only the goals whose id is a multiple of this (models still fit on every training goal)")
    ap.add_argument("--rest", type=int, default=0,
                    help="with --every N: the goals whose id is this modulo N (another half of the goals: --every 2 --rest 1)")
    ap.add_argument("--reuse", action="store_true", help="load a fold's model saved by an earlier run instead of fitting it")
    ap.add_argument("--with-set", action="append", dest="extra", default=[], choices=list(fl.EXTRA_SETS),
                    help="also these goal sets (as focus_learn.py data --with-set built them)")
    ap.add_argument("--check", action="append", default=[], metavar="SET",
                    help="never train on SET's goals; score them as one more fold, fitted on every other goal")
    ap.add_argument("--fit-corpus-only", action="store_true", help="fit each fold on focus_learn.FILES' goals only")
    ap.add_argument("--tag", default="", help="suffix of this run's fold models and variant labels")
    ap.add_argument("--seed", type=int, default=0,
                    help="seed of the negatives each fold's fit samples (focus_learn.sample; 0 as shipped): "
                         "another draw of the same recipe, to see how far the figures move by chance")
    ap.add_argument("--shipped", type=Path, help="also score this model file as it is (label shipped@BUDGET)")
    ap.add_argument("--pages", type=Path, default=fl.CORPUS, help="the corpus pages (observed when not cached)")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--report", type=Path, nargs="*", help="print the tables of these row files and stop")
    ap.add_argument("--compare", nargs=2, action="append", default=[], metavar=("BASE", "OTHER"),
                    help="with --report: also items kept by OTHER minus BASE (labels), per family and per goal")
    args = ap.parse_args()
    if args.report:
        rows = [r for f in args.report for r in json.loads(f.read_text())]
        print(tables(rows))
        for base, other in args.compare:
            print(compare(rows, base, other))
        return
    from pagelens.focus.rules import RulesConfig, RulesRetriever

    fl.check_sets(args.out, args.extra)
    goals = fl.load_goals(args.extra)
    n_corpus = len(fl.load_goals())  # focus_learn.FILES' goals come first (ids 0 .. n_corpus - 1)
    fold = fl.folds([g["page"] for g in goals], by=args.by)
    unknown = set(args.check) - {g["set"] for g in goals}
    if unknown:
        raise SystemExit(f"--check {sorted(unknown)}: no such set among the goals")
    checked = {g["page"] for g in goals if g["set"] in args.check}
    if checked & {g["page"] for g in goals if g["set"] not in args.check}:
        raise SystemExit("--check: the set shares pages with the training sets")
    fold.update({p: len(fl.ALL_FAMILIES) for p in checked})
    folds = args.folds if args.folds is not None else sorted(set(fold.values()))
    rend = fl.renderings(args.cache, {g["page"] for g in goals}, args.pages)
    goals.sort(key=lambda g: (g["page"], g["id"]))
    budgets = args.budgets or [FULL_BUDGET]

    def on(gs: list[dict], b: float) -> list[dict]:
        return gs if b >= FULL_BUDGET else curve_sample(gs, args.curve_every)

    rows: list[dict] = []
    mine = [g for g in goals if fold[g["page"]] in folds and g["id"] % args.every == args.rest]
    if args.baselines:
        for b in budgets:
            rrf = RulesRetriever(replace(RulesConfig(), fusion="rrf"))  # not the shipped model: it saw every page
            rows += evaluate(on(mine, b), {}, [(f"rrf@{b:g}", rrf)], budget=b, parsed=rend)
        rows += evaluate(mine, {}, ["bm25-400"], parsed=rend)
        print("baselines done", file=sys.stderr)
    if args.shipped:
        cfg = replace(RulesConfig(), fusion="learned", fusion_model=str(args.shipped))
        for b in budgets:
            rows += [{**r, "fold": fold[r["page"]], "by": args.by}
                     for r in evaluate(on(mine, b), {}, [(f"shipped@{b:g}", RulesRetriever(cfg))], budget=b, parsed=rend)]
        print("shipped model done", file=sys.stderr)
    configs = sorted({VARIANTS[v][0] for v in args.variants or []})
    for f in folds:
        train = {g["id"] for g in goals if fold[g["page"]] != f and g["set"] not in args.check
                 and (not args.fit_corpus_only or g["id"] < n_corpus)}
        test = [g for g in goals if fold[g["page"]] == f and g["id"] % args.every == args.rest]
        assert not {g["page"] for g in test} & {g["page"] for g in goals if g["id"] in train}
        for config in configs:
            path = args.out / "oof" / f"{config}_{args.by}{f}{args.tag}.json"
            path.parent.mkdir(parents=True, exist_ok=True)
            if not (args.reuse and path.exists()):
                path.write_text(json.dumps(fl.fit_on(config, args.out, train, args.seed)))
            for v in args.variants or []:
                if VARIANTS[v][0] != config:
                    continue
                cfg = replace(RulesConfig(), fusion="learned", fusion_model=str(path), fusion_all_units=VARIANTS[v][1])
                for label, extra in [("", {}), *map(settings, args.settings)]:
                    for b in budgets:
                        got = evaluate(on(test, b), {}, [(f"{v}{args.tag}{label}@{b:g}", RulesRetriever(replace(cfg, **extra)))],
                                       budget=b, parsed=rend)
                        rows += [{**r, "fold": f, "by": args.by} for r in got]
            print(f"{config} fold {f} done", file=sys.stderr)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(rows))
    print(tables(rows))


if __name__ == "__main__":
    main()
