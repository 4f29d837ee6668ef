"""Where a focused view's tokens go, by what the goal's items needed (issue 9, thirty-seventh focus pass).

``classes`` focuses every goal of a group (``focus_tail.GROUPS``) with ``default`` (or ``--arm``) and puts each
shown line of the view in one class, first match wins:

* ``whole``       the page was shown whole (kept-whole small page, or the full tree returned);
* ``placeholder`` a placeholder, a folded notice's placeholder, a marker;
* ``item``        a line carrying a must-keep item of the goal (as ``items_ok`` matches it);
* ``ancestor``    an ancestor shown short, only to hold the tree together;
* ``partner``     a line of an item's unit or one of its partners (label/value, row key/header, control's row);
* ``before``      a ranked unit's line (cores pass or fill loop) ranked at or before the last unit holding an item;
* ``fill_after``  a ranked unit's line ranked after the last unit holding an item (budget fill no item needed;
  on a goal that keeps no item in a ranked unit, every ranked unit's line);
* ``context``     a fill line of an unranked unit (partners, answer context, forms of a ranked unit);
* ``skeleton``    root, headings, search, pagination, breadcrumbs; forms / extremes projections;
* ``allowance``   the ``nearby`` and ``unfit`` allowances, the gap closer, a cheap run shown, always-kept lines.

Each line is counted alone with its indentation (``tokens.count_many``); per class also the indentation's share.
``floor``: goals whose budget is the floor (≤ ``floor_tokens``) or whose page is kept whole, their view tokens
beyond ``share × total`` (the share the certainty rule gave). ``bands``: mean pruning per page-size band
(the page's full-tree tokens). No word of a page or goal is used to classify, only positions.

    PYTHONPATH=src .venv/bin/python benchmarks/focus_where.py classes --group choose --cache runs/rp \
        --pages /work/shared/corpus/realpages --json runs/where/choose.json
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

from focus_lean import Spy, kind_of  # noqa: E402
from focus_tail import GROUPS, _retriever, load  # noqa: E402
from realpage_goals import renderings  # noqa: E402

CLASSES = ("whole", "placeholder", "item", "ancestor", "partner", "before", "fill_after", "context", "skeleton",
           "allowance")
BANDS = ((0, 800), (800, 1500), (1500, 3000), (3000, 6000), (6000, 20000), (20000, 10**9))


def item_nos(rendering: Any, res: Any, must_keep: list[dict]) -> tuple[set[int], list[bool]]:
    """The shown lines that carry an item (as :func:`pagelens.bench.cases.item_kept` matches) and per item whether
    it is kept."""
    from pagelens.bench.cases import INTERACTIVE_ROLES, norm

    kept = [ln for ln in rendering.lines if ln.no in res.kept]
    shown = [(ol.no, norm(ol.text)) for ol in res.lines if ol.no is not None]
    out: set[int] = set()
    ok = []
    for m in must_keep:
        want = norm(m["name"])
        hits = {ln.no for ln in kept if ln.role == m["role"] and want in norm(ln.name)}
        if not hits and m["role"] not in INTERACTIVE_ROLES:
            hits = {no for no, t in shown if want in t}
        out |= hits
        ok.append(bool(hits))
    return out, ok


def classify(rendering: Any, res: Any, rec: dict[str, Any], must_keep: list[dict]) -> tuple[list[str], list[bool]]:
    """One class (:data:`CLASSES`) per line of ``res`` and per item whether it is kept."""
    items, ok = item_nos(rendering, res, must_keep)
    pa = rec.get("pa")
    if pa is None or "fill" not in rec:  # kept whole / full tree
        return ["placeholder" if ol.no is None else "whole" for ol in res.lines], ok
    page, units = pa.page, pa.units
    pos = {ln.no: i for i, ln in enumerate(page.lines)}
    rank = {k: r for r, k in enumerate(rec.get("order_list", []))}
    limits = rec.get("limits")

    def unit(no: int) -> int:
        i = pos.get(no)
        return -2 if i is None else units.of_line[i]

    from pagelens.focus.units import partners

    item_units = {unit(no) for no in items} - {-1, -2}
    partner: set[int] = set()
    for k in item_units:
        u = units.heads[k]
        partner |= {page.lines[j].no for j in range(u, page.ends[u])}
        partner |= {page.lines[j].no for j in units.members[k]}
        if limits is not None:
            partner |= {page.lines[j].no for j in partners(page, u, limits)}
    last = max((rank[k] for k in item_units if k in rank), default=-1)
    out = []
    for ol in res.lines:
        kind = kind_of(ol, rec, unit)
        no = ol.no
        if no is None or kind in ("placeholder", "fold", "marker"):
            out.append("placeholder")
        elif no in items:
            out.append("item")
        elif kind == "ancestor":
            out.append("ancestor")
        elif no in partner:
            out.append("partner")
        elif kind in ("cores", "fill_own", "fill_partner"):
            k = unit(no)
            if k in rank:
                out.append("before" if rank[k] <= last else "fill_after")
            else:
                out.append("context")
        elif kind in ("skeleton", "extra"):
            out.append("skeleton")
        else:
            out.append("allowance")
    return out, ok


def classes(args: argparse.Namespace) -> None:
    from pagelens import tokens
    from pagelens.focus.apply import focus
    from pagelens.focus.base import FocusQuery
    from pagelens.focus.rules import RulesConfig

    goals = load(args.group)[: args.limit or None]
    parsed = renderings(goals, args.cache, args.pages)
    name, _, budget = args.arm.partition("@")
    ret = _retriever(name)
    cfg = getattr(ret, "config", RulesConfig())
    toks: Counter[str] = Counter()
    indent: Counter[str] = Counter()
    nlines: Counter[str] = Counter()
    rows = []
    for g in goals:
        r = parsed[g["page"]]
        with Spy() as spy:
            res = focus(r, FocusQuery(goal=g["goal"], budget=float(budget) if budget else None), ret)
        rec = spy.rec
        rec["limits"] = cfg.limits
        cls, ok = classify(r, res, rec, g["must_keep"])
        texts = ["\t" * ol.depth + ol.text for ol in res.lines]
        counts = tokens.count_many(texts)
        own = tokens.count_many([ol.text for ol in res.lines])
        per: Counter[str] = Counter()
        for c, n, m in zip(cls, counts, own, strict=True):
            toks[c] += n
            indent[c] += n - m
            nlines[c] += 1
            per[c] += n
        info = res.info or {}
        bt = info.get("budget_tokens")
        cert = info.get("certainty") or {}
        share = cfg.budget
        if cfg.certain_by and cert.get(cfg.certain_by) is not None and info.get("fusion") == "learned":
            surer = cert[cfg.certain_by] >= cfg.certain_at if cfg.certain_by != "near" else cert["near"] <= cfg.certain_at
            share = cfg.certain_share if surer else cfg.unsure_share
        whole = "fill" not in rec
        floor = bool(whole or (bt is not None and bt <= cfg.floor_tokens))
        rows.append({"set": g["set"], "page": g["page"], "goal": g["goal"][:80], "full": res.full_tokens,
                     "total": rec["pa"].page.total if rec.get("pa") is not None else None,
                     "focused": res.focused_tokens, "pruning": res.pruning, "ok": ok, "classes": dict(per),
                     "budget": bt, "share": share, "floor": floor, "whole": whole})
    s = sum(toks.values())
    print(f"{args.group}: {len(goals)} goals, {sum(len(g['must_keep']) for g in goals)} items "
          f"({sum(sum(r['ok']) for r in rows)} kept); view tokens {sum(r['focused'] for r in rows)}, lines counted alone {s}")
    print("| class | lines | tokens | share | of it: indentation | tokens / line | goals with any |")
    print("|---|---|---|---|---|---|---|")
    for c in CLASSES:
        if nlines[c]:
            with_any = sum(1 for r in rows if r["classes"].get(c))
            print(f"| {c} | {nlines[c]:,} | {toks[c]:,} | {toks[c] / s:.1%} | {indent[c]:,} | {toks[c] / nlines[c]:.1f} | {with_any} |")
    mean_share = statistics.mean(r["focused"] / r["full"] for r in rows if r["full"])
    print(f"mean view / full tree: {mean_share:.2%} (mean pruning {1 - mean_share:.2%}); a class's tokens removed from "
          "every view would add about (its share of each view × view/full) points of mean pruning:")
    for c in CLASSES:
        pts = statistics.mean(r["classes"].get(c, 0) / r["full"] for r in rows if r["full"]) * 100
        if pts:
            print(f"  {c}: {pts:.2f} points")
    fl = [r for r in rows if r["floor"]]
    excess = sum(max(0.0, r["focused"] - r["share"] * r["total"]) for r in fl if r["total"])
    print(f"floor: {len(fl)} goals whose budget is the floor or whose page is whole ({sum(r['whole'] for r in rows)} whole); "
          f"their views {sum(r['focused'] for r in fl):,} tokens, beyond share × total {excess:,.0f}; mean pruning "
          f"{statistics.mean(r['pruning'] for r in fl) if fl else 0:.2%}")
    print("| band (full-tree tokens) | goals | items kept / items | mean pruning | floor-bound goals |")
    print("|---|---|---|---|---|")
    for lo, hi in BANDS:
        b = [r for r in rows if lo <= (r["total"] or r["full"]) < hi]
        if b:
            print(f"| {lo:,}–{hi if hi < 10**9 else '':,} | {len(b)} | {sum(sum(r['ok']) for r in b)} / "
                  f"{sum(len(r['ok']) for r in b)} | {statistics.mean(r['pruning'] for r in b):.2%} | "
                  f"{sum(r['floor'] for r in b)} |" if hi < 10**9 else
                  f"| > {lo:,} | {len(b)} | {sum(sum(r['ok']) for r in b)} / {sum(len(r['ok']) for r in b)} | "
                  f"{statistics.mean(r['pruning'] for r in b):.2%} | {sum(r['floor'] for r in b)} |")
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps({"tokens": toks, "lines": nlines, "indent": indent, "rows": rows}))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("classes")
    a.add_argument("--group", default="choose", choices=tuple(GROUPS))
    a.add_argument("--cache", type=Path, required=True)
    a.add_argument("--pages", type=Path, default=Path("/work/shared/corpus/realpages"))
    a.add_argument("--arm", default="default", help="retriever[@budget]")
    a.add_argument("--json")
    a.add_argument("--limit", type=int, default=0, help="the first N goals only (a smoke run)")
    args = p.parse_args()
    {"classes": classes}[args.cmd](args)


if __name__ == "__main__":
    main()
