"""What stays allocated after ``focus_view`` (tracemalloc, by file), and how a long-running
process grows over many pages (issue 13 item 5, h6-render).

    # what one focus_view of one observation leaves allocated, grouped by source file
    .venv/bin/python benchmarks/render_retained.py retained /tmp/rs/cache/gen-100000.obs.pickle
    # focus_view over many observations in one process: CPU s, RSS and GC-tracked objects after each
    .venv/bin/python benchmarks/render_retained.py sequence /work/main/runs/b5/cache-main/*.obs.pickle \
        /tmp/rs/cache/gen-{1000,5000,20000,50000,100000}.obs.pickle [--no-gc]
"""

from __future__ import annotations

import argparse
import gc
import pickle
import sys
import time
import tracemalloc
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _rss_mb() -> int:
    for row in Path("/proc/self/status").read_text().splitlines():
        if row.startswith("VmRSS:"):
            return int(row.split()[1]) // 1024
    return 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("mode", choices=("retained", "sequence"))
    ap.add_argument("pickles", nargs="+")
    ap.add_argument("--no-gc", action="store_true", help="sequence: cyclic GC off throughout")
    ap.add_argument("--top", type=int, default=15)
    args = ap.parse_args()
    sys.path.insert(0, str(HERE))
    from render_scale import goal_for

    from pagelens.api import focus_view
    from pagelens.types import Node, Observation

    tiny = Observation("http://127.0.0.1/", "t", (Node(0, None, 0, None, "RootWebArea", "t"),
                                                 Node(1, 0, 1, None, "StaticText", "warm up")))
    focus_view(tiny, goal="warm up")
    gc.collect()
    print(f"RSS after imports and warm-up: {_rss_mb()} MB")
    if args.mode == "retained":
        path = Path(args.pickles[0])
        obs = pickle.loads(path.read_bytes())
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.take_snapshot()
        view = focus_view(obs, goal=goal_for(path.name))
        gc.collect()
        after = tracemalloc.take_snapshot()
        for stat in after.compare_to(before, "filename")[: args.top]:
            print(stat)
        del view
        return
    if args.no_gc:
        gc.disable()
    for p in map(Path, args.pickles):
        obs = pickle.loads(p.read_bytes())
        t = time.process_time()
        view = focus_view(obs, goal=goal_for(p.name))
        dt = time.process_time() - t
        print(f"{p.name.split('.obs.pickle')[0]}: focus_view {dt:.3f} CPU s, RSS {_rss_mb()} MB, "
              f"GC-tracked objects {len(gc.get_objects())}", flush=True)
        del view, obs


if __name__ == "__main__":
    main()
