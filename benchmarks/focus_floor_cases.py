"""The bundled cases under ``default`` arms with other budget floors (issue 9, twenty-seventh focus pass).

    PYTHONPATH=src .venv/bin/python benchmarks/focus_floor_cases.py --cache runs/floor/cases \
        --arm default --arm default+floor_share=0.5,floor_min=300

Arms as :func:`focus_tail._retriever` reads them (``default+field=value,...``: a :class:`RulesConfig`).
Prints items kept, case recall and mean pruning per arm (defense on, as ``pagelens eval-cases``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from focus_tail import SMALL_BANDS, _retriever  # noqa: E402


def page_totals(cases: list, cache: Path) -> dict[int, int]:
    """Each case's full-tree tokens as ``default`` counts them (``PageAnalysis.page.total``), from the cache."""
    from pagelens.bench.evalcases import _cached_observe
    from pagelens.focus.analysis import analysis_of
    from pagelens.focus.rules import RulesConfig
    from pagelens.focus.view import render_observation

    cfg = RulesConfig()
    out = {}
    for n, case in enumerate(cases):
        try:
            obs = _cached_observe(None, case, cache)  # type: ignore[arg-type]  # cached by run_cases
        except AttributeError:  # not cached (the page failed to load)
            continue
        out[n] = analysis_of(render_observation(obs), cfg.limits, cfg.unit_text_chars).page.total
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--arm", action="append", required=True)
    ap.add_argument("--cache", type=Path, required=True, help="observation cache (no browser on re-runs)")
    ap.add_argument("--bands", action="store_true", help="also items kept and mean pruning per page-size band "
                    "(the full tree's tokens the budget is a share of, as focus_tail.py)")
    ap.add_argument("--json", type=Path, help="write per case and arm: items kept, pruning, full tokens")
    args = ap.parse_args()
    from pagelens.bench.cases import bundled_paths, load_cases
    from pagelens.bench.evalcases import run_cases

    path, pages = bundled_paths()
    rets = []
    for a in args.arm:
        r = _retriever(a)
        r.name = a  # one score per arm
        rets.append(r)
    res = run_cases(load_cases(path), rets, pages_dir=pages, obs_cache=args.cache)
    print("| arm | items kept / items | case recall | mean pruning |\n|---|---|---|---|")
    for name, s in res["retrievers"].items():
        print(f"| {name} | {s['items_kept']} / {s['items']} | {s['case_recall']:.3f} | {s['pruning']:.1%} |")
    rows = {name: s["cases_rows"] for name, s in res["retrievers"].items()}
    totals = page_totals(load_cases(path), args.cache)
    for rs in rows.values():
        for r in rs:
            r["tokens"] = totals.get(r["case"], 0)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({a: [{k: r[k] for k in ("case", "id", "tokens", "full_tokens", "focused_tokens", "pruning",
                                                                "kept_items")} for r in rs] for a, rs in rows.items()}))
    if args.bands:
        print("\n| band (tokens) | cases | items | " + " | ".join(f"{a} kept / pruning" for a in rows) + " |")
        print("|---|---|---|" + "---|" * len(rows))
        for lo, hi, band in (*SMALL_BANDS, (0, 10**12, "all")):
            per = {a: [r for r in rs if lo <= r["tokens"] < hi] for a, rs in rows.items()}
            first = next(iter(per.values()))
            if not first:
                continue
            cells = [f"{sum(sum(r['kept_items']) for r in rs)} / {statistics.mean(r['pruning'] for r in rs):.1%}"
                     for rs in per.values()]
            print(f"| {band} | {len(first)} | {sum(len(r['kept_items']) for r in first)} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
