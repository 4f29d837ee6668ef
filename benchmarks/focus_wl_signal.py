"""WordLlama's look-up signal alone (issue 9, h22-wl; after h18-static's ``focus_static_signal.py``): does it rank
the items lexical signals miss? Recall@k of must-keep items by the cosine rank of every unit (:mod:`pagelens.focus.lookup`)
against ``default``'s bm25, terms and RRF-fused order, for dev-18 and the corpus goal sets apart, split same-language /
cross-language and "items no lexical signal ranks" (no signal but ``prior`` ranks the item's unit).

A goal is *cross-language* when its language and its page's differ, both known: the script, and for Latin text the
function-word language (:mod:`pagelens.focus.lexicons_lang`). An item's rank under a signal is the best rank of a unit
holding a line the benchmark's matcher counts as the item (:func:`focus_learn.matching_lines`).

    PYTHONPATH=src:/work/venvs/wl-site nice -n 10 .venv/bin/python benchmarks/focus_wl_signal.py --group choose --cache runs/rp
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
KS = (5, 10, 20, 40)
SIGNALS = ("wl", "bm25", "terms", "rrf")


def lang_of(text: str, limit: int = 400) -> str:
    from pagelens.focus.lexicons_lang import hits, language, script, words

    name, _ = script(text, limit=limit)
    return name if name != "latin" else language(hits(words(text[: limit * 10])))


def ranks(goal: dict, rendering: Any, chars: int) -> dict[str, Any]:
    import focus_learn as fl
    import numpy as np

    from pagelens.focus.analysis import analysis_of
    from pagelens.focus.base import FocusQuery
    from pagelens.focus.lookup import shared_lookup, similarities
    from pagelens.focus.rules import RulesConfig, RulesRetriever, _ranked

    ret = RulesRetriever(RulesConfig())
    cfg = ret.config
    pa = analysis_of(rendering, cfg.limits, cfg.unit_text_chars)
    q = FocusQuery(goal["goal"])
    signals, _, unseen, fused = ret.fused(q, pa)
    emb, reason = shared_lookup()
    assert emb is not None, reason
    sims = similarities(pa, emb, goal["goal"], chars)
    wl = [int(k) for k in np.argsort(-sims, kind="stable")]
    lists = {"wl": wl, "bm25": list(signals.get("bm25", [])), "terms": list(signals.get("terms", [])),
             "rrf": list(_ranked(fused))}
    pos_of = {n: {k: i for i, k in enumerate(r)} for n, r in lists.items()}
    lexical = {k for n, r in signals.items() if n != "prior" for k in r}
    items = []
    for it in goal["must_keep"]:
        us = {pa.units.of_line[j] for j in fl.matching_lines(rendering.lines, it) if pa.units.of_line[j] >= 0}
        pos = {n: min((p[u] for u in us if u in p), default=None) for n, p in pos_of.items()}
        items.append({"units": len(us), "ranks": pos, "lexical": bool(us & lexical)})
    page_lang = lang_of(" ".join(pa.units.texts[:300]), limit=20000)
    return {"page_lang": page_lang, "goal_lang": lang_of(goal["goal"]), "items": items, "unseen": len(unseen),
            "n_units": len(pa.units.texts)}


def cross(r: dict) -> bool:
    return bool(r["goal_lang"] and r["page_lang"] and r["goal_lang"] != r["page_lang"])


def table(rows: list[dict]) -> str:
    out = ["| sets | slice | goals | items | signal | " + " | ".join(f"@{k}" for k in KS) + " | unranked |",
           "|---|---|---|---|---|" + "---|" * (len(KS) + 1)]
    for part, in_part in (("dev-18", lambda r: r["set"] == "dev-18"), ("corpus sets", lambda r: r["set"] != "dev-18")):
        for name, keep in (("cross-language", cross), ("same language", lambda r: not cross(r))):
            rs = [r for r in rows if in_part(r) and keep(r)]
            its = [i for r in rs for i in r["items"] if i["units"]]
            for sig in SIGNALS:
                cells = [sum(1 for i in its if i["ranks"][sig] is not None and i["ranks"][sig] < k) for k in KS]
                miss = sum(1 for i in its if i["ranks"][sig] is None)
                out.append(f"| {part} | {name} | {len(rs)} | {len(its)} | {sig} | " + " | ".join(map(str, cells))
                           + f" | {miss} |")
            no_lex = [i for i in its if not i["lexical"]]
            cells = [sum(1 for i in no_lex if i["ranks"]["wl"] < k) for k in KS]
            out.append(f"| {part} | {name}: items no lexical signal ranks | | {len(no_lex)} | wl | "
                       + " | ".join(map(str, cells)) + " | |")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--group", default="choose", help="focus_tail.GROUPS: choose (corpus sets + dev-18)")
    ap.add_argument("--cache", type=Path, default=Path("runs/rp"))
    ap.add_argument("--pages", type=Path, default=HERE.parent.parent / "shared" / "corpus" / "realpages")
    ap.add_argument("--chars", type=int, default=160, help="characters of each unit embedded")
    ap.add_argument("--json", type=Path)
    a = ap.parse_args()
    from focus_tail import load
    from realpage_goals import renderings

    goals = load(a.group)
    pages = renderings(goals, a.cache, a.pages)
    rows = [{"set": g["set"], "page": g["page"], "goal": g["goal"], **ranks(g, pages[g["page"]], a.chars)} for g in goals]
    print(table(rows))
    if a.json:
        a.json.write_text(json.dumps(rows))


if __name__ == "__main__":
    main()
