"""Dense passages (issue 9, fortieth focus pass): where a gap item's window ranks under window-BM25, and its cost.

Reads a ``focus_tail.py run`` file holding the arms ``default`` and ``bm25-400``; for every must-keep item bm25-400
keeps and ``default`` drops (the gap, :func:`focus_gap.gap_items`), and for every window size asked, records the best
rank of a window holding the item's unit (:func:`pagelens.focus.passages.ranked_windows`), whether the item's unit
lies in the best 1 / 2 non-overlapping windows, and those windows' tokens not yet in ``default``'s view. Also, over
every goal of the file (``--all``), what the best window would add to ``default``'s view on average (tokens).
``knob`` sums arms over groups against the budget knob (the pass's gate 2).

    PYTHONPATH=src .venv/bin/python benchmarks/focus_passages.py runs/tail/base_choose.json --cache runs/rp \
        --pages /work/shared/corpus/realpages --sizes 150,250,400
    .venv/bin/python benchmarks/focus_passages.py knob choose=runs/tail/base_choose.json,runs/tail/cand_choose.json \
        dev31=runs/tail/base_dev31.json,runs/tail/cand_dev31.json dev35=...
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from focus_gap import band, gap_items  # noqa: E402
from realpage_goals import item_lines, renderings  # noqa: E402


def knob(files: list[str], base: str = "default", knobs: tuple[str, ...] = ("default@0.33", "default@0.36")) -> None:
    """Gate 2: every arm's items and goal-weighted mean pruning summed over the groups (each group given as one or more
    ``focus_tail.py run`` files, ``group=file,file``), against the budget knob's items interpolated linearly at the
    arm's pruning between the knob points (``base`` and ``knobs``; beyond them: the nearest segment extended)."""
    arms: dict[str, list[tuple[int, float]]] = {}
    groups = []
    for spec in files:
        name, _, paths = spec.partition("=")
        groups.append(name)
        seen: dict[str, list[tuple[int, float]]] = {}
        for f in paths.split(","):
            here: dict[str, list[tuple[int, float]]] = {}
            for r in json.loads(Path(f).read_text()):
                for a, v in r["arms"].items():
                    here.setdefault(a, []).append((sum(v["ok"]), v["pruning"]))
            for a, v in here.items():
                seen.setdefault(a, v)  # an arm in two files of a group (the base arm): the first file's rows
        for a, v in seen.items():
            arms.setdefault(a, []).extend(v)
    tot = {a: (sum(i for i, _ in v), statistics.mean(p for _, p in v), len(v)) for a, v in arms.items()}
    pts = sorted((tot[k][1], tot[k][0]) for k in (base, *knobs) if k in tot)

    def at(p: float) -> float:
        segs = list(zip(pts, pts[1:], strict=False))
        for (p0, i0), (p1, i1) in segs:
            if p0 <= p <= p1:
                return i0 + (i1 - i0) * (p - p0) / (p1 - p0) if p1 > p0 else max(i0, i1)
        (p0, i0), (p1, i1) = segs[0] if p < pts[0][0] else segs[-1]
        return i0 + (i1 - i0) * (p - p0) / (p1 - p0) if p1 > p0 else max(i0, i1)

    bi, bp, _ = tot[base]
    print(f"groups: {', '.join(groups)}")
    print("| arm | goals | items | mean pruning | knob items at that pruning | beats the knob (or exempt) |")
    print("|---|---|---|---|---|---|")
    for a, (i, p, n) in tot.items():
        k = at(p)
        ok = "exempt" if abs(p - bp) <= 0.003 else ("yes" if i > k else "no")
        print(f"| {a} | {n} | {i} ({i - bi:+d}) | {p:.2%} ({(p - bp) * 100:+.2f}) | {k:.1f} | {ok} |")


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "knob":
        knob(sys.argv[2:])
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("json_in", type=Path)
    ap.add_argument("--cache", type=Path, default=Path("runs/rp"))
    ap.add_argument("--pages", type=Path, required=True)
    ap.add_argument("--sizes", default="150,250,400")
    ap.add_argument("--all", type=int, default=0, help="also the cost over the first N goals of the file")
    args = ap.parse_args()
    from pagelens.focus.analysis import analysis_of
    from pagelens.focus.apply import focus
    from pagelens.focus.base import FocusQuery
    from pagelens.focus.passages import best_windows, ranked_windows, unit_costs
    from pagelens.focus.rules import RulesConfig, RulesRetriever

    rows = json.loads(args.json_in.read_text())
    sizes = [int(s) for s in args.sizes.split(",")]
    gap = gap_items(rows)
    cfg = RulesConfig()
    ret = RulesRetriever(cfg)
    wanted = [r for r, _ in gap] + rows[: args.all]
    parsed = renderings(wanted, args.cache, args.pages)
    ranks: dict[int, Counter[str]] = {s: Counter() for s in sizes}
    in1: Counter[int] = Counter()
    in2: Counter[int] = Counter()
    found = 0
    for r, j in gap:
        rend = parsed[r["page"]]
        hits = item_lines(rend.lines, r["must_keep"][j])
        if not hits:
            continue
        pa = analysis_of(rend, cfg.limits, cfg.unit_text_chars)
        k = pa.units.of_line[hits[0]]
        if k < 0:
            continue
        found += 1
        for s in sizes:
            rw = ranked_windows(pa, r["goal"], s)
            rank = next((n for n, (_sc, a, b) in enumerate(rw) if a <= k < b), None)
            ranks[s][band(rank, (0, 1, 2, 3, 5, 10, 20))] += 1
            b1 = best_windows(pa, r["goal"], s, 2)
            in1[s] += any(a <= k < b for a, b in b1[:1])
            in2[s] += any(a <= k < b for a, b in b1)
    print(f"gap items: {len(gap)}; on the page in a unit: {found}")
    for s in sizes:
        print(f"size {s}: item's window rank {dict(sorted(ranks[s].items()))}; in best 1: {in1[s]}, in best 2: {in2[s]}")
    if args.all:
        for s in sizes:
            adds: list[tuple[int, int]] = []
            for r in rows[: args.all]:
                rend = parsed[r["page"]]
                pa = analysis_of(rend, cfg.limits, cfg.unit_text_chars)
                if pa.page.total <= cfg.small_page_tokens:
                    continue
                res = focus(rend, FocusQuery(r["goal"]), ret)
                kept = {p for p, ln in enumerate(rend.lines) if ln.no in res.kept}
                costs = unit_costs(pa)
                w = best_windows(pa, r["goal"], s, 2)
                new = [sum(costs[u] for u in range(a, b) if pa.units.heads[u] not in kept) for a, b in w]
                adds.append((new[0] if new else 0, sum(new)))
            print(f"size {s}: tokens the best window / two would add over default's view, mean "
                  f"{statistics.mean(x for x, _ in adds):.0f} / {statistics.mean(y for _, y in adds):.0f} "
                  f"(median {statistics.median(x for x, _ in adds):.0f} / {statistics.median(y for _, y in adds):.0f}; "
                  f"{len(adds)} goals)")


if __name__ == "__main__":
    main()
