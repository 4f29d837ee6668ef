"""Peak memory of one sweep worker: `pagelens bench tasks` (Python + Chromium + bundled sites),
the RSS of its whole process tree sampled every 0.2 s (shared pages are counted once per process,
so the figure is an upper bound).

    .venv/bin/python benchmarks/worker_rss.py [--limit 3] [--out DIR]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time


def tree_rss(root: int) -> int:
    """Bytes of resident memory of ``root`` and all its descendants (from ``ps``)."""
    rows = subprocess.run(["ps", "-eo", "pid=,ppid=,rss="], capture_output=True, text=True).stdout.splitlines()
    kids: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for row in rows:
        parts = row.split()
        if len(parts) == 3:
            pid, ppid, kb = map(int, parts)
            kids.setdefault(ppid, []).append(pid)
            rss[pid] = kb
    total, stack = 0, [root]
    while stack:
        p = stack.pop()
        total += rss.get(p, 0)
        stack += kids.get(p, [])
    return total * 1024


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit", type=int, default=3)
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    out = args.out or tempfile.mkdtemp(prefix="worker-rss-")
    cmd = [sys.executable, "-m", "pagelens.cli", "bench", "tasks", "--limit", str(args.limit), "--retriever",
           "default", "--no-report", "--out", out]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak, t = 0, time.time()
    while proc.poll() is None:
        peak = max(peak, tree_rss(proc.pid))
        time.sleep(0.2)
    print(json.dumps({"peak_rss_mb_process_tree": round(peak / 2**20), "wall_s": round(time.time() - t, 1),
                      "rc": proc.returncode}))


if __name__ == "__main__":
    main()
