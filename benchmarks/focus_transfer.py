"""How the learned fusion transfers to pages it never saw: a fast unit-level screen, by page and by family.

For each configuration (:data:`focus_learn.CONFIGS`) and each fold scheme — 5 folds by page
(:func:`focus_learn.folds`) and **leave one page family out** (:data:`focus_learn.FAMILIES`: shop,
search/listing, forum, news/blog, docs/wiki, portal, tables/status, forms) — a model is fitted on
the other folds' goals (``data.npz`` of ``focus_learn.py data``; or the fold's model that
``focus_learn_oof.py`` saved in ``DATA/oof/``, fitted the same way) and orders the held-out goals' units
that some signal ranks. The order is then spent, unit by unit, against the goal's budget (25% of the
page's tokens, 800 to 6,000) with each unit's own subtree tokens; the figure is the share of
positive units (units holding a must-keep item) inside the budget, per goal, pooled. It is a screen,
not the benchmark: no skeleton, no partners, no ancestors' cost. The ``rrf`` row orders by the
reciprocal-rank fusion (no model). Whole ``focus()`` figures come from ``focus_learn_oof.py``.

    .venv/bin/python benchmarks/focus_transfer.py --data runs/learn12 --config gbdt --config gbdt-rel \
        [--scheme page --scheme family] [--blend 0.5]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import focus_learn as fl  # noqa: E402


def spent_recall(score: np.ndarray, y: np.ndarray, ranked: np.ndarray, tokens: np.ndarray,
                 budget: float) -> tuple[float, float]:
    """(positive units inside the budget, positive units) when the ranked units are spent best first."""
    idx = np.flatnonzero(ranked)
    order = idx[np.lexsort((idx, -score[idx]))]
    inside = np.cumsum(tokens[order]) <= budget
    return float(y[order[inside]].sum()), float(y.sum())


def blended(model_score: np.ndarray, rrf: np.ndarray, ranked: np.ndarray, weight: float, k: float = 10.0) -> np.ndarray:
    """Rank fusion of the model's order and RRF's (``weight`` on RRF's ranks): a safety net."""
    out = np.zeros(len(model_score))
    idx = np.flatnonzero(ranked)
    for s, w in ((model_score, 1.0), (rrf, weight)):
        order = idx[np.lexsort((idx, -s[idx]))]
        out[order] += w / (k + 1 + np.arange(len(order)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=HERE.parent / "runs" / "learn")
    ap.add_argument("--config", action="append", dest="configs", default=[])
    ap.add_argument("--scheme", action="append", dest="schemes", choices=("page", "family"))
    ap.add_argument("--blend", action="append", type=float, default=[], help="also: model + this weight on RRF's ranks")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    from pagelens.focus.learned import FEATURES

    d = fl.loaded(args.data)
    x, y, ranked, goal = d["x"], d["y"], d["ranked"], d["goal"]
    goals = {g["id"]: g for g in json.loads((args.data / "goals.json").read_text())}
    tokens = np.expm1(x[:, FEATURES.index("log_tokens")])
    page_tokens = np.expm1(x[:, FEATURES.index("page_log_tokens")])
    rrf = x[:, FEATURES.index("rrf_norm")]
    starts = np.flatnonzero(np.r_[True, goal[1:] != goal[:-1]])
    spans = list(zip(starts, np.r_[starts[1:], len(goal)], strict=True))
    results: list[dict] = []
    for scheme in args.schemes or ["page", "family"]:
        fold = fl.folds([g["page"] for g in goals.values()], by=scheme)
        n_folds = len(set(fold.values()))
        scores: dict[str, np.ndarray] = {"rrf": rrf}
        for config in args.configs:
            sc = np.zeros(len(y))
            for f in range(n_folds):
                train = {i for i, g in goals.items() if fold[g["page"]] != f}
                from pagelens.focus.learned import Model

                saved = args.data / "oof" / f"{config}_{scheme}{f}.json"  # focus_learn_oof.py's fold model
                model = Model(json.loads(saved.read_text()) if saved.exists() else fl.fit_on(config, args.data, train))
                rows = np.flatnonzero(np.fromiter((fold[goals[int(i)]["page"]] == f for i in goal), bool, len(goal)))
                sc[rows] = model.score(x[rows])
                print(f"{scheme} {config} fold {f} fitted", file=sys.stderr)
            scores[config] = sc
            for w in args.blend:
                b = np.zeros(len(y))
                for s, e in spans:
                    b[s:e] = blended(sc[s:e], rrf[s:e], ranked[s:e], w)
                scores[f"{config}+rrf{w:g}"] = b
        for label, sc in scores.items():
            for s, e in spans:
                g = goals[int(goal[s])]
                budget = min(max(0.25 * page_tokens[s], 800), 6000)
                kept, pos = spent_recall(sc[s:e], y[s:e], ranked[s:e], tokens[s:e], budget)
                results.append({"scheme": scheme, "config": label, "goal": g["id"], "page": g["page"],
                                "family": fl.family(g["page"]), "kind": g["kind"], "kept": kept, "pos": pos,
                                "fold": fold[g["page"]]})
    if args.json:
        args.json.write_text(json.dumps(results))
    print(report(results))


def report(rows: list[dict]) -> str:
    labels = list(dict.fromkeys(r["config"] for r in rows))
    out = []
    for scheme in dict.fromkeys(r["scheme"] for r in rows):
        rs = [r for r in rows if r["scheme"] == scheme]
        groups = ["all", *sorted({r["family"] for r in rs}), *sorted({f"kind {r['kind']}" for r in rs})]
        out += [f"\nscheme: {scheme} (positive units inside the budget, pooled)", "| group | " + " | ".join(labels) + " |",
                "|---|" + "---|" * len(labels)]
        for grp in groups:
            cells = []
            for lab in labels:
                sel = [r for r in rs if r["config"] == lab and (grp == "all" or r["family"] == grp
                                                                 or f"kind {r['kind']}" == grp)]
                cells.append(f"{sum(r['kept'] for r in sel) / max(1, sum(r['pos'] for r in sel)):.3f}")
            n = len({r["goal"] for r in rs if grp == "all" or r["family"] == grp or f"kind {r['kind']}" == grp})
            out.append(f"| {grp} ({n}) | " + " | ".join(cells) + " |")
    return "\n".join(out)


if __name__ == "__main__":
    main()
