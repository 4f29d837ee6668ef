"""Where default's missed items sit (h16-focus diag): role, in a form / table row / list item,
units after the nearest heading, and the goal's unseen-term share. Reads runs/slice_base.json."""
import json, sys, collections
from pathlib import Path
sys.path.insert(0, "benchmarks")
import focus_learn as fl
from pagelens.focus.analysis import analysis_of, unit_heads
from pagelens.focus.rules import RulesConfig
from pagelens.focus.units import form_of, row_of
HEAD = {"heading"}
rows = json.load(open(sys.argv[1]))
L = json.load(open("runs/lang16.json"))
cfg = RulesConfig()
rend = fl.renderings(Path("runs/realpages"), {r["page"] for r in rows if r.get("miss")})
stats = {True: collections.Counter(), False: collections.Counter()}
for r in rows:
    if not r.get("miss"):
        continue
    cross = L["goals"][str(r["id"])] != L["pages"][r["page"]]
    pa = analysis_of(rend[r["page"]], cfg.limits, cfg.unit_text_chars)
    page = pa.page
    up = unit_heads(page, cfg.limits)
    heads = pa.units.heads
    for m in r["miss"]:
        js = fl.matching_lines(page.lines, m["item"])
        if not js:
            continue
        j = js[0]
        ln = page.lines[j]
        anc = [page.lines[a].role for a in page.ancestors(j)]
        where = ("form" if form_of(page, j, cfg.limits) is not None or "form" in anc else
                 "table" if row_of(page, j) is not None or "table" in anc or "row" in anc else
                 "list" if "listitem" in anc else "other")
        # units since nearest heading before j
        h = max((i for i in range(j) if page.lines[i].role in HEAD), default=None)
        after = None if h is None else len({up[i] for i in range(h, j + 1)}) - 1
        stats[cross][(m["why"], where)] += 1
        stats[cross][("after_heading", "none" if after is None else ("<=1" if after <= 1 else "<=3" if after <= 3 else ">3"))] += 1
        stats[cross][("role", ln.role)] += 1
        stats[cross][("kind", r["kind"])] += 1
        if cross and len(sys.argv) > 2:
            print(r["id"], r["page"][:25], "|", r["goal"][:70], "|", m["item"], m["why"], where, after)
for c in (True, False):
    print("cross" if c else "rest", sorted(stats[c].items()))
