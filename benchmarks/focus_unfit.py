"""What the units ranked above the fill line but skipped are (issue 9, twenty-third focus pass, BENCHMARKS.md).

Reads a ``focus_miss_causes.py --json`` file and, for every missed item whose cause is ``budget, above the
line``, reruns ``default`` on its goal (the same ``focus()``) and records the item's unit: its rank, the role of
its head line, its own tokens and lines, the tokens of what the fill tries first (the unit with its partners),
the budget and what the fill spent, and how much of the unit the item needs: the item line's own tokens, whether
it or a line within one or two lines of it in the unit carries one of the goal's terms or asked kinds (the
matcher's ``line_terms``), and whether the unit's head line does.

    PYTHONPATH=src .venv/bin/python benchmarks/focus_unfit.py runs/causes.json --cache runs/rp [--json out.json]

Development data only (it reads rows and misses).
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from focus_miss_causes import best_line, spy_class  # noqa: E402
from realpage_goals import item_lines, renderings  # noqa: E402


def band(x: float, edges: tuple[float, ...]) -> str:
    lo = 0.0
    for e in edges:
        if x <= e:
            return f"{lo:g}–{e:g}"
        lo = e
    return f"> {lo:g}"


def detail(rows: list[dict], cache: Path, pages: Path) -> list[dict]:
    from pagelens.focus.apply import focus
    from pagelens.focus.base import FocusQuery
    from pagelens.focus.rules import RulesConfig
    from pagelens.focus.units import partners

    todo = [r for r in rows if any(m["cause"] == "budget, above the line" for m in r["missed"])]
    rendered = renderings(todo, cache, pages)
    cfg = RulesConfig()
    spy = spy_class()(cfg)
    out: list[dict] = []
    for r in todo:
        rend = rendered[r["page"]]
        spy.last = None
        focus(rend, FocusQuery(r["goal"]), spy)
        last = spy.last
        pa = last["pa"]
        page, units, lt = pa.page, pa.units, last["line_terms"]
        pos = {k: n for n, k in enumerate(last["order"])}
        for m in r["missed"]:
            if m["cause"] != "budget, above the line":
                continue
            i = best_line(item_lines(page.lines, m["item"]), units, pos)
            k = units.of_line[i]
            u = units.heads[k]
            own = list(range(u, page.ends[u]))
            span = sorted(set(own + partners(page, u, cfg.limits)))
            near = [j for j in own if abs(j - i) <= 1]
            near2 = [j for j in own if abs(j - i) <= 2]
            out.append({
                "set": r["set"], "page": r["page"], "tokens": r["tokens"], "rank": pos.get(k), "fill_line": m["fill_line"],
                "head_role": page.lines[u].role, "item_role": page.lines[i].role,
                "unit_tokens": page.subtree_tokens(u), "unit_lines": len(own), "span_tokens": sum(page.cost[j] + 1 for j in span),
                "budget": last["budget"], "spent": last["spent"], "item_tokens": page.cost[i] + 1,
                "item_offset": i - u, "head_terms": bool(lt.get(u)), "item_terms": bool(lt.get(i)),
                "terms_1": any(lt.get(j) for j in near), "terms_2": any(lt.get(j) for j in near2),
                "unit_term_lines": sum(1 for j in own if lt.get(j)),
            })
    return out


def summary(d: list[dict]) -> str:
    c: collections.Counter = collections.Counter()
    out = [f"items: {len(d)}"]
    for key, f in (("unit tokens", lambda x: band(x["unit_tokens"], (50, 100, 220))),
                   ("unit+partners tokens", lambda x: band(x["span_tokens"], (100, 220, 400))),
                   ("head role", lambda x: x["head_role"]),
                   ("item share of unit", lambda x: band(x["item_tokens"] / max(1, x["unit_tokens"]), (0.1, 0.25, 0.5))),
                   ("rank", lambda x: band(x["rank"], (4, 9, 19, 49))),
                   ("budget spent", lambda x: "spent >= budget" if x["spent"] >= x["budget"] else "below budget"),
                   ("item line carries a goal term", lambda x: x["item_terms"]),
                   ("a line within 1 of it does", lambda x: x["terms_1"]),
                   ("a line within 2 of it does", lambda x: x["terms_2"]),
                   ("head line does", lambda x: x["head_terms"])):
        c = collections.Counter(f(x) for x in d)
        out.append(f"| {key} | " + "; ".join(f"{k}: {v}" for k, v in sorted(c.items(), key=lambda kv: -kv[1])) + " |")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("causes", type=Path)
    ap.add_argument("--cache", type=Path, default=Path("runs/rp"))
    ap.add_argument("--pages", type=Path, default=HERE.parent.parent / "shared" / "corpus" / "realpages")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    d = detail(json.loads(args.causes.read_text()), args.cache, args.pages)
    print(summary(d))
    if args.json:
        args.json.write_text(json.dumps(d, indent=1))


if __name__ == "__main__":
    main()
