"""B2's threshold re-mapped to another fusion model's log-odds scale by a quantile match (issue 9, thirty-first pass).

The certainty budget (:mod:`pagelens.focus.certainty`, B2) calls a goal *sure* when its order comes from the learned
fusion and the log-odds gap between its 1st and 10th unit is at least ``certain_at``. A new model puts its log-odds on
another scale; this picks the ``certain_at`` under which the new model calls the same share of goals sure as the
reference (the shipped model at its threshold) does, on the same goals. It reads no must-keep item.

    # the gaps of the code on PYTHONPATH (no items are scored)
    PYTHONPATH=src .venv/bin/python benchmarks/focus_certain_at.py gaps --group choose --cache runs/c31_rp \
        --pages /work/shared/corpus/realpages --json runs/g/new_gaps.json
    # the reference share at 3.5 (a gaps file or a ``focus_tail.py run`` file of arm ``default``) and the matched threshold
    .venv/bin/python benchmarks/focus_certain_at.py match --ref runs/g/base_choose.json --new runs/g/new_gaps.json --at 3.5
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def gaps(args: argparse.Namespace) -> None:
    from focus_tail import load
    from realpage_goals import renderings

    from pagelens.focus.apply import focus
    from pagelens.focus.base import FocusQuery
    from pagelens.focus.registry import make_retriever

    goals = load(args.group)
    parsed = renderings(goals, args.cache, args.pages)
    ret = make_retriever("default")
    out = []
    for g in goals:
        info = focus(parsed[g["page"]], FocusQuery(g["goal"]), ret).info
        out.append({"page": g["page"], "goal": g["goal"], "fusion": info.get("fusion", ""),
                    "gap": (info.get("certainty") or {}).get("gap")})
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(out))
    print(f"{len(out)} goals; {sum(r['fusion'] == 'learned' for r in out)} ordered by the learned fusion")


def _rows(path: Path) -> list[tuple[str, float | None]]:
    """(fusion, gap) per goal, from a ``gaps`` file or a ``focus_tail.py run`` file (its arm ``default``)."""
    rows = json.loads(path.read_text())
    got = []
    for r in rows:
        if "arms" in r:  # focus_tail: the gap is recorded only for a default selection; its fusion is not
            c = r["arms"]["default"].get("certainty")
            got.append(("?", None if c is None else c["gap"]))
        else:
            got.append((r["fusion"], r["gap"]))
    return got


def sure_share(rows: list[tuple[str, float | None]], at: float) -> float:
    """The share of all goals whose gap is at least ``at`` (a goal without a gap, or not ordered by the learned
    fusion when that is known, is not sure)."""
    return sum(1 for f, g in rows if g is not None and f in ("learned", "?") and g >= at) / max(1, len(rows))


def matched(gaps_new: list[float], n_goals: int, share: float) -> float:
    """The threshold under which ``round(share * n_goals)`` goals are sure: halfway between the k-th and the
    (k+1)-th largest gap, rounded to 3 decimals (k = that count)."""
    g = sorted(gaps_new, reverse=True)
    k = round(share * n_goals)
    if k <= 0:
        return round(g[0] + 1.0, 3)
    if k >= len(g):
        return round(g[-1] - 1.0, 3)
    return round((g[k - 1] + g[k]) / 2, 3)


def match(args: argparse.Namespace) -> None:
    if args.by_kind:
        return match_by_kind(args)
    ref, new = _rows(args.ref), _rows(args.new)
    share = sure_share(ref, args.at)
    learned = [g for f, g in new if g is not None and f in ("learned", "?")]
    at = matched(learned, len(new), share)
    print(f"reference: {share:.4f} of {len(ref)} goals sure at {args.at}")
    print(f"new model: {sure_share(new, args.at):.4f} sure at {args.at}; {sure_share(new, at):.4f} sure at "
          f"certain_at = {at}")


def match_by_kind(args: argparse.Namespace) -> None:
    """The same match within question goals (:func:`pagelens.focus.terms.is_question`) and within the others."""
    from pagelens.focus.terms import is_question

    ref_rows, new_rows = json.loads(args.ref.read_text()), json.loads(args.new.read_text())
    assert [r["goal"] for r in ref_rows] == [r["goal"] for r in new_rows], "the two files hold other goals"
    ref, new = _rows(args.ref), _rows(args.new)
    for name, want in (("question", True), ("other", False)):
        idx = [i for i, r in enumerate(ref_rows) if is_question(r["goal"]) == want]
        r, n = [ref[i] for i in idx], [new[i] for i in idx]
        share = sure_share(r, args.at)
        at = matched([g for f, g in n if g is not None and f in ("learned", "?")], len(n), share)
        print(f"{name} ({len(idx)} goals): reference {share:.4f} sure at {args.at}; new model {sure_share(n, args.at):.4f} "
              f"at {args.at}, {sure_share(n, at):.4f} at {at}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("gaps")
    a.add_argument("--group", required=True)
    a.add_argument("--cache", type=Path, required=True)
    a.add_argument("--pages", type=Path, required=True)
    a.add_argument("--json", type=Path, required=True)
    m = sub.add_parser("match")
    m.add_argument("--ref", type=Path, required=True)
    m.add_argument("--new", type=Path, required=True)
    m.add_argument("--at", type=float, default=3.5)
    m.add_argument("--by-kind", action="store_true", help="question goals and the others matched apart (A2)")
    args = ap.parse_args()
    (gaps if args.cmd == "gaps" else match)(args)


if __name__ == "__main__":
    main()
