"""Two arms of a refit, out of fold by group (issue 9, h19-refit2): items and pruning per group of families.

Reads row files of ``focus_learn_oof.py --by group`` (one or more labels: an arm and a seed each, e.g.
``gbdt.nodev@0.29`` / ``gbdt.dev18@0.29``) and prints, per group (``focus_learn.FAMILY_GROUPS``; the checked
set ``--check`` apart) and over the choosing groups, goals, items kept, item / case recall and mean pruning;
then, for each ``--pair BASE OTHER``, items OTHER − BASE per group and the goals gaining / losing (goals
matched by set and id).

    .venv/bin/python benchmarks/focus_refit_arms.py runs/learn18/without_f*.json runs/learn19/with_f*.json \\
        --check blind-15 --pair gbdt.nodev@0.29 gbdt.dev18@0.29
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import focus_learn as fl  # noqa: E402
import focus_learn_oof as oof  # noqa: E402


def group_of(row: dict, check: set[str]) -> str:
    return f"check {row['set']}" if row["set"] in check else list(fl.FAMILY_GROUPS)[row["fold"]]


def line(rows: list[dict]) -> str:
    n, recall, case, pruning = oof.summary(rows)
    return (f"{n} | {sum(r['kept'] for r in rows)}/{sum(r['items'] for r in rows)} | {recall:.3f} | {case:.3f} | "
            f"{100 * pruning:.2f}%")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", type=Path, nargs="+")
    ap.add_argument("--check", action="append", default=[])
    ap.add_argument("--pair", nargs=2, action="append", default=[], metavar=("BASE", "OTHER"))
    args = ap.parse_args()
    check = set(args.check)
    rows = [r for f in args.files for r in json.loads(f.read_text())]
    by: dict[tuple[str, str], list[dict]] = {}
    for r in rows:
        by.setdefault((r["retriever"], group_of(r, check)), []).append(r)
        if r["set"] not in check:
            by.setdefault((r["retriever"], "choosing, sum"), []).append(r)
    print("| arm | group | goals | items kept / items | item recall | case recall | mean pruning |\n|---|---|---|---|---|---|---|")
    for (label, group), rs in sorted(by.items()):
        print(f"| {label} | {group} | {line(rs)} |")
    for base, other in args.pair:
        print(f"\n{other} − {base}:")
        for group in sorted({g for _l, g in by}):
            a = {(r["set"], r["id"]): r["kept"] for r in by.get((base, group), [])}
            b = {(r["set"], r["id"]): r["kept"] for r in by.get((other, group), [])}
            if a.keys() != b.keys():
                raise SystemExit(f"{group}: {base} and {other} scored different goals")
            d = [b[k] - a[k] for k in a]
            print(f"  {group}: {sum(d):+d} items, goals +{sum(x > 0 for x in d)} / −{sum(x < 0 for x in d)}")


if __name__ == "__main__":
    main()
