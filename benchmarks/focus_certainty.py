"""Items kept per budget share, by how sure the fused order is (issue 9, twenty-ninth focus pass).

Reads a ``focus_tail.py run`` file whose arms are flat shares (``default@0.15`` ...; each row records the
order's certainty, :mod:`pagelens.focus.certainty`, which does not depend on the budget) and prints, per
quantile of each certainty measure, the items kept and the mean pruning at each share; ``rules`` also prints
what a two-level rule (``share = sure if certain else unsure``) would give, read off the same rows (exact:
the order, hence the view at a share, does not depend on the rule).

    PYTHONPATH=src .venv/bin/python benchmarks/focus_certainty.py curve runs/tail/diag.json
    PYTHONPATH=src .venv/bin/python benchmarks/focus_certainty.py rules runs/tail/diag.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

MEASURES = ("gap", "mass", "near", "question")


def _measure(row: dict[str, Any], name: str) -> float:
    """The measure, larger when surer; a goal on a page kept whole (no order, no budget) counts as sure."""
    if name == "question":
        from pagelens.focus.terms import is_question

        return 1.0 if is_question(row["goal"]) else 0.0
    cert = next((a["certainty"] for a in row["arms"].values() if "certainty" in a), None)
    if cert is None:
        return float("inf")
    v = float(cert[name])
    return -v if name == "near" else v  # larger: surer


def _share(arm: str) -> float:
    return float(arm.partition("@")[2])


def quantiles(rows: list[dict], name: str, q: int) -> list[list[dict]]:
    vals = sorted(_measure(r, name) for r in rows)
    if name == "question":
        return [[r for r in rows if _measure(r, name) == v] for v in (0.0, 1.0)]
    cuts = [vals[len(vals) * i // q] for i in range(1, q)]
    out: list[list[dict]] = [[] for _ in range(q)]
    for r in rows:
        v = _measure(r, name)
        out[sum(v >= c for c in cuts)].append(r)
    return out


def _rows(files: list[Path]) -> list[dict]:
    """The rows of one or more runs of the same goals, their arms merged."""
    rows = json.loads(files[0].read_text())
    for f in files[1:]:
        for r, o in zip(rows, json.loads(f.read_text()), strict=True):
            if (r["page"], r["goal"]) != (o["page"], o["goal"]):
                raise ValueError(f"{f}: not the same goals in the same order")
            r["arms"].update(o["arms"])
    return rows


def curve(args: argparse.Namespace) -> None:
    rows = _rows(args.json_in)
    arms = sorted((a for a in rows[0]["arms"] if "@" in a), key=_share)
    for name in MEASURES:
        print(f"\n### {name} (quantile 1 = least sure)")
        print("| quantile | range | goals | items | " + " | ".join(f"{a} kept / pruning" for a in arms) + " | gain 0.15→0.30 | gain 0.30→0.45 |")
        print("|---|---|---|---|" + "---|" * (len(arms) + 2))
        for i, rs in enumerate(quantiles(rows, name, args.q)):
            if not rs:
                continue
            ms = [_measure(r, name) for r in rs]
            lo, hi = min(ms), max(ms)
            if name == "near":
                lo, hi = -hi, -lo
            kept = [sum(sum(r["arms"][a]["ok"]) for r in rs) for a in arms]
            cells = [f"{k} / {statistics.mean(r['arms'][a]['pruning'] for r in rs):.1%}" for k, a in zip(kept, arms, strict=True)]
            at = {_share(a): k for a, k in zip(arms, kept, strict=True)}
            gains = [f"{at[b] - at[a]:+d}" if a in at and b in at else "–" for a, b in ((0.15, 0.30), (0.30, 0.45))]
            print(f"| {i + 1} | {lo:.3g}–{hi:.3g} | {len(rs)} | {sum(len(r['must_keep']) for r in rs)} | "
                  + " | ".join(cells) + " | " + " | ".join(gains) + " |")


def rules(args: argparse.Namespace) -> None:
    rows = _rows(args.json_in)
    arms = sorted((a for a in rows[0]["arms"] if "@" in a), key=_share)
    items = sum(len(r["must_keep"]) for r in rows)
    print("| rule | goals sure | items kept | mean pruning |")
    print("|---|---|---|---|")
    for a in arms:
        print(f"| flat {a} | | {sum(sum(r['arms'][a]['ok']) for r in rows)} / {items} | "
              f"{statistics.mean(r['arms'][a]['pruning'] for r in rows):.2%} |")
    for name in args.measure or MEASURES:
        vals = sorted(_measure(r, name) for r in rows)
        cuts = sorted({0.5} if name == "question" else {vals[len(vals) * p // 100] for p in (25, 50, 75)})
        for c in cuts:
            sure = [_measure(r, name) >= c for r in rows]
            for hi in arms:
                for lo in arms:
                    if _share(lo) >= _share(hi):
                        continue
                    kept = sum(sum(r["arms"][lo if s else hi]["ok"]) for r, s in zip(rows, sure, strict=True))
                    pr = statistics.mean(r["arms"][lo if s else hi]["pruning"] for r, s in zip(rows, sure, strict=True))
                    shown = -c if name == "near" else c
                    cmp = "<=" if name == "near" else ">="
                    print(f"| {name} {cmp} {shown:.3g}: {_share(lo)} else {_share(hi)} | {sum(sure)} | {kept} / {items} | {pr:.2%} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("curve")
    c.add_argument("json_in", type=Path, nargs="+")
    c.add_argument("--q", type=int, default=4)
    r = sub.add_parser("rules")
    r.add_argument("json_in", type=Path, nargs="+")
    r.add_argument("--measure", action="append", help="only these measures")
    args = ap.parse_args()
    {"curve": curve, "rules": rules}[args.cmd](args)


if __name__ == "__main__":
    main()
