"""Why ``default`` misses the items it misses, by page size (the twenty-first focus pass, BENCHMARKS.md).

For every goal of the named development sets, ``default`` focuses the page as in ``realpage_goals.py``
(``focus()`` with the defense, the same item matcher); for every missed item it finds the item's line in the
rendering the ranker was given, its unit, the unit's rank in the fused order and the fill line (the lowest rank
kept), and reruns the goal with the budget (share, floor and ceiling) scaled by 1.5 and by 2. Each missed item
gets one cause:

* ``budget, above the line`` — its unit is ranked above the fill line but was skipped (its span no longer fit);
  kept with a bigger budget;
* ``budget, below the line`` — ranked below the fill line, kept with a bigger budget;
* ``budget, unranked`` — no signal ranks its unit, yet a bigger fill keeps it (through gaps, leads, the skeleton);
* ``ranking, unranked`` / ``ranking, ranked`` — not kept even at twice the budget;
* ``units: unit kept, line not`` — its unit is kept but its line is not (a drop-down's spare options, a partner);
* ``units: no unit`` — its line is in no unit;
* ``folded before ranking`` — its line is not in what the ranker was given (``focus.apply`` folded or hid it).

Cached observations only (``realpage_goals.py`` writes them). Development data only: it reads rows and misses.

    .venv/bin/python benchmarks/focus_miss_causes.py --cache runs/c --set dev-18 --set blind-6 \\
        [--goals benchmarks/data/realpage_goals_dev6.jsonl ...] [--bands 600,3000,6000] [--json out.json]
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import itertools
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from realpage_goals import item_lines, items_ok, load_goals, renderings  # noqa: E402

CAUSES = ("budget, above the line", "budget, below the line", "budget, unranked", "ranking, unranked",
          "ranking, ranked", "units: unit kept, line not", "units: no unit", "folded before ranking")


def spy_class() -> type:
    from pagelens.focus.rules import RulesRetriever

    class Spy(RulesRetriever):
        """``default``, remembering the last fill: its order, kept lines, budget, spend, the goal's line terms and the
        analysis it ranked."""

        last: dict[str, Any] | None = None

        def _fill(self, query, pa, order, budget, extra, line_terms=None):  # type: ignore[no-untyped-def]
            keep, spent, chosen = super()._fill(query, pa, order, budget, extra, line_terms)
            # ``keep`` itself, not a copy: the passes after the fill (nearby, unfit, gaps) add to it, and a line they
            # show counts as kept
            self.last = {"order": list(order), "keep": keep, "pa": pa, "budget": budget, "spent": spent,
                         "line_terms": dict(line_terms or {})}
            return keep, spent, chosen

    return Spy


def best_line(lines: list[int], units: Any, pos: dict[int, int]) -> int:
    """Of ``lines``, the one whose unit ranks best in the fused order (``pos``: unit -> rank)."""
    return min(lines, key=lambda j: pos.get(units.of_line[j], 10**9) if units.of_line[j] >= 0 else 10**9)


def _place(item: dict[str, str], last: dict[str, Any]) -> dict[str, Any]:
    """Where ``item`` sits in the last fill: its line, unit, rank and the fill line; ``cause`` when structural."""
    pa = last["pa"]
    page, units, keep = pa.page, pa.units, last["keep"]
    lines = item_lines(page.lines, item)
    if not lines:
        return {"cause": "folded before ranking"}
    pos = {k: n for n, k in enumerate(last["order"])}
    i = best_line(lines, units, pos)
    k = units.of_line[i]
    kept_ranks = [n for n, u in enumerate(last["order"]) if units.heads[u] in keep]
    out: dict[str, Any] = {"rank": pos.get(k) if k >= 0 else None, "fill_line": max(kept_ranks, default=-1)}
    if k < 0:
        out["cause"] = "units: no unit"
    elif i in keep or units.heads[k] in keep:
        out["cause"] = "units: unit kept, line not"
    return out


def causes(goals: list[dict], rendered: dict[str, Any], scales: tuple[float, ...] = (1.5, 2.0)) -> list[dict]:
    """One row per missed item of ``default``: set, page, goal, the page's token count and the cause."""
    from pagelens.focus.analysis import analysis_of
    from pagelens.focus.apply import focus
    from pagelens.focus.base import FocusQuery
    from pagelens.focus.rules import RulesConfig

    cfg = RulesConfig()
    spy = spy_class()(cfg)
    bigger = [spy_class()(dataclasses.replace(cfg, budget=cfg.budget * s, floor_tokens=int(cfg.floor_tokens * s),
                                               ceiling_tokens=int(cfg.ceiling_tokens * s))) for s in scales]

    def kept(r: Any, g: dict, ret: Any) -> list[bool]:
        return items_ok(r, focus(r, FocusQuery(g["goal"]), ret), g["must_keep"])

    out: list[dict] = []
    for g in goals:
        r = rendered[g["page"]]
        total = analysis_of(r, cfg.limits, cfg.unit_text_chars).page.total
        spy.last = None
        ok = kept(r, g, spy)
        if all(ok):
            out.append({"set": g["set"], "page": g["page"], "goal": g["goal"], "tokens": total, "items": len(ok), "missed": []})
            continue
        last = spy.last
        more = [kept(r, g, b) for b in bigger]
        missed = []
        for n, (m, o) in enumerate(zip(g["must_keep"], ok, strict=True)):
            if o:
                continue
            if last is None:  # the page was kept whole or the retriever failed: nothing to place
                missed.append({"item": m, "cause": "folded before ranking"})
                continue
            d = _place(m, last)
            if "cause" not in d:
                rescued = any(x[n] for x in more)
                if d["rank"] is None:
                    d["cause"] = "budget, unranked" if rescued else "ranking, unranked"
                elif not rescued:
                    d["cause"] = "ranking, ranked"
                else:
                    d["cause"] = "budget, above the line" if d["rank"] < d["fill_line"] else "budget, below the line"
            missed.append({"item": m, **d})
        out.append({"set": g["set"], "page": g["page"], "goal": g["goal"], "tokens": total, "items": len(ok),
                    "missed": missed})
    return out


