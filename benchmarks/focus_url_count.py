"""Of ``default``'s misses on a group of development sets, how many are links (or units holding a link) whose address
carries a goal word, and what the address rule would cost (BENCHMARKS.md, "Focus, twenty-sixth pass", h22-url).

    PYTHONPATH=src .venv/bin/python benchmarks/focus_url_count.py choose 0.05 [--cache runs/rp] [--json out.json]

Arguments: the ``focus_tail.py`` group and the distinctiveness share (``RulesConfig.url_df_share``; 1.0: no gate).
``default`` runs with ``url_units`` 0 (the base: the rule is counted, not applied). Development data only: it reads
rows and misses.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from focus_miss_causes import spy_class  # noqa: E402
from focus_tail import load  # noqa: E402
from realpage_goals import item_lines, items_ok, renderings  # noqa: E402


def count(goals: list[dict], parsed: dict[str, Any], share: float) -> collections.Counter[str]:
    """Misses of ``default`` (``url_units`` 0) by link and address, and the units the rule names that hold no item."""
    from pagelens.focus.addresses import address_units, address_words
    from pagelens.focus.apply import focus
    from pagelens.focus.base import FocusQuery
    from pagelens.focus.rules import RulesConfig
    from pagelens.focus.terms import query_terms

    spy = spy_class()(RulesConfig(url_units=0))
    c: collections.Counter[str] = collections.Counter()
    for g in goals:
        r = parsed[g["page"]]
        spy.last = None
        ok = items_ok(r, focus(r, FocusQuery(g["goal"]), spy), g["must_keep"])
        c["goals"] += 1
        c["items"] += len(ok)
        last = spy.last
        if last is None:
            c["missed, page kept whole or no fill"] += ok.count(False)
            continue
        pa, keep = last["pa"], last["keep"]
        page, units = pa.page, pa.units
        weights, _ = query_terms(FocusQuery(g["goal"]))
        plain = {t for t in weights if t[0] not in "§+" and not t[0].isdigit() and len(t) >= 3}
        named = address_units(pa, weights, max_share=share)
        item_units = {units.of_line[i] for m in g["must_keep"] for i in item_lines(page.lines, m) if units.of_line[i] >= 0}
        for k, _ in named:
            c["rule: units named"] += 1
            if units.heads[k] in keep:
                continue
            c["rule: not shown"] += 1
            if k in item_units:
                c["rule: not shown, holding an item"] += 1
            else:
                c["rule: not shown, holding no item (cost)"] += 1
                c["rule: cost tokens"] += page.subtree_tokens(units.heads[k])
        named_set = {k for k, _ in named}
        for m, o in zip(g["must_keep"], ok, strict=True):
            if o:
                continue
            c["missed"] += 1
            lines = item_lines(page.lines, m)
            if not lines:
                c["missed, folded"] += 1
                continue
            ks = {units.of_line[i] for i in lines if units.of_line[i] >= 0}
            members = [j for k in ks for j in units.members[k]]
            c["missed: item line is a link"] += any(page.lines[i].url for i in lines)
            c["missed: unit holds a url line"] += any(page.lines[j].url for k in ks
                                                      for j in range(units.heads[k], page.ends[units.heads[k]]))
            c["missed: item address carries a goal word"] += any(address_words(page.lines[i].url or "") & plain
                                                                 for i in lines)
            c["missed: unit address carries a goal word"] += any(address_words(page.lines[j].url or "") & plain
                                                                 for j in members)
            c["missed: named by the rule"] += bool(ks & named_set)
    return c


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("group")
    ap.add_argument("share", type=float)
    ap.add_argument("--cache", type=Path, default=Path("runs/rp"))
    ap.add_argument("--pages", type=Path, default=HERE.parent.parent / "shared" / "corpus" / "realpages")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    goals = load(args.group)
    c = count(goals, renderings(goals, args.cache, args.pages), args.share)
    for k, v in c.items():
        print(f"{k}: {v}")
    if args.json:
        args.json.write_text(json.dumps(c, indent=1))


if __name__ == "__main__":
    main()
