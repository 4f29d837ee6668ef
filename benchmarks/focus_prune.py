"""Mean pruning toward the target (issue 9, forty-third focus pass): diagnosis, simulation and gates.

Reads ``focus_tail.py run`` files (one per group, the arms ``default``, ``default@S`` knob arms, candidates).

* ``diag GROUP=FILE ...`` — base's mean pruning per page-size band (full-tree tokens) and, for the goals below 75%,
  why: page kept whole (pruning ≈ 0), budget at the floor (``budget_tokens`` ≤ ``floor_tokens`` and above the share),
  at the ceiling, else the share; their view tokens beyond ``share × total`` and the must-keep items they hold.
* ``sim FILE --at X [--at Y ...]`` — the third certainty tier (``sure2_at`` = X, share 0.15) read off the flat arm
  ``default@0.15``: a goal whose base order is sure and whose gap is ≥ X keeps that arm's row, every other goal base's
  row (exact: the fused order does not depend on the budget). Items per half, pruning, the knob at that pruning.
* ``gates GROUP=FILE[+FILE] ... --cand ARM [--loss 0.003]`` — the protocol's gates 1-3 on the sum of the groups: goal-weighted
  mean pruning, items against the knob curve (base + every ``default@S`` arm) interpolated at the candidate's pruning,
  items lost per group (``choose``: per half, parity of sha1(page)'s first byte).

    .venv/bin/python benchmarks/focus_prune.py diag choose=runs/tail/base_choose.json dev31=runs/tail/base_dev31.json
    .venv/bin/python benchmarks/focus_prune.py gates choose=runs/tail/c_choose.json ... --cand default+ceiling_tokens=4000
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
from pathlib import Path

BANDS = ((0, 800, "< 800"), (800, 1500, "800–1.5k"), (1500, 3000, "1.5–3k"), (3000, 6000, "3–6k"),
         (6000, 10000, "6–10k"), (10000, 20000, "10–20k"), (20000, 10**12, "≥ 20k"))
FLOOR, CEILING, SURE_AT, SURE, UNSURE = 800, 6000, 3.5, 0.20, 0.40


def _load(spec: str) -> tuple[str, list[dict]]:
    """``GROUP=FILE[+FILE...]``: the runs of one group, their arms joined goal by goal (same goals, same order)."""
    name, _, paths = spec.partition("=")
    runs = [json.loads(Path(p).read_text()) for p in paths.split("+")]
    rows = runs[0]
    for other in runs[1:]:
        assert [r["goal"] for r in other] == [r["goal"] for r in rows], f"{name}: runs of different goals"
        rows = [{**r, "arms": {**r["arms"], **{k: v for k, v in o["arms"].items() if k not in r["arms"]}}}
                for r, o in zip(rows, other)]
    return name, rows


def _half(page: str) -> int:
    return hashlib.sha1(page.encode()).digest()[0] % 2


def _kept(rows: list[dict], arm: str) -> int:
    return sum(sum(r["arms"][arm]["ok"]) for r in rows)


def _share(arm: dict) -> float:
    return SURE if arm.get("certainty", {}).get("gap", 0.0) >= SURE_AT else UNSURE


def why(r: dict) -> str:
    a = r["arms"]["default"]
    b, t = a.get("budget_tokens"), r["tokens"]
    if b is None or a["pruning"] <= 0.005:
        return "whole"
    if b >= t:
        return "floor (page)"
    if b <= FLOOR and _share(a) * t < FLOOR:
        return "floor"
    if b >= CEILING:
        return "ceiling"
    return "share"


def diag(args: argparse.Namespace) -> None:
    for spec in args.files:
        g, rows = _load(spec)
        print(f"\n### {g}: {len(rows)} goals, {sum(len(r['must_keep']) for r in rows)} items, base "
              f"{_kept(rows, 'default')} kept, mean pruning {statistics.mean(r['arms']['default']['pruning'] for r in rows):.2%}")
        print("| band | goals | items kept / items | mean pruning | below 75% | of them: whole / floor (page) / floor / ceiling / share |")
        print("|---|---|---|---|---|---|")
        for lo, hi, name in BANDS:
            rs = [r for r in rows if lo <= r["tokens"] < hi]
            if not rs:
                continue
            low = [r for r in rs if r["arms"]["default"]["pruning"] < 0.75]
            cnt = {k: sum(why(r) == k for r in low) for k in ("whole", "floor (page)", "floor", "ceiling", "share")}
            print(f"| {name} | {len(rs)} | {_kept(rs, 'default')} / {sum(len(r['must_keep']) for r in rs)} | "
                  f"{statistics.mean(r['arms']['default']['pruning'] for r in rs):.1%} | {len(low)} | "
                  + " / ".join(str(v) for v in cnt.values()) + " |")
        low = [r for r in rows if r["arms"]["default"]["pruning"] < 0.75]
        beyond = sum(max(0.0, (1 - r["arms"]["default"]["pruning"]) * r["tokens"] - _share(r["arms"]["default"]) * r["tokens"])
                     for r in low)
        pts = sum(0.75 - r["arms"]["default"]["pruning"] for r in low) / len(rows) * 100
        print(f"below 75%: {len(low)} goals ({len(low) / len(rows):.0%}), {sum(len(r['must_keep']) for r in low)} items "
              f"({_kept(low, 'default')} kept); view tokens beyond share × total {beyond:,.0f}; they sit {pts:.2f} points of "
              f"the group's mean below 75%; by reason (goals, items kept): "
              + "; ".join(f"{k} {sum(why(r) == k for r in low)}, {_kept([r for r in low if why(r) == k], 'default')}"
                          for k in ("whole", "floor (page)", "floor", "ceiling", "share")))


def knob_at(points: list[tuple[float, float]], p: float) -> float:
    """Items on the knob curve (pruning, items) at pruning ``p``, linear between points, extended past the ends."""
    pts = sorted(points)
    for (p0, k0), (p1, k1) in zip(pts, pts[1:]):
        if p <= p1 or (p1, k1) == pts[-1]:
            return k0 + (k1 - k0) * (p - p0) / (p1 - p0) if p1 != p0 else k0
    return pts[0][1]


def _figures(groups: dict[str, list[dict]], arm: str) -> tuple[int, float]:
    rows = [r for rs in groups.values() for r in rs]
    return _kept(rows, arm), statistics.mean(r["arms"][arm]["pruning"] for r in rows)


def gates(args: argparse.Namespace) -> None:
    groups = dict(_load(s) for s in args.files)
    rows = [r for rs in groups.values() for r in rs]
    knobs = [a for a in rows[0]["arms"] if a.startswith("default@")]
    bk, bp = _figures(groups, "default")
    curve = [(bp, float(bk)), *((_figures(groups, a)[1], float(_figures(groups, a)[0])) for a in knobs)]
    n = sum(len(r["must_keep"]) for r in rows)
    print(f"sum of {', '.join(groups)}: {len(rows)} goals, {n} items")
    print("| arm | items | mean pruning | Δ pruning | knob at that pruning | gate 1 (≥ +%.1f) | gate 2 (> knob) |" % args.gain)
    print("|---|---|---|---|---|---|---|")
    for a in ["default", *knobs, *args.cand]:
        k, p = _figures(groups, a)
        kn = knob_at(curve, p)
        print(f"| {a} | {k} | {p:.2%} | {(p - bp) * 100:+.2f} | {kn:.1f} | "
              f"{'yes' if (p - bp) * 100 >= args.gain else 'no'} | {'yes' if k > kn else 'no'} |")
    print("\nitems lost per set (gate 3: ≤ %.1f%% of the items, rounded down)" % (args.loss * 100))
    print("| arm | " + " | ".join(f"{g}" for g in groups) + " |")
    print("|---|" + "---|" * len(groups))
    for a in [*knobs, *args.cand]:
        cells = []
        for g, rs in groups.items():
            parts = [[r for r in rs if _half(r["page"]) == h] for h in (0, 1)] if g in ("choose", "check") else [rs]
            sub = []
            for p in parts:
                lost = _kept(p, "default") - _kept(p, a)
                cap = int(args.loss * sum(len(r["must_keep"]) for r in p))
                sub.append(f"{lost:+d}/{cap}{'' if lost <= cap else ' FAIL'}")
            cells.append(", ".join(sub))
        print(f"| {a} | " + " | ".join(cells) + " |")


def sim(args: argparse.Namespace) -> None:
    rows = json.loads(Path(args.file).read_text())
    gaps = sorted(r["arms"]["default"].get("certainty", {}).get("gap", 0.0) for r in rows
                  if r["arms"]["default"].get("certainty", {}).get("gap", 0.0) >= SURE_AT)
    q = [gaps[int(len(gaps) * f)] for f in (0.25, 0.5, 0.75)] if gaps else []
    print(f"sure goals: {len(gaps)} of {len(rows)}; gap quartiles {', '.join(f'{x:.2f}' for x in q)}")
    knobs = [a for a in rows[0]["arms"] if a.startswith("default@")]
    curve = [(statistics.mean(r["arms"][a]["pruning"] for r in rows), float(_kept(rows, a))) for a in ["default", *knobs]]
    ats = args.at or [round(x * 2) / 2 for x in q]
    base = [_kept([r for r in rows if _half(r["page"]) == h], "default") for h in (0, 1)]
    bp = statistics.mean(r["arms"]["default"]["pruning"] for r in rows)
    print(f"base: halves {base[0]} / {base[1]}, {sum(base)}, {bp:.2%}")
    print("| sure2_at | goals moved | half 0 | half 1 | items | mean pruning | knob at it |")
    print("|---|---|---|---|---|---|---|")
    for x in ats:
        def pick(r: dict) -> dict:
            g = r["arms"]["default"].get("certainty", {}).get("gap", 0.0)
            return r["arms"]["default@0.15"] if g >= SURE_AT and g >= x else r["arms"]["default"]
        moved = sum(pick(r) is not r["arms"]["default"] for r in rows)
        h = [sum(sum(pick(r)["ok"]) for r in rows if _half(r["page"]) == k) for k in (0, 1)]
        p = statistics.mean(pick(r)["pruning"] for r in rows)
        print(f"| {x} | {moved} | {h[0]} ({h[0] - base[0]:+d}) | {h[1]} ({h[1] - base[1]:+d}) | {sum(h)} | {p:.2%} "
              f"({(p - bp) * 100:+.2f}) | {knob_at(curve, p):.1f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("diag")
    d.add_argument("files", nargs="+")
    g = sub.add_parser("gates")
    g.add_argument("files", nargs="+")
    g.add_argument("--cand", action="append", default=[])
    g.add_argument("--gain", type=float, default=1.5)
    g.add_argument("--loss", type=float, default=0.003)
    s = sub.add_parser("sim")
    s.add_argument("file")
    s.add_argument("--at", type=float, action="append")
    args = ap.parse_args()
    {"diag": diag, "gates": gates, "sim": sim}[args.cmd](args)


if __name__ == "__main__":
    main()