def table(rows: list[dict], bands: list[int]) -> str:
    edges = [0, *bands, 10**12]
    names = [f"{lo:,}–{hi:,} tok" if hi < 10**12 else f"> {lo:,} tok" for lo, hi in itertools.pairwise(edges)]
    count: dict[str, collections.Counter] = {n: collections.Counter() for n in names}
    items: collections.Counter = collections.Counter()
    for r in rows:
        band = next(n for n, (lo, hi) in zip(names, itertools.pairwise(edges), strict=True) if lo < r["tokens"] <= hi)
        items[band] += r["items"]
        for m in r["missed"]:
            count[band][m["cause"]] += 1
    out = ["| cause | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    out += [f"| {c} | " + " | ".join(str(count[n][c]) for n in names) + " |" for c in CAUSES]
    out.append("| missed / items | " + " | ".join(f"{sum(count[n].values())} / {items[n]}" for n in names) + " |")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", type=Path, default=HERE.parent.parent / "shared" / "corpus" / "realpages")
    ap.add_argument("--cache", type=Path, default=HERE.parent / "runs" / "realpages")
    ap.add_argument("--set", action="append", dest="sets", default=[], help="a set of realpage_goals.py (repeatable)")
    ap.add_argument("--goals", type=Path, action="append", dest="goal_files", default=[],
                    help="a further development goal file, every row (e.g. benchmarks/data/realpage_goals_dev6.jsonl)")
    ap.add_argument("--bands", default="600,3000,6000", help="page-size band edges in the ranker's tokens")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    goals = [g for g in load_goals(args.sets) if g["set"] in args.sets] if args.sets else []
    for f in args.goal_files:
        goals += [json.loads(line) for line in f.read_text(encoding="utf-8").splitlines() if line.strip()]
    if not goals:
        ap.error("no goals: name a --set or a --goals file")
    rows = causes(goals, renderings(goals, args.cache, args.pages))
    print(table(rows, [int(b) for b in args.bands.split(",") if b]))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1, default=str))


if __name__ == "__main__":
    main()
