"""Where the peak of a big observation is made: which process, which phase (issue 13 item 5).

One long-lived process, as ``observe_peers.py``'s worker: for each page of ``--sizes`` in order,
a fresh context, ``goto``, ``observe()`` (walker) and ``focus_view`` with the generic goal, the
tree and view dropped before the next page. During every request a thread samples every
``--every`` seconds the total ``observe_peers.py`` reports — this process' RSS + Playwright's
driver RSS + Chromium's PSS summed over its processes — and labels each sample with the phase
the main thread is in, set by wrappers around the observation's steps:

``walk`` (the walker runs in the page, until its first slice arrives), ``read`` (the remaining
slices), ``parse``, ``build`` (nodes, ids), ``observe-end`` (the rest of ``observe()``),
``render``, ``focus`` (the ranking; the token count runs on a thread meanwhile), ``after``
(between the view and the next request).

Printed per page: wall times, then per phase the samples' maximum total with its parts
(Python / driver / Chromium / largest renderer), MiB (pages ÷ 2²⁰).

    PYTHONPATH=src .venv/bin/python benchmarks/gen_pages.py 1000 5000 20000 50000 100000 --out /tmp/pages
    PYTHONPATH=src .venv/bin/python benchmarks/mem_phases.py --pages /tmp/pages --sizes 1000,5000,20000,50000,100000

``--json FILE`` also writes every sample of the last page (time, phase, parts).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import re
import sys
import threading
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
GOAL = "Find the request form, fill in the message and send it"
PHASES = ("walk", "read", "parse", "build", "observe-end", "render", "focus", "after")


def _statm_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/statm") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        return 0.0


def snapshot() -> dict[str, float]:
    """MiB now: python (this process' RSS), driver (its other children's RSS), chromium (PSS summed
    over Chromium's processes, and by process type as ``chromium:<type>``), renderer (the largest
    renderer's PSS), total (python + driver + chromium: ``observe_peers.py``'s accounting)."""
    sys.path.insert(0, str(HERE))
    from compare_browsergym import _pss_kb

    from pagelens.browser.watchdog import descendants

    me = os.getpid()
    out = {"python": _statm_mb(me), "driver": 0.0, "chromium": 0.0, "renderer": 0.0}
    for pid in descendants([me]):
        if pid == me:
            continue
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"chrom" in cmd:
            pss = _pss_kb(pid) / 1024
            out["chromium"] += pss
            kind = re.search(rb"--type=([a-z-]+)", cmd)
            key = "chromium:" + (kind.group(1).decode() if kind else "browser")
            out[key] = out.get(key, 0.0) + pss
            if b"--type=renderer" in cmd:
                out["renderer"] = max(out["renderer"], pss)
        else:
            out["driver"] += _statm_mb(pid)
    out["total"] = out["python"] + out["driver"] + out["chromium"]
    return out


class Sampler:
    """Samples the process tree's parts while armed, each sample tagged with :attr:`phase`."""

    def __init__(self, every: float) -> None:
        self.every = every
        self.phase = "after"
        self.samples: list[dict[str, Any]] = []
        self._on = threading.Event()
        self._stop = threading.Event()
        self._t0 = time.perf_counter()
        threading.Thread(target=self._run, daemon=True).start()

    def sample(self) -> dict[str, Any]:
        return {"t": time.perf_counter() - self._t0, "phase": self.phase, **snapshot()}

    def _run(self) -> None:
        while not self._stop.is_set():
            if self._on.wait(0.2) and not self._stop.is_set():
                self.samples.append(self.sample())
                time.sleep(self.every)

    def arm(self) -> None:
        self.samples = []
        self._on.set()

    def disarm(self) -> list[dict[str, Any]]:
        self._on.clear()
        time.sleep(self.every + 0.02)
        self.samples.append(self.sample())
        return self.samples

    def close(self) -> None:
        self._stop.set()
        self._on.set()


def _wrap(owner: Any, name: str, sampler: Sampler, before: str, after: str | None = None) -> None:
    """``owner.name`` sets the phase to ``before`` when called (and ``after`` when it returns)."""
    fn = getattr(owner, name)

    def wrapped(*a: Any, **k: Any) -> Any:
        sampler.phase = before
        try:
            return fn(*a, **k)
        finally:
            if after:
                sampler.phase = after

    setattr(owner, name, wrapped)


def instrument(sampler: Sampler) -> None:
    """Phase labels through wrappers (the code's behaviour is unchanged)."""
    from pagelens.browser import walker
    from pagelens.focus import view

    _wrap(walker, "parse_walk", sampler, "parse")
    _wrap(walker, "build_nodes", sampler, "build", "observe-end")
    _wrap(view, "render_observation", sampler, "render", "focus")
    utf8 = walker._utf8

    def first_slice(part: str) -> Any:
        sampler.phase = "read"
        return utf8(part)

    walker._utf8 = first_slice


def summary(samples: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for s in samples:
        best = out.get(s["phase"])
        if best is None or s["total"] > best["total"]:
            out[s["phase"]] = {k: v for k, v in s.items() if k not in ("t", "phase")}
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pages", type=Path, required=True, help="folder of gen_pages.py's gen-N.html")
    ap.add_argument("--sizes", default="1000,5000,20000,50000,100000")
    ap.add_argument("--every", type=float, default=0.05, help="seconds between samples")
    ap.add_argument("--procs", action="store_true", help="also print Chromium's PSS by process type")
    ap.add_argument("--json", type=Path, help="write the last page's samples here")
    args = ap.parse_args()
    sys.path.insert(0, str(HERE))
    from pagelens.api import focus_view
    from pagelens.browser.serve import StaticServer
    from pagelens.browser.session import BrowserSession
    from pagelens.config import BrowserConfig

    sampler = Sampler(args.every)
    instrument(sampler)
    config = BrowserConfig(block_external=False, extraction="walker", navigation_timeout_s=300, extract_timeout_s=600)
    print(f"load average {os.getloadavg()[0]:.1f} (2 cores, shared); MiB", flush=True)
    samples: list[dict[str, Any]] = []
    with StaticServer(args.pages) as srv, BrowserSession(config) as session:
        for size in [int(s) for s in args.sizes.split(",") if s.strip()]:
            with session.episode() as ep:
                ep.goto(srv.url(f"gen-{size}.html"))
                sampler.phase = "walk"
                sampler.arm()
                t0 = time.perf_counter()
                obs = ep.observe(timeout_s=600)
                t1 = time.perf_counter()
                view = focus_view(obs, goal=GOAL)
                t2 = time.perf_counter()
                sampler.phase = "after"
            del obs, view
            samples = sampler.disarm()
            gc.collect()
            peak = max(samples, key=lambda s: s["total"])
            print(f"gen-{size}: observe {t1 - t0:.2f} s, focus_view {t2 - t1:.2f} s; peak total {peak['total']:.0f} "
                  f"in {peak['phase']}", flush=True)
            for phase, m in sorted(summary(samples).items(), key=lambda kv: PHASES.index(kv[0])):
                print(f"    {phase:12s} max total {m['total']:6.0f}  (python {m['python']:5.0f} / driver {m['driver']:4.0f} "
                      f"/ chromium {m['chromium']:5.0f}, renderer {m['renderer']:5.0f})", flush=True)
                if args.procs:
                    print("        " + ", ".join(f"{k[9:]} {v:.0f}" for k, v in sorted(m.items()) if k.startswith("chromium:")))
    sampler.close()
    if args.json:
        args.json.write_text(json.dumps(samples))
    print(f"load average {os.getloadavg()[0]:.1f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
