"""The walker's cold walk under other Chromium launch flags, side by side in one process (issue 13, h14-flat).

Each flag set gets a browser of its own (``BrowserConfig.extra_args``, merged by
``pagelens.browser.chromium.launch_args``); repetitions alternate between them, every
observation of a fresh load in a fresh context, as ``observe_peers.py`` makes them. Per
observation: the walk's own time in the page (``ms``, wall, inside the renderer), the CPU of the
page's renderer process (main thread, and all its threads: V8's concurrent compilers and GC
helpers run on the others), and the wall time of ``Episode.observe`` and of its walker stage.
Medians per page and flag set. Meant for V8 flags (``--js-flags=...``), which change how the
walker's JavaScript is compiled, never what it returns.

    PYTHONPATH=src .venv/bin/python benchmarks/observe_jsflags.py --reps 8 \\
        --pages /tmp/pages/gen-1000.html /tmp/pages/gen-20000.html \\
        --set=--js-flags=--invocation-count-for-maglev=3000 --set=--js-flags=--no-maglev

The launch without extra flags is always measured first; each ``--set=FLAGS`` adds one (its flags
separated by spaces; written with ``=`` so that a value starting with ``--`` is read as one).
That launch carries pagelens' own ``chromium.JIT_ARGS`` (Maglev after 3,000 calls, h16-flat);
``--set=--js-flags=--invocation-count-for-maglev=400`` is V8's default again (a caller's V8 flags
come after the launch's and win).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from pagelens.browser import walker
from pagelens.browser.serve import serve_file
from pagelens.browser.session import BrowserSession
from pagelens.browser.watchdog import descendants
from pagelens.config import BrowserConfig


def _renderer_cpu_ms() -> tuple[float, float]:
    """(main threads, all threads) on-CPU ms of this process' Chromium renderers."""
    main = every = 0
    for pid in descendants([os.getpid()]):
        try:
            if b"--type=renderer" not in Path(f"/proc/{pid}/cmdline").read_bytes():
                continue
            for tid in os.listdir(f"/proc/{pid}/task"):
                ns = int(Path(f"/proc/{pid}/task/{tid}/schedstat").read_text().split()[0])
                every += ns
                main += ns if tid == str(pid) else 0
        except (OSError, ValueError, IndexError):
            continue
    return main / 1e6, every / 1e6


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pages", nargs="+", type=Path, required=True)
    ap.add_argument("--set", action="append", default=[], dest="sets", help="one flag set (see above); repeatable")
    ap.add_argument("--reps", type=int, default=8)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    walk_ms: list[float] = []
    parse = walker.parse_walk

    def parse_and_keep(raw: str | bytes) -> Any:  # the walk's own in-page time, from its result
        w = parse(raw)
        walk_ms.append(w.ms)
        return w

    walker.parse_walk = parse_and_keep  # type: ignore[assignment]
    sets = [(), *(tuple(f.split()) for f in args.sets)]
    sessions = [BrowserSession(BrowserConfig(block_external=False, extraction="walker", extra_args=s)).start() for s in sets]
    rows: dict[tuple[str, int], list[tuple[float, ...]]] = {}
    load0 = os.getloadavg()
    try:
        for page in args.pages:
            with serve_file(page) as url:
                for rep in range(args.reps + 1):  # rep 0: warm-up, not counted
                    order = range(len(sets)) if rep % 2 == 0 else reversed(range(len(sets)))
                    for i in order:
                        with sessions[i].episode() as ep:
                            ep.goto(url)
                            m0, a0 = _renderer_cpu_ms()
                            t = time.perf_counter()
                            obs = ep.observe()
                            wall = time.perf_counter() - t
                            m1, a1 = _renderer_cpu_ms()
                        if rep:
                            rows.setdefault((page.name, i), []).append(
                                (walk_ms[-1], m1 - m0, a1 - a0, 1000 * wall, 1000 * obs.timings["walker"]))
    finally:
        for s in sessions:
            s.close()
    print(f"load average start {load0[0]:.1f}, end {os.getloadavg()[0]:.1f}; medians of {args.reps} alternated reps")
    print(f"{'page':28} {'flags':58} {'walk ms':>8} {'rend main':>9} {'rend all':>9} {'observe':>8} {'walker':>7}")
    out: dict[str, Any] = {"command": " ".join(sys.argv), "load_start": load0, "load_end": os.getloadavg(), "pages": {}}
    for page in args.pages:
        for i, s in enumerate(sets):
            med = [statistics.median(c) for c in zip(*rows[(page.name, i)])]
            print(f"{page.name[:28]:28} {(' '.join(s) or '(none)')[:58]:58} {med[0]:8.1f} {med[1]:9.1f} {med[2]:9.1f} {med[3]:8.1f} {med[4]:7.1f}")
            out["pages"].setdefault(page.name, {})[" ".join(s)] = dict(zip(
                ("walk_ms", "renderer_main_cpu_ms", "renderer_all_cpu_ms", "observe_ms", "walker_stage_ms"), med))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
