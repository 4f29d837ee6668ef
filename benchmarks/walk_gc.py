"""Memory and time of one big observation with and without the collection the walker asks the
page for after a long walk (``pagelens.browser.walker.PURGE_CHARS``; issue 13 item 5, h12-obs).

Each run is a fresh process and browser: load the page, wait 1 s, then ``observe()`` and
``focus_view``, sampling every 50 ms the total that ``observe_peers.py`` reports (the Python
process' RSS + Playwright's driver RSS + Chromium's PSS summed over its processes). Printed per
run: the peak total and the phase it fell in (observe / focus) with its parts, the totals at the
end of the observation and of focus, and the wall times (one process at a time; the sampler
costs CPU, so on a loaded machine read the memory, not the times). Runs alternate on / off.

    PYTHONPATH=src .venv/bin/python benchmarks/walk_gc.py /tmp/pages/gen-100000.html --rounds 2
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

GOAL = "Find the request form, fill in the message and send it"
HERE = Path(__file__).resolve().parent


def snapshot() -> dict[str, float]:
    """MB now: python, driver, chromium (PSS), renderer (largest renderer's PSS), total (``mem_phases.snapshot``)."""
    sys.path.insert(0, str(HERE))
    from mem_phases import snapshot as now

    return now()


def one(page: Path, collect: bool) -> dict[str, Any]:
    from pagelens.api import focus_view
    from pagelens.browser import walker
    from pagelens.browser.serve import serve_file
    from pagelens.browser.session import BrowserSession
    from pagelens.config import BrowserConfig

    if not collect:
        walker.PURGE_CHARS = 1 << 62
    config = BrowserConfig(block_external=False, extract_timeout_s=600, navigation_timeout_s=300)
    best: dict[str, Any] = {}
    phase = ["observe"]
    running = threading.Event()
    running.set()

    def sample() -> None:
        while running.is_set():
            s = snapshot()
            if not best or s["total"] > best["total"]:
                best.clear()
                best.update(s, phase=phase[0])
            time.sleep(0.05)

    with BrowserSession(config) as session, serve_file(page) as url, session.episode() as ep:
        ep.goto(url)
        ep.page.wait_for_timeout(1000)
        thread = threading.Thread(target=sample, daemon=True)
        thread.start()
        t0 = time.perf_counter()
        obs = ep.observe()
        t1 = time.perf_counter()
        end_observe = snapshot()
        phase[0] = "focus"
        focus_view(obs, goal=GOAL)
        t2 = time.perf_counter()
        end_focus = snapshot()
        running.clear()
        thread.join()
        t3 = time.perf_counter()
        ep.page.evaluate("1")  # the page's next call (waits behind a collection still running)
        t4 = time.perf_counter()
    return {"collect": collect, "nodes": len(obs.nodes), "observe_s": t1 - t0, "focus_s": t2 - t1, "next_call_s": t4 - t3,
            "peak": best, "end_observe": end_observe, "end_focus": end_focus}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("page", type=Path)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--one", choices=("on", "off"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        print(json.dumps(one(args.page.resolve(), args.one == "on")))
        return 0
    print(f"load average {os.getloadavg()[0]:.1f} (2 cores, shared)")
    print("run  observe s  focus s  next call s | peak total MB (phase: python / driver / chromium / renderer) | "
          "end observe total / chromium | end focus total / chromium")
    for r in range(args.rounds):
        for mode in ("on", "off") if r % 2 == 0 else ("off", "on"):
            out = subprocess.run([sys.executable, __file__, str(args.page), "--one", mode], capture_output=True, text=True,
                                 check=True)
            x = json.loads(out.stdout.strip().splitlines()[-1])
            p, eo, ef = x["peak"], x["end_observe"], x["end_focus"]
            print(f"{mode:4} {x['observe_s']:9.2f} {x['focus_s']:8.2f} {x['next_call_s']:12.2f} | {p['total']:6.0f} "
                  f"({p['phase']}: {p['python']:.0f} / {p['driver']:.0f} / {p['chromium']:.0f} / {p['renderer']:.0f}) | "
                  f"{eo['total']:6.0f} / {eo['chromium']:4.0f} | {ef['total']:6.0f} / {ef['chromium']:4.0f}", flush=True)
    print(f"load average {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
