"""Where a small page's items sit in ``default``'s order (issue 9, thirty-second focus pass, h33-small).

For every goal of a group (default ``dev31``), the fused order of ``default``'s ranker (all units, nothing kept whole)
and, per must-keep item, the rank of the first unit whose span holds one of the item's lines and the tokens of the
union of the order's unit spans through that rank: what a fill that spent nothing else (no skeleton, no partners, no
allowances) would need to show the item. Prints per page-size band the ranks and needs, and the share of items such an
ideal fill keeps at fixed budgets.

    PYTHONPATH=src .venv/bin/python benchmarks/focus_small_ranks.py --cache runs/rp31 \
        --pages /work/shared/corpus/realpages --json runs/out/d31-ranks.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from focus_tail import load  # noqa: E402
from realpage_goals import item_lines, renderings  # noqa: E402

BANDS = ((0, 800), (800, 1500), (1500, None))
BUDGETS = (100, 200, 300, 400, 500, 600, 700, 800, 1000)


def item_rows(group: str, cache: Path, pages: Path) -> list[dict]:
    from pagelens.focus.analysis import analysis_of
    from pagelens.focus.base import FocusQuery
    from pagelens.focus.rules import RulesConfig, RulesRetriever

    goals = load(group)
    parsed = renderings(goals, cache, pages)
    cfg = RulesConfig(debug_units=10**6, small_page_tokens=0)
    ret = RulesRetriever(cfg)
    rows = []
    for g in goals:
        r = parsed[g["page"]]
        page = analysis_of(r, cfg.limits, cfg.unit_text_chars).page
        sel = ret.select(FocusQuery(g["goal"]), r)
        index = {ln.no: i for i, ln in enumerate(r.lines)}
        heads = [index[t[0]] for t in sel.info["top_units"]]
        for m in g["must_keep"]:
            pos = set(item_lines(r.lines, m))
            union: set[int] = set()
            rank = need = None
            for rk, h in enumerate(heads):
                span = range(h, page.ends[h])
                union.update(span)
                if pos.intersection(span):
                    rank, need = rk, sum(page.cost[j] + 1 for j in union)
                    break
            rows.append({"page": g["page"], "total": page.total, "role": m["role"], "kind": g.get("kind"),
                         "rank": rank, "need": need})
    return rows


def _q(xs: list[int], p: float) -> int:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))]


def report(rows: list[dict]) -> str:
    out = [("| band (tokens) | items | in a ranked unit | rank median / p90 | tokens through the item's unit: median / p75 / p90 "
            "| as share of the page: median / p90 |"), "|---|---|---|---|---|---|"]
    for lo, hi in BANDS:
        xs = [x for x in rows if x["total"] >= lo and (hi is None or x["total"] < hi)]
        found = [x for x in xs if x["rank"] is not None]
        if not found:
            continue
        ranks, needs = [x["rank"] for x in found], [x["need"] for x in found]
        shares = [x["need"] / x["total"] for x in found]
        out.append(f"| {lo}-{hi or ''} | {len(xs)} | {len(found)} | {statistics.median(ranks):g} / {_q(ranks, .9)} | "
                   f"{statistics.median(needs):g} / {_q(needs, .75)} / {_q(needs, .9)} | "
                   f"{statistics.median(shares):.2f} / {_q(shares, .9):.2f} |")
    n = len(rows)
    out += ["", "| budget (tokens) | items an ideal fill of the order keeps | share |", "|---|---|---|"]
    for b in BUDGETS:
        c = sum(1 for x in rows if x["need"] is not None and x["need"] <= b)
        out.append(f"| {b} | {c} / {n} | {c / n:.3f} |")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--group", default="dev31")
    ap.add_argument("--cache", type=Path, required=True)
    ap.add_argument("--pages", type=Path, required=True)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    rows = item_rows(args.group, args.cache, args.pages)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(rows))
    print(report(rows))


if __name__ == "__main__":
    main()
