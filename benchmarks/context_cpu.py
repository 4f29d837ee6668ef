"""What a new browser context costs Chromium, per process, before and after the page's ``load`` (issue 13).

For each of ``--reps`` episodes (a fresh context and page, as every observation benchmark makes),
the on-CPU time of every process of the browser (``/proc/<pid>/task/*/schedstat``) is read at
three moments: before the context is made, after ``new_context``/``new_page``, after ``goto``
(``load``), and ``--after-ms`` later with nothing done meanwhile. Printed per process kind
(browser, renderer: the page's, a spare, a WebUI page of the browser's own UI; GPU, utility,
Playwright's node driver): medians of CPU ms per phase, and of the main thread after ``load``.
The "after load" column is what competes with an observation made right after ``load`` on a
2-core machine.

    PYTHONPATH=src .venv/bin/python benchmarks/context_cpu.py /tmp/pages/gen-1000.html --reps 5
    PYTHONPATH=/tmp/base13/src .venv/bin/python benchmarks/context_cpu.py /tmp/pages/gen-1000.html --reps 5
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _kind(pid: int, me: int) -> str:
    try:
        cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
        comm = Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return "gone"
    if pid == me:
        return "python"
    kind = next((a[7:] for a in cmd.split() if a.startswith("--type=")), "browser" if "chrom" in comm else comm)
    if kind == "renderer" and "--top-chrome-webui" in cmd:
        kind = "renderer (browser UI WebUI)"
    return kind


def _snapshot(me: int) -> dict[int, tuple[str, float, float]]:
    sys.path.insert(0, str(HERE))
    from observe_fixed import _cpu_ns, _main_thread_ns, _tree

    return {p: (_kind(p, me), _cpu_ns(p) / 1e6, _main_thread_ns(p) / 1e6) for p in _tree(me)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("page", type=Path)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--after-ms", type=int, default=1500)
    args = ap.parse_args()
    from pagelens.browser.serve import serve_file
    from pagelens.browser.session import BrowserSession
    from pagelens.config import BrowserConfig

    me = os.getpid()
    rows: dict[str, list[list[float]]] = defaultdict(list)  # kind -> per rep [context, goto, after, after main]
    with BrowserSession(BrowserConfig(block_external=False)) as session:
        for rep in range(args.reps + 1):  # rep 0: warm-up
            per: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0, 0.0])
            with serve_file(args.page) as url:
                a = _snapshot(me)
                with session.episode() as ep:
                    b = _snapshot(me)
                    ep.goto(url)
                    c = _snapshot(me)
                    ep.page.wait_for_timeout(args.after_ms)
                    d = _snapshot(me)
            for pid, (kind, cpu, main_cpu) in d.items():
                if kind == "python":
                    continue
                prev = [x.get(pid, (kind, 0.0, 0.0)) for x in (a, b, c)]
                acc = per[kind]
                acc[0] += prev[1][1] - prev[0][1]
                acc[1] += prev[2][1] - prev[1][1]
                acc[2] += cpu - prev[2][1]
                acc[3] += main_cpu - prev[2][2]
            if rep:
                for kind, vals in per.items():
                    rows[kind].append(vals)
    print(f"{args.page.name}: Chromium CPU ms per new context, medians of {args.reps} (load average {os.getloadavg()[0]:.1f})")
    print(f"{'process':30} {'new context':>11} {'goto':>7} {'after load':>10} {'(main thread)':>13}")
    total = [0.0, 0.0, 0.0, 0.0]
    for kind, vals in sorted(rows.items()):
        med = [statistics.median(v[k] for v in vals) for k in range(4)]
        total = [t + m for t, m in zip(total, med)]
        print(f"{kind:30} {med[0]:11.1f} {med[1]:7.1f} {med[2]:10.1f} {med[3]:13.1f}")
    print(f"{'sum of medians':30} {total[0]:11.1f} {total[1]:7.1f} {total[2]:10.1f} {total[3]:13.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
