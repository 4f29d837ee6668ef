"""The bundled cases under ``default`` arms with other budget floors (issue 9, twenty-seventh focus pass).

    PYTHONPATH=src .venv/bin/python benchmarks/focus_floor_cases.py --cache runs/floor/cases \
        --arm default --arm default+floor_share=0.5,floor_min=300

Arms as :func:`focus_tail._retriever` reads them (``default+field=value,...``: a :class:`RulesConfig`).
Prints items kept, case recall and mean pruning per arm (defense on, as ``pagelens eval-cases``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from focus_tail import _retriever  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--arm", action="append", required=True)
    ap.add_argument("--cache", type=Path, required=True, help="observation cache (no browser on re-runs)")
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


if __name__ == "__main__":
    main()
