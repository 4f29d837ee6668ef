"""Whether an older ``focus_learn.py data`` build holds what the current code computes (the thirtieth pass).

Every 40th ranked goal of ``--data``: its rows recomputed by :func:`focus_learn.goal_rows` from ``--cache`` and compared
with the stored rows (the stored columns; the labels too). Prints how many goals differ.

    PYTHONPATH=src .venv/bin/python benchmarks/focus_learn_rows_check.py --data runs/learn18 --cache runs/rp22 \\
        --with-set blind-9 --with-set blind-10 --with-set blind-14 --with-set blind-15
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import focus_learn as fl  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, required=True)
    ap.add_argument("--cache", type=Path, required=True)
    ap.add_argument("--pages", type=Path, default=fl.CORPUS)
    ap.add_argument("--every", type=int, default=40)
    ap.add_argument("--with-set", action="append", dest="extra", default=[], choices=list(fl.EXTRA_SETS))
    args = ap.parse_args()
    from pagelens.focus.rules import RulesRetriever

    fl.check_sets(args.data, args.extra)
    goals = {g["id"]: g for g in fl.load_goals(args.extra)}
    d = fl.loaded(args.data)
    gid, y, x = d["goal"], d["y"], d["x"]
    starts = np.flatnonzero(np.r_[True, gid[1:] != gid[:-1]])
    ends = np.r_[starts[1:], len(gid)]
    pick = list(range(0, len(starts), args.every))
    rend = fl.renderings(args.cache, {goals[int(gid[starts[i]])]["page"] for i in pick}, args.pages)
    ret = RulesRetriever()
    bad = 0
    for i in pick:
        g = goals[int(gid[starts[i]])]
        got = fl.goal_rows(ret, rend[g["page"]], g)
        old = np.asarray(x[starts[i] : ends[i]])
        if got is None or got[0].shape[0] != old.shape[0]:
            bad += 1
            print(f"goal {g['id']} ({g['page']}): rows differ", file=sys.stderr)
            continue
        w = old.shape[1]
        if not np.allclose(got[0][:, :w], old, atol=1e-9) or not np.array_equal(got[1], y[starts[i] : ends[i]]):
            bad += 1
            print(f"goal {g['id']} ({g['page']}): values differ", file=sys.stderr)
    print(f"{len(pick)} goals checked, {bad} differ")


if __name__ == "__main__":
    main()
