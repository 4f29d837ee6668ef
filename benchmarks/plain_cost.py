"""What defense step 2b (h34-plain's P2, ``defense.JOIN_BLOCKS``) costs on the clean corpus pages.

Each page of a copy of ``runs/defense-cache`` is detected cold (the memo caches emptied as ``defense_fp.py`` does),
fastest of 3 rounds with the step off and on in alternating order, in one tree; prints the p95 of both and the pages
the step slows most (process time).

    PYTHONPATH=/tmp/h34p-P2/src .venv/bin/python benchmarks/plain_cost.py --cache runs/defense-cache
"""

from __future__ import annotations

import argparse
import pickle
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cache", type=Path, default=Path("runs/defense-cache"))
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args(argv)
    from defense_fp import _clear_caches

    import pagelens.focus.defense as d

    pages = [(f.name, pickle.loads(f.read_bytes())) for f in sorted(a.cache.rglob("corpus_*.pkl"))]
    pages = [(n, r) for n, r in pages if hasattr(r, "lines")]
    best: dict[tuple[str, bool], float] = {}
    for k in range(a.rounds):
        for mode in ((False, True) if k % 2 else (True, False)):
            d.JOIN_BLOCKS = mode
            for name, r in pages:
                _clear_caches(d.detect)
                t = time.process_time()
                d.detect(r)
                best[(name, mode)] = min(best.get((name, mode), 9e9), time.process_time() - t)

    def p95(xs: list[float]) -> float:
        xs = sorted(xs)
        return xs[round(0.95 * (len(xs) - 1))]

    for mode in (False, True):
        print(f"JOIN_BLOCKS={mode}: p95 {p95([v for (_, m), v in best.items() if m == mode]) * 1000:.2f} ms")
    for name, _ in sorted(pages, key=lambda x: best[(x[0], False)] - best[(x[0], True)])[:5]:
        print(f"  {name}: {best[(name, False)] * 1000:.2f} -> {best[(name, True)] * 1000:.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
