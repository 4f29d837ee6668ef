"""Items ``default`` misses that sit in a sibling row/item of a kept row (issue 9, thirty-third focus pass).

``diagnose`` focuses every goal of a group (``focus_tail.GROUPS``) with ``default`` (defense on, as
``focus_tail.py run``) and, for every must-keep item it misses, finds the item's *repeated group*: the nearest
ancestor of the item's line that is one of 3+ siblings sharing a role (a table row, a list item, a card) — the
same structure :func:`pagelens.focus.rows.item_of` reads. It reports whether a sibling item of that group shows
a kept text line (the item is "a sibling of a kept row"), by goal kind (the goal file's ``kind``) and by whether
the goal asks for several rows (:func:`pagelens.focus.rows.asks_rows`).

    PYTHONPATH=src .venv/bin/python benchmarks/focus_lists.py diagnose --group dev31 --cache runs/rp31 \
        --pages /work/shared/corpus/realpages --json runs/out/lists-dev31.json
    PYTHONPATH=src .venv/bin/python benchmarks/focus_lists.py why runs/out/lists-choose.json runs/out/lists-dev31.json \
        --cache runs/rp31 --pages /work/shared/corpus/realpages

``why`` says, for the missed items of rows-goals and extremes beside a kept sibling, why the mechanism would not bring them.
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

from focus_tail import _retriever, load  # noqa: E402
from realpage_goals import item_lines, items_ok, renderings  # noqa: E402


def diagnose(args: argparse.Namespace) -> None:
    from pagelens.focus.analysis import analysis_of
    from pagelens.focus.apply import focus
    from pagelens.focus.base import FocusQuery
    from pagelens.focus.extremes import asks_extreme
    from pagelens.focus.rows import asks_rows, item_of
    from pagelens.focus.rules import RulesConfig

    goals = load(args.group)
    parsed = renderings(goals, args.cache, args.pages)
    ret = _retriever(args.arm)
    cfg = RulesConfig()
    out: list[dict[str, Any]] = []
    n_items = n_missed = 0
    for g in goals:
        rend = parsed[g["page"]]
        res = focus(rend, FocusQuery(g["goal"]), ret)
        ok = items_ok(rend, res, g["must_keep"])
        n_items += len(ok)
        page = analysis_of(rend, cfg.limits, cfg.unit_text_chars).page
        for m, good in zip(g["must_keep"], ok, strict=True):
            if good:
                continue
            n_missed += 1
            rec: dict[str, Any] = {"set": g["set"], "page": g["page"], "goal": g["goal"], "kind": g.get("kind"),
                                   "item": m, "rows_goal": asks_rows(g["goal"]), "extreme": asks_extreme(g["goal"]),
                                   "group": None, "sibling_kept": False}
            hits = item_lines(rend.lines, m)
            if hits:
                i = hits[0]
                it = item_of(page, i)
                if it is not None:
                    sibs = it.siblings
                    kept_sib = [s for s in sibs if s != it.item and any(
                        page.ends[j] == j + 1 and page.lines[j].no in res.kept and page.lines[j].name.strip()
                        for j in range(s, page.ends[s]))]
                    rec["group"] = {"role": page.lines[it.item].role, "items": len(sibs),
                                    "tokens": sum(page.subtree_tokens(s) for s in sibs),
                                    "item_tokens": page.subtree_tokens(it.item)}
                    rec["sibling_kept"] = bool(kept_sib)
            out.append(rec)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(out, indent=1))
    print(f"{args.group}: items {n_items}, missed {n_missed}")
    print("missed, in a repeated group:", sum(r["group"] is not None for r in out),
          "; in a group with a kept sibling:", sum(r["sibling_kept"] for r in out))
    c: Counter[tuple] = Counter((str(r["kind"]), "rows-goal" if r["rows_goal"] else ("extreme" if r["extreme"] else "other"),
                                 "sibling kept" if r["sibling_kept"] else ("in group" if r["group"] else "no group"))
                                for r in out)
    print("| goal kind | goal asks | where | missed items |\n|---|---|---|---|")
    for key, v in sorted(c.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"| {key[0]} | {key[1]} | {key[2]} | {v} |")
    if args.show:
        for r in out:
            if r["sibling_kept"]:
                print("-", r["page"], "|", r["goal"][:90], "|", r["item"]["name"][:40], "|", r["group"])


def why(args: argparse.Namespace) -> None:
    """For the missed items of rows-goals and extremes beside a kept sibling (``diagnose``'s JSON): why the mechanism
    with ``--share`` / ``--cap`` / ``--item`` would not bring them — on the page as rendered, before the defense's
    hiding (an approximation of ``focus``' view), in ``default``'s order before the meaning and address steps."""
    from pagelens.focus.analysis import analysis_of
    from pagelens.focus.base import FocusQuery
    from pagelens.focus.rows import item_of, sibling_lines
    from pagelens.focus.rules import RulesConfig, RulesRetriever, _ranked

    todo = [d for f in args.files for d in json.loads(Path(f).read_text())
            if d["sibling_kept"] and (d["rows_goal"] or d["extreme"])]
    parsed = renderings(todo, args.cache, args.pages)
    cfg = RulesConfig()
    ret = RulesRetriever(cfg)
    c: Counter[tuple[str, str]] = Counter()
    for d in todo:
        rend = parsed[d["page"]]
        pa = analysis_of(rend, cfg.limits, cfg.unit_text_chars)
        page = pa.page
        q = FocusQuery(d["goal"])
        budget = ret.select(q, rend).info["budget_tokens"]
        signals, _lt, unseen, fused = ret.fused(q, pa)
        order, _ = ret._learned(q, pa, signals, fused, unseen, _ranked(fused))
        i = item_lines(rend.lines, d["item"])[0]
        it = item_of(page, i)
        assert it is not None
        first = next((g for k in order[: args.top] if (g := item_of(page, pa.units.heads[k])) is not None), None)
        if first is None:
            reason = f"no unit of the order's first {args.top} in a repeated group"
        elif first.siblings != it.siblings:
            reason = "the first such unit is in another group"
        elif sum(page.cost[j] + 1 for j in range(it.item, page.ends[it.item])) > args.item:
            reason = f"the item is over {args.item} tokens"
        elif i not in sibling_lines(pa, order, args.top, int(min(args.share * budget, args.cap)), args.item):
            reason = "the cap is spent before it"
        else:
            reason = "brought"
        c[("rows-goal" if d["rows_goal"] else "extreme", reason)] += 1
    print("| goal asks | why not brought | items |\n|---|---|---|")
    for (kind, reason), v in sorted(c.items()):
        print(f"| {kind} | {reason} | {v} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("diagnose")
    d.add_argument("--group", required=True)
    d.add_argument("--arm", default="default")
    d.add_argument("--json", type=Path, required=True)
    d.add_argument("--show", action="store_true", help="list the items that sit beside a kept sibling")
    w = sub.add_parser("why", help="why the mechanism would not bring the missed items beside a kept sibling")
    w.add_argument("files", nargs="+")
    w.add_argument("--share", type=float, default=0.3)
    w.add_argument("--cap", type=int, default=400)
    w.add_argument("--item", type=int, default=150)
    w.add_argument("--top", type=int, default=5)
    for p in (d, w):
        p.add_argument("--cache", type=Path, default=Path("runs/rp"))
        p.add_argument("--pages", type=Path, default=HERE.parent.parent / "shared" / "corpus" / "realpages")
    args = ap.parse_args()
    {"diagnose": diagnose, "why": why}[args.cmd](args)


if __name__ == "__main__":
    main()
