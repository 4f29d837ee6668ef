"""Goal items the defense's folds cost: ``default`` with the defense on, off, and on with each fold kind left out.

A fold (:mod:`pagelens.focus.notices`: a notice the agent did not open, a sentence out of place) hides text behind
one placeholder; when the text is a goal's must-keep item, the item is lost to the fold. Per goal this focuses the
same rendering three ways — the defense on (as shipped), off (``focus(..., defense=False)``: no flags, no folds),
and on with every fold left out (``notices.find`` filtered) — and, on the goals where they differ, once more per fold
kind present on the page with that kind left out. Counts items, prints one line per set and writes the rows.

    PYTHONPATH=src .venv/bin/python benchmarks/fold_cost.py --set blind-14 --cache runs/cache-g14 --json out.json
    PYTHONPATH=src .venv/bin/python benchmarks/fold_cost.py --set corpus --cache runs/realpages --json out.json

``--set corpus``: every corpus development goal file (:data:`focus_learn.FILES`) over the corpus pages
(``--pages``); a set of :data:`realpage_goals.SET_PAGES` reads its own pages (observed into ``--cache`` when absent).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

KINDS = ("dialog", "overlay", "live", "bar", "hidden", "foreign", "named")


def load(name: str, cache: Path, corpus: Path) -> tuple[list[dict], dict[str, Any]]:
    import realpage_goals as rg

    if name == "corpus":
        import focus_learn

        goals = [json.loads(x) for p in focus_learn.FILES for x in p.read_text(encoding="utf-8").splitlines()
                 if x.strip()]
        return goals, rg.observations(corpus, cache, {g["page"] for g in goals})
    goals = [g for g in rg.load_goals([name]) if g["set"] == name]
    obs: dict[str, Any] = {}
    for pages, names in rg.page_dirs(goals, corpus).items():
        obs.update(rg.observations(pages, cache / pages.name if pages != corpus else cache, names))
    return goals, obs


def main() -> None:
    import realpage_goals as rg

    from pagelens.api import render_observation
    from pagelens.focus import notices
    from pagelens.focus.apply import focus
    from pagelens.focus.base import FocusQuery
    from pagelens.focus.registry import make_retriever

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", required=True, help="corpus, or a goal set (blind-14, blind-15 ...)")
    ap.add_argument("--cache", type=Path, required=True)
    ap.add_argument("--pages", type=Path, default=HERE.parent.parent / "shared" / "corpus" / "realpages")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    goals, obs = load(args.set, args.cache, args.pages)
    ret = make_retriever("default")
    find = notices.find

    def items(r: Any, g: dict, *, defense: bool = True, drop: frozenset[str] = frozenset()) -> list[bool]:
        if drop:
            notices.find = lambda lines: tuple(n for n in find(lines) if n.kind not in drop)  # type: ignore[assignment]
        try:
            res = focus(r, FocusQuery(g["goal"]), ret, defense=defense)
        finally:
            notices.find = find  # type: ignore[assignment]
        return rg.items_ok(r, res, g["must_keep"])

    parsed: dict[str, Any] = {}
    kinds_of: dict[str, list[str]] = {}
    rows: list[dict] = []
    total = {"items": 0, "on": 0, "off": 0, "nofold": 0}
    per_kind: dict[str, list[int]] = {}
    t = time.perf_counter()
    for g in goals:
        page = g["page"]
        if page not in parsed:
            parsed[page] = render_observation(obs[page])
            kinds_of[page] = sorted({nt.kind for nt in find(parsed[page].lines)})
        r = parsed[page]
        on, off = items(r, g), items(r, g, defense=False)
        row: dict[str, Any] = {"page": page, "goal": g["goal"], "items": len(on), "on": sum(on), "off": sum(off),
                               "kinds": kinds_of[page]}
        nofold = on
        if on != off or row["kinds"]:
            nofold = items(r, g, drop=frozenset(KINDS))
            row["per_kind"] = {}
            for k in row["kinds"]:
                alone = items(r, g, drop=frozenset({k}))
                if alone != on:
                    row["per_kind"][k] = sum(alone) - sum(on)
                    cell = per_kind.setdefault(k, [0, 0])
                    cell[0 if sum(alone) > sum(on) else 1] += sum(alone) - sum(on)
            pairs = list(zip(g["must_keep"], on, off, nofold))
            row["lost"] = [m["name"][:80] for m, a, b, _ in pairs if b and not a]
            row["gained"] = [m["name"][:80] for m, a, b, _ in pairs if a and not b]
            row["lost_to_folds"] = [m["name"][:80] for m, a, _, c in pairs if c and not a]
        row["nofold"] = sum(nofold)
        for k in total:
            total[k] += row[k]
        rows.append(row)
    print(f"{args.set}: items {total['items']}, kept with the defense on {total['on']}, off {total['off']}, "
          f"on without folds {total['nofold']}; per fold kind left out (items recovered, lost): {per_kind} "
          f"({time.perf_counter() - t:.0f} s)")
    if args.json:
        args.json.write_text(json.dumps({"totals": total, "per_kind": per_kind, "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
