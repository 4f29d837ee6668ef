"""Retrievers on the dev-6 goal set (``benchmarks/data/realpage_goals_dev6.jsonl``).

dev-6 is development data written for the fourth focus pass (issue 9) from the pages' full trees,
before any retriever ran on it: cross-lingual forms and controls, wide tables whose cells need a
row key and a column header, values beside their labels. It runs through the goal benchmark's
own harness (``realpage_goals.observations`` / ``evaluate`` / ``table``) on the same cached trees.

    .venv/bin/python benchmarks/focus_dev6.py [--cache runs/realpages] [--retriever default ...] [--json out.json]
    .venv/bin/python benchmarks/focus_dev6.py --goals benchmarks/data/realpage_goals_dev8.jsonl --set dev-8a

dev-8 (``realpage_goals_dev8.jsonl``, fifth pass) is split by page into ``dev-8a`` (misses read
while developing) and ``dev-8b`` (run only at the start and the end: the generalisation check).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
DEV6 = HERE / "data" / "realpage_goals_dev6.jsonl"


def main() -> None:
    from realpage_goals import evaluate, observations, table

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", type=Path, default=HERE.parent.parent / "shared" / "corpus" / "realpages")
    ap.add_argument("--cache", type=Path, default=HERE.parent / "runs" / "realpages")
    ap.add_argument("--retriever", action="append", dest="retrievers")
    ap.add_argument("--goals", type=Path, default=DEV6)
    ap.add_argument("--set", action="append", dest="sets", help="only goals of this set (repeatable)")
    ap.add_argument("--budget", type=float)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    goals = [json.loads(line) for line in args.goals.read_text(encoding="utf-8").splitlines() if line.strip()]
    if args.sets:
        goals = [g for g in goals if g["set"] in args.sets]
    retrievers = args.retrievers or ["default", "bm25-400"]
    observed = observations(args.pages, args.cache, {g["page"] for g in goals})
    rows = evaluate(goals, observed, retrievers, budget=args.budget)
    print(table(rows, retrievers, sorted({g["set"] for g in goals})))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
