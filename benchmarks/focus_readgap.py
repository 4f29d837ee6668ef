"""The read items ``default`` still drops (issue 9, forty-second focus pass, h41-readgap): where they rank, a class.

Reads ``focus_tail.py run`` files holding the arms ``default`` and ``bm25-400`` and, for every must-keep item of a
*read* goal (``kind == "read"``, or a goal without a kind that is a question) that ``default`` drops, records:

* the item's unit and its rank under each signal (``bm25``, ``terms``, ``kind`` (answer kind), ``facts``, ``controls``,
  ``prior``...), in the fused order, the rank of its best 400-token BM25 window (:mod:`pagelens.focus.passages`), its
  rank by WordLlama cosine with the goal among all units (:mod:`pagelens.focus.lookup`; ``None`` without the package);
* whether a partner of it is kept, the distance in units / tokens to the nearest kept unit, whether its row, list or
  section holds a kept unit;
* ``default``'s budget and what it spent (budget left when the fill stopped), and whether bm25-400 keeps it;
* a class, first match wins (positions and roles only, no word of a page or goal):

  - ``not found``           the item matches no line of the page;
  - ``selected, removed after (defense)`` the retriever's selection holds the item's line, the view does not;
  - ``ranked, skipped``     its unit is in the fused order and a unit ranked below it was kept (it did not fit);
  - ``ranked, budget spent`` its unit is in the fused order below every kept ranked unit;
  - ``cell, row kept``      a table cell whose row holds another kept line;
  - ``cell, row dropped``   a table cell whose row holds no kept line;
  - ``sibling of kept``     a member of a run of siblings (same parent, same role) of which another is kept;
  - ``beside kept (≤2)``    within two units of a kept unit, in the same parent's subtree;
  - ``section kept``        a kept unit lies under the same nearest heading;
  - ``far``                 none of these.

    PYTHONPATH=src .venv/bin/python benchmarks/focus_readgap.py runs/tail/base_choose.json --cache runs/rp \
        --pages /work/shared/corpus/realpages --out runs/gap/choose.json
    .venv/bin/python benchmarks/focus_readgap.py --report runs/gap/*.json
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from focus_gap import band  # noqa: E402
from focus_tail import item_kind  # noqa: E402
from realpage_goals import item_lines, renderings  # noqa: E402


def is_read(row: dict) -> bool:
    from pagelens.focus.terms import is_question

    return row.get("kind") == "read" or (row.get("kind") is None and is_question(row["goal"]))


def misses(rows: list[dict], arm: str = "default") -> list[tuple[dict, int]]:
    return [(r, j) for r in rows if is_read(r) for j, ok in enumerate(r["arms"][arm]["ok"]) if not ok]


def _runs(page: Any, i: int) -> list[int]:
    """The siblings of line ``i``'s nearest ancestor-or-self that has ≥ 3 same-role siblings (a list, rows)."""
    for a in (i, *page.ancestors(i)):
        p = page.parents[a]
        if p < 0:
            return []
        sib = [j for j in range(p + 1, page.ends[p]) if page.parents[j] == p and page.lines[j].role == page.lines[a].role]
        if len(sib) >= 3:
            return sib
    return []


