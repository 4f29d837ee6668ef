"""Peak memory of one sweep worker: `pagelens bench tasks` (Python + Chromium + bundled sites),
the RSS of its whole process tree sampled every 0.2 s (shared pages are counted once per process,
so the figure is an upper bound).

    .venv/bin/python benchmarks/worker_rss.py [--limit 3] [--out DIR]

With ``--observe FILE`` it measures one ``pagelens observe FILE --goal GOAL --format json``
instead (issue 13 item 5: a 100,000-element page), and reports the Python process' own peak
beside the tree's (the CLI's process is the root: its RSS is the Python side).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def tree_rss(root: int) -> int:
    """Bytes of resident memory of ``root`` and all its descendants (from ``ps``)."""
    rows = subprocess.run(["ps", "-eo", "pid=,ppid=,rss="], capture_output=True, text=True,
                          check=False).stdout.splitlines()
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


def root_hwm(pid: int) -> int:
    """Bytes of the process' own peak resident set (``VmHWM``), 0 once it has ended."""
    try:
        for row in Path(f"/proc/{pid}/status").read_text().splitlines():
            if row.startswith("VmHWM:"):
                return int(row.split()[1]) * 1024
    except OSError:
        pass
    return 0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit", type=int, default=3)
    ap.add_argument("--out", default=None)
    ap.add_argument("--observe", metavar="FILE", help="measure `pagelens observe FILE` instead")
    ap.add_argument("--goal", default="Find the request form, fill in the message and send it")
    ap.add_argument("--timeout", type=float, default=300.0, help="with --observe: the observation's deadline")
    args = ap.parse_args()
    if args.observe:
        cmd = [sys.executable, "-m", "pagelens.cli", "observe", args.observe, "--goal", args.goal, "--format", "json",
               "--timeout", str(args.timeout)]
    else:
        out = args.out or tempfile.mkdtemp(prefix="worker-rss-")
        cmd = [sys.executable, "-m", "pagelens.cli", "bench", "tasks", "--limit", str(args.limit), "--retriever",
               "default", "--no-report", "--out", out]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak, peak_root, t = 0, 0, time.time()
    while proc.poll() is None:
        peak = max(peak, tree_rss(proc.pid))
        peak_root = max(peak_root, root_hwm(proc.pid))
        time.sleep(0.2)
    print(json.dumps({"peak_rss_mb_process_tree": round(peak / 2**20), "peak_rss_mb_python": round(peak_root / 2**20),
                      "wall_s": round(time.time() - t, 1), "rc": proc.returncode}))


if __name__ == "__main__":
    main()
