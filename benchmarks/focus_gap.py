"""What the chunk baseline keeps and ``default`` drops (issue 9, thirty-sixth focus pass): the gap items.

Reads a ``focus_tail.py run`` file holding the arms ``default`` and ``bm25-400`` and, for every must-keep item
bm25-400 keeps and ``default`` drops (the *gap*), records what could explain it:

* the item's kind (:func:`focus_tail.item_kind`), the goal's kind, question or not, whether it crosses languages;
* the page's tokens and 400-token chunks (bm25-400 keeps ten: a page of at most ten chunks is kept whole),
  the rank of the item's chunk under BM25, and how many goal stems its chunk holds against its own line;
* ``default``'s budget (tokens, share, at the ceiling) and what it spent;
* the item's unit: its rank under each signal and in the fused order (None: no signal ranks it);
* document order: the distance, in units and in tokens, from the item's unit to the nearest unit of the fused
  order's first 10 that ``default`` kept, and whether one of them lies in the item's 400-token window.

    PYTHONPATH=src .venv/bin/python benchmarks/focus_gap.py runs/tail/base_choose.json --cache runs/rp \
        --pages /work/shared/corpus/realpages --out runs/tail/gap_choose.json

    .venv/bin/python benchmarks/focus_gap.py halves runs/tail/cands.json --base default   # the choose gate

``--counts-only`` prints the number of gap items per set and nothing about them (for sets read only as a check).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from focus_tail import item_kind  # noqa: E402
from realpage_goals import item_lines, renderings  # noqa: E402


def gap_items(rows: list[dict], a: str = "default", b: str = "bm25-400") -> list[tuple[dict, int]]:
    return [(r, j) for r in rows for j, (x, y) in enumerate(zip(r["arms"][a]["ok"], r["arms"][b]["ok"], strict=True))
            if y and not x]


def _stems(text: str) -> set[str]:
    from pagelens.focus.bm25 import _tokenize

    return set(_tokenize([text])[0])


def diagnose(rows: list[dict], cache: Path, pages: Path) -> list[dict]:
    from pagelens.focus.analysis import analysis_of
    from pagelens.focus.apply import focus
    from pagelens.focus.base import FocusQuery
    from pagelens.focus.bm25 import query_text, rank_chunks
    from pagelens.focus.chunking import chunk_rendering
    from pagelens.focus.crossing import crosses
    from pagelens.focus.rules import RulesConfig, RulesRetriever, _ranked
    from pagelens.focus.terms import is_question

    gap = gap_items(rows)
    parsed = renderings([r for r, _ in gap], cache, pages)
    cfg = RulesConfig()
    ret = RulesRetriever(cfg)
    out = []
    for r, j in gap:
        m = r["must_keep"][j]
        rend = parsed[r["page"]]
        pa = analysis_of(rend, cfg.limits, cfg.unit_text_chars)
        page, units = pa.page, pa.units
        q = FocusQuery(r["goal"])
        signals, _lt, unseen, fused = ret.fused(q, pa)
        order, _ = ret._learned(q, pa, signals, fused, unseen, _ranked(fused))
        res = focus(rend, q, ret)
        kept_pos = {p for p, ln in enumerate(rend.lines) if ln.no in res.kept}
        chunks = chunk_rendering(rend, 400)
        ranked = [c for c, _ in rank_chunks(query_text(q), chunks)]
        hits = item_lines(rend.lines, m)
        goal = _stems(r["goal"])
        rec: dict[str, Any] = {
            "set": r["set"], "page": r["page"], "goal": r["goal"], "goal_kind": r["kind"], "item": m,
            "question": is_question(r["goal"]), "crosses": crosses(r["goal"], pa), "page_tokens": page.total,
            "chunks": len(chunks), "whole_by_bm25": len(chunks) <= 10, "budget": res.info.get("budget_tokens"),
            "spent": res.info.get("spent_tokens"), "share": (res.info.get("budget_tokens") or 0) / max(1, page.total),
            "ceiling": res.info.get("budget_tokens") == cfg.ceiling_tokens, "found": bool(hits),
            "pruning_default": r["arms"]["default"]["pruning"], "pruning_bm25": r["arms"]["bm25-400"]["pruning"],
        }
        if hits:
            i = hits[0]
            k = units.of_line[i]
            ci = next((c.index for c in chunks if c.first_line <= i <= c.last_line), None)
            rec["kind"] = item_kind(page, i, r["kind"])
            rec["chunk_rank"] = ranked.index(ci) if ci is not None else None
            rec["chunk_goal_stems"] = len(goal & _stems(chunks[ci].text)) if ci is not None else 0
            rec["line_goal_stems"] = len(goal & _stems(rend.lines[i].text))
            rec["unit"] = k
            if k >= 0:
                pos = {kk: n for n, kk in enumerate(order)}
                rec["ranks"] = {n: (list(s).index(k) if k in s else None) for n, s in signals.items()}
                rec["fused_rank"] = pos.get(k)
                top = [kk for kk in order[:10] if units.heads[kk] in kept_pos]
                rec["top10_kept"] = len(top)
                if top:
                    near = min(top, key=lambda kk: abs(kk - k))
                    rec["units_to_top"] = abs(near - k)
                    a, b = sorted((units.heads[near], i))
                    rec["tokens_to_top"] = page.span_tokens(a, b)
                    rec["top_in_window"] = rec["tokens_to_top"] <= 400
                    rec["top_rank"] = pos[near]
                rec["unit_tokens"] = page.subtree_tokens(units.heads[k])
            rec["line_kept_parent"] = page.parents[i] in kept_pos
        out.append(rec)
    return out


def band(x: int | None, edges: tuple[int, ...]) -> str:
    if x is None:
        return "none"
    for lo, hi in zip(edges, edges[1:], strict=False):
        if lo <= x < hi:
            return f"{lo}-{hi - 1}" if hi - lo > 1 else str(lo)
    return f">={edges[-1]}"


def report(out: list[dict]) -> None:
    print(f"gap items: {len(out)}; found on the page: {sum(x['found'] for x in out)}")
    found = [x for x in out if x["found"]]
    for key in ("set", "goal_kind", "question", "crosses", "kind", "whole_by_bm25", "ceiling"):
        print(key, dict(Counter(str(x.get(key)) for x in found).most_common()))
    print("page tokens", dict(Counter(band(x["page_tokens"], (0, 1500, 3000, 6000, 12000, 25000)) for x in found)))
    print("chunk rank", dict(Counter(band(x.get("chunk_rank"), (0, 1, 3, 5, 10)) for x in found)))
    print("fused rank", dict(Counter(band(x.get("fused_rank"), (0, 10, 20, 50, 100)) for x in found)))
    print("units to a kept top-10 unit", dict(Counter(band(x.get("units_to_top"), (0, 1, 2, 3, 5, 10, 20)) for x in found)))
    print("tokens to a kept top-10 unit", dict(Counter(band(x.get("tokens_to_top"), (0, 100, 200, 400, 800, 1600)) for x in found)))
    print("chunk holds goal stems, line none", sum(1 for x in found if x.get("chunk_goal_stems", 0) > 0 and x.get("line_goal_stems") == 0),
          "; line holds some", sum(1 for x in found if x.get("line_goal_stems", 0) > 0),
          "; chunk none", sum(1 for x in found if x.get("chunk_goal_stems", 0) == 0))
    print("share", dict(Counter(f"{x['share']:.2f}" for x in found).most_common(8)))
    sig: Counter[str] = Counter()
    for x in found:
        for n, v in (x.get("ranks") or {}).items():
            if v is not None:
                sig[n] += 1
    print("ranked by signal:", dict(sig.most_common()), "; by none:", sum(1 for x in found if x.get("fused_rank") is None))
    fr = [x["fused_rank"] for x in found if x.get("fused_rank") is not None]
    print("fused rank when ranked: n", len(fr), "median", statistics.median(fr) if fr else None)


def halves(files: list[str], base: str) -> None:
    """Items kept per arm on the two halves of the goals' pages (parity of sha1(page name)'s first byte) and mean
    pruning, every arm of every file against ``base`` (an arm label, looked for in the files in order)."""
    import hashlib

    arms: dict[str, list[dict]] = {}
    for f in files:
        rows = json.loads(Path(f).read_text())
        for a in rows[0]["arms"]:
            arms.setdefault(a, [{**r, "arm": r["arms"][a]} for r in rows])

    def half(page: str) -> int:
        return hashlib.sha1(page.encode()).digest()[0] % 2

    def figures(rows: list[dict]) -> tuple[int, int, int, float]:
        h = [sum(sum(r["arm"]["ok"]) for r in rows if half(r["page"]) == p) for p in (0, 1)]
        return h[0], h[1], h[0] + h[1], statistics.mean(r["arm"]["pruning"] for r in rows)

    b = figures(arms[base])
    items = sum(len(r["must_keep"]) for r in arms[base])
    print(f"| arm | half 0 | half 1 | items / {items} | mean pruning | passes (>= both halves, > sum, pruning within 1 pt) |")
    print("|---|---|---|---|---|---|")
    for a, rows in arms.items():
        x = figures(rows)
        ok = x[0] >= b[0] and x[1] >= b[1] and x[2] > b[2] and x[3] >= b[3] - 0.01
        print(f"| {a} | {x[0]} ({x[0] - b[0]:+d}) | {x[1]} ({x[1] - b[1]:+d}) | {x[2]} ({x[2] - b[2]:+d}) | {x[3]:.2%} "
              f"({(x[3] - b[3]) * 100:+.2f}) | {'base' if a == base else 'yes' if ok else 'no'} |")


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "halves":
        hp = argparse.ArgumentParser()
        hp.add_argument("cmd")
        hp.add_argument("files", nargs="+")
        hp.add_argument("--base", default="default")
        ha = hp.parse_args()
        halves(ha.files, ha.base)
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("json_in", type=Path)
    ap.add_argument("--cache", type=Path, default=Path("runs/rp"))
    ap.add_argument("--pages", type=Path, required=True)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--counts-only", action="store_true")
    args = ap.parse_args()
    rows = json.loads(args.json_in.read_text())
    if args.counts_only:
        gap = gap_items(rows)
        rev = gap_items(rows, "bm25-400", "default")
        print(f"gap (bm25-400 keeps, default drops): {len(gap)}; reverse (default keeps, bm25-400 drops): {len(rev)}")
        print("per set:", dict(Counter(r["set"] for r, _ in gap)))
        return
    out = diagnose(rows, args.cache, args.pages)
    if args.out:
        args.out.write_text(json.dumps(out, indent=1, ensure_ascii=False))
    report(out)


if __name__ == "__main__":
    main()