def diagnose(rows: list[dict], cache: Path, pages: Path, group: str) -> list[dict]:
    from pagelens.focus.analysis import analysis_of
    from pagelens.focus.apply import focus
    from pagelens.focus.base import FocusQuery
    from pagelens.focus.lookup import shared_lookup, similarities
    from pagelens.focus.passages import ranked_windows
    from pagelens.focus.rules import RulesConfig, RulesRetriever, _ranked
    from pagelens.focus.units import HEADING_ROLES, partners, row_of

    todo = misses(rows)
    parsed = renderings([r for r, _ in todo], cache, pages)
    cfg = RulesConfig()
    ret = RulesRetriever(cfg)
    emb, _ = shared_lookup()
    out: list[dict] = []
    memo: dict[tuple[str, str], Any] = {}
    for r, j in todo:
        m = r["must_keep"][j]
        rend = parsed[r["page"]]
        pa = analysis_of(rend, cfg.limits, cfg.unit_text_chars)
        page, units = pa.page, pa.units
        heads = units.heads
        key = (r["page"], r["goal"])
        if key not in memo:
            q = FocusQuery(r["goal"])
            signals, _lt, unseen, fused = ret.fused(q, pa)
            order, _ = ret._learned(q, pa, signals, fused, unseen, _ranked(fused))
            res = focus(rend, q, ret)
            chosen = ret.select(q, rend).keep  # the retriever's selection, before the defense
            kept = {p for p, ln in enumerate(rend.lines) if ln.no in res.kept}
            wins = ranked_windows(pa, r["goal"], 400)
            sims = similarities(pa, emb, r["goal"], cfg.meaning_chars) if emb is not None and len(heads) else None
            memo[key] = (signals, order, res, kept, wins, sims, chosen)
        signals, order, res, kept, wins, sims, chosen = memo[key]
        hits = item_lines(rend.lines, m)
        rec: dict[str, Any] = {"group": group, "set": r["set"], "page": r["page"], "goal": r["goal"], "item": m,
                               "found": bool(hits), "bm25_400": r["arms"].get("bm25-400", {}).get("ok", [None] * 99)[j],
                               "page_tokens": page.total, "budget": res.info.get("budget_tokens"),
                               "spent": res.info.get("spent_tokens"), "n_units": len(heads)}
        if not hits:
            rec["class"] = "not found"
            out.append(rec)
            continue
        i = hits[0]
        k = units.of_line[i]
        pos = {kk: n for n, kk in enumerate(order)}
        kept_units = {kk for kk in range(len(heads)) if heads[kk] in kept}
        rec["kind"] = item_kind(page, i, r.get("kind"))
        rec["unit"] = k
        rec["unit_tokens"] = page.subtree_tokens(heads[k])
        rec["ranks"] = {n: (list(s).index(k) if k in s else None) for n, s in signals.items()}
        rec["fused_rank"] = pos.get(k)
        rec["window_rank"] = next((n for n, (_s, a, b) in enumerate(wins) if a <= k < b), None)
        rec["meaning_rank"] = int((sims > sims[k]).sum()) if sims is not None else None
        rec["partner_kept"] = any(p in kept for p in partners(page, heads[k], cfg.limits))
        near = [kk for kk in kept_units]
        rec["units_to_kept"] = min((abs(kk - k) for kk in near), default=None)
        ranked_kept = [pos[kk] for kk in kept_units if kk in pos]
        rec["last_kept_rank"] = max(ranked_kept, default=None)
        rw = row_of(page, i)
        row_kept = rw is not None and any(x in kept for x in range(rw, page.ends[rw]))
        sibs = _runs(page, i)
        sib_kept = any(any(x in kept for x in range(s, page.ends[s])) for s in sibs)
        hd = [h for h in range(len(heads)) if page.lines[heads[h]].role in HEADING_ROLES]
        sec = max((h for h in hd if h <= k), default=0)
        nxt = min((h for h in hd if h > k), default=len(heads))
        sec_kept = any(sec <= kk < nxt and kk != sec for kk in kept_units)
        rec["row_kept"], rec["sibling_kept"], rec["section_kept"] = row_kept, sib_kept, sec_kept
        rec["n_siblings"] = len(sibs)
        rec["sib_rank"] = sibs.index(next(s for s in sibs if s <= i < page.ends[s])) if sibs else None
        rec["selected"] = any(rend.lines[h].no in chosen for h in hits)
        if rec["selected"]:
            c = "selected, removed after (defense)"
        elif rec["fused_rank"] is not None and rec["last_kept_rank"] is not None and rec["fused_rank"] < rec["last_kept_rank"]:
            c = "ranked, skipped"
        elif rec["fused_rank"] is not None:
            c = "ranked, budget spent"
        elif rw is not None:
            c = "cell, row kept" if row_kept else "cell, row dropped"
        elif sib_kept:
            c = "sibling of kept"
        elif rec["units_to_kept"] is not None and rec["units_to_kept"] <= 2:
            c = "beside kept (<=2)"
        elif sec_kept:
            c = "section kept"
        else:
            c = "far"
        rec["class"] = c
        out.append(rec)
    return out


def report(recs: list[dict]) -> None:
    print(f"read items dropped: {len(recs)}; bm25-400 keeps {sum(bool(x['bm25_400']) for x in recs)}")
    print("by group:", dict(Counter(x["group"] for x in recs)))
    cls = Counter(x["class"] for x in recs)
    print("| class | items | bm25-400 keeps |\n|---|---|---|")
    for c, n in cls.most_common():
        print(f"| {c} | {n} | {sum(bool(x['bm25_400']) for x in recs if x['class'] == c)} |")
    f = [x for x in recs if x["found"]]
    print("item kind:", dict(Counter(x["kind"] for x in f).most_common()))
    edges = (0, 1, 3, 5, 10, 20, 50)
    for sig in ("bm25", "terms", "kind", "facts", "controls", "prior"):
        print(f"{sig} rank:", dict(Counter(band(x["ranks"].get(sig), edges) for x in f).most_common()))
    print("fused rank:", dict(Counter(band(x["fused_rank"], edges) for x in f).most_common()))
    print("window rank:", dict(Counter(band(x["window_rank"], edges) for x in f).most_common()))
    print("meaning rank:", dict(Counter(band(x["meaning_rank"], edges) for x in f).most_common()))
    print("units to nearest kept:", dict(Counter(band(x["units_to_kept"], (0, 1, 2, 3, 5, 10, 20)) for x in f).most_common()))
    print("partner kept:", dict(Counter(x["partner_kept"] for x in f)), "row kept:", dict(Counter(x["row_kept"] for x in f)),
          "sibling kept:", dict(Counter(x["sibling_kept"] for x in f)), "section kept:", dict(Counter(x["section_kept"] for x in f)))
    left = [1 - (x["spent"] or 0) / max(1, x["budget"] or 1) for x in recs if x["budget"]]
    print("budget left after all passes (share):", dict(Counter(band(int(v * 100), (-100, 0, 5, 20, 50)) for v in left)))
    print("page tokens:", dict(Counter(band(x["page_tokens"], (0, 1500, 3000, 6000, 12000, 25000)) for x in recs)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+", type=Path)
    ap.add_argument("--cache", type=Path)
    ap.add_argument("--pages", type=Path)
    ap.add_argument("--group", default="")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--report", action="store_true", help="the files are diagnosis outputs: print the counts")
    args = ap.parse_args()
    if args.report:
        report([x for f in args.files for x in json.loads(f.read_text())])
        return
    rows = [r for f in args.files for r in json.loads(f.read_text())]
    recs = diagnose(rows, args.cache, args.pages, args.group or args.files[0].stem)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(recs, indent=1, ensure_ascii=False))
    report(recs)


if __name__ == "__main__":
    main()
