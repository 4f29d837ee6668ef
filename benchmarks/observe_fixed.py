"""The fixed cost of one walker observation, in CPU time as well as wall time (issue 13).

On a machine shared by several developers, wall time of a 50-200 ms observation swings by
2-3x with the load; the CPU time the observation makes each process spend barely does. For
every observation this benchmark reads, per process, the on-CPU time from
``/proc/<pid>/task/*/schedstat`` (nanoseconds, all threads) before and after:

* ``py``       the worker's Python (pagelens, Playwright's Python side);
* ``driver``   Playwright's node driver;
* ``chromium`` every Chromium process (browser, renderer, GPU, utility), and ``renderer_main``
  the renderer processes' main threads alone (the walk, style, layout).

"cpu total" = py + driver + renderer_main of observe, plus py of focus (the other Chromium
threads paint and composite the freshly loaded page whatever the observer does). "load" is
the new context plus ``goto`` (wall, and Chromium's CPU over every process, a new one counted
from 0): what a browser context costs before the observation starts.

Stages: ``observe`` (``Episode.observe``), ``focus`` (``pagelens.api.focus_view``: render
and ``default`` focus). Two checkouts (``--base-src`` and this one) run as workers side by
side, repetitions alternating between them, every observation of a fresh load in a fresh
context (as ``observe_peers.py`` does). Medians over repetitions are printed per page, with
the after/before ratios.

    PYTHONPATH=src .venv/bin/python benchmarks/observe_fixed.py --base-src /tmp/obsbase/src \
        --pages gen-1000 011-hacker-news-front.html --reps 8

Two Chromium binaries under the same code (h17-shell): ``--base-src src`` and ``--chromium-before
EXE`` / ``--chromium-after EXE`` (each worker's ``PAGELENS_CHROMIUM``).

``gen-N`` names a generated page of N elements (``gen_pages.py``); other names are corpus pages.

``--split`` (measurement of where the walker's cold start goes; nothing it adds is counted above):
after the timed observation and focus, each worker observes the same document again
(``again``: the walker installed and warm, the page's style and layout done), then loads the
page a second time in the same context — a new document in the same renderer process, so V8's
compilation cache and the process' bindings are warm, the walker's own feedback is not — and
observes it (``new doc``). Reported: the renderer main threads' CPU of each, beside the timed
observation's, and the wall time of ``again`` (an agent's next observation of the same document).

``--trips`` (wall-time accounting of the timed observation): each worker wraps Playwright's
connection (sends, replies, events, the sync API's entry and exit) and reports, in order, every
segment of ``observe()``'s wall time: Python before a call, Playwright's Python inside the sync
call before its message goes out, the wait for the reply (driver, browser, renderer), Playwright's
Python after it, and Python after the last reply. The renderer main threads' CPU during the
observation is printed beside the waits (what they waited for). The wrapping costs a few
microseconds per message, on both sides alike.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CORPUS = Path("/work/shared/corpus/realpages")
GOAL = "Find the request form, fill in the message and send it"


def _cpu_ns(pid: int) -> int:
    total = 0
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return 0
    for t in tasks:
        try:
            with open(f"/proc/{pid}/task/{t}/schedstat") as f:
                total += int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            continue
    return total


def _tree(root: int) -> list[int]:
    from pagelens.browser.watchdog import descendants

    return descendants([root])


def _cpu(groups: dict[str, list[int]]) -> dict[str, int]:
    out = {k: sum(_cpu_ns(p) for p in pids) for k, pids in groups.items()}
    out["renderer_main"] = sum(_main_thread_ns(p) for p in groups.get("chromium", ()) if _is_renderer(p))
    return out


def _is_renderer(pid: int) -> bool:
    try:
        return b"--type=renderer" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def _main_thread_ns(pid: int) -> int:
    """On-CPU time of ``pid``'s main thread (a renderer's: script, style, layout)."""
    try:
        with open(f"/proc/{pid}/task/{pid}/schedstat") as f:
            return int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return 0


class Trips:
    """Wall clock of every message between this process and Playwright's driver (``--trips``):
    wraps the connection's send and dispatch and the sync API's entry point, in this worker only."""

    def __init__(self) -> None:
        import playwright._impl._connection as conn
        import playwright._impl._sync_base as sync_base

        self.log: list[tuple[float, str, str]] = []
        log = self.log
        send0, dispatch0, sync0 = conn.Connection._send_message_to_server, conn.Connection.dispatch, sync_base.SyncBase._sync

        def send(c: Any, obj: Any, method: str, params: Any, no_reply: bool = False) -> Any:
            cdp = (params or {}).get("method") if method == "send" else None
            what = f"{c._last_id + 1} {method}{'/' + cdp if cdp else ''}{' (no reply)' if no_reply else ''}"
            log.append((time.perf_counter(), "send", what))
            return send0(c, obj, method, params, no_reply)

        def dispatch(c: Any, msg: Any) -> Any:
            log.append((time.perf_counter(), "reply" if msg.get("id") else "event", str(msg.get("id") or msg.get("method"))))
            return dispatch0(c, msg)

        def sync(obj: Any, coro: Any) -> Any:
            name = getattr(coro, "__qualname__", "?")
            log.append((time.perf_counter(), "api>", name))
            try:
                return sync0(obj, coro)
            finally:
                log.append((time.perf_counter(), "api<", name))

        conn.Connection._send_message_to_server = send  # type: ignore[method-assign]
        conn.Connection.dispatch = dispatch  # type: ignore[method-assign]
        sync_base.SyncBase._sync = sync  # type: ignore[method-assign]

    def segments(self, t0: float, t1: float) -> list[list[Any]]:
        """[what, ms] for each stretch of wall time between t0 and t1, in order."""
        out: list[list[Any]] = []
        prev, state, api, waiting = t0, "python (pagelens)", "", ""
        for t, kind, what in self.log:
            if not t0 <= t <= t1:
                continue
            if kind == "api>":
                out.append([state, 1000 * (t - prev)])
                state, api = f"{what}: Playwright python before the message", what
            elif kind == "send" and api and not waiting and "(no reply)" not in what:
                out.append([state, 1000 * (t - prev)])
                waiting, what = what.split(" ", 1)
                state = f"{api}: wait for {what}"
            elif kind == "reply" and what == waiting:
                waiting = ""
                out.append([state, 1000 * (t - prev)])
                state = f"{api}: Playwright python after the reply"
            elif kind == "api<":
                out.append([state, 1000 * (t - prev)])
                state, api = "python (pagelens)", ""
            else:
                continue
            prev = t
        out.append([state, 1000 * (t1 - prev)])
        return [s for s in out if s[1] > 0.0005 or "wait" in s[0]]


def worker(split: bool = False, trips: bool = False) -> None:
    """One checkout's observer: reads page paths on stdin, prints one JSON line per page."""
    tracer = Trips() if trips else None
    from pagelens.api import focus_view
    from pagelens.browser.serve import serve_file
    from pagelens.browser.session import BrowserSession
    from pagelens.config import BrowserConfig

    config = BrowserConfig(block_external=False, extract_timeout_s=120, navigation_timeout_s=120)
    with BrowserSession(config) as session:
        me = os.getpid()
        for line in sys.stdin:
            path = Path(line.strip())
            if not line.strip():
                continue
            with serve_file(path) as url:
                old = {p: _cpu_ns(p) for p in _groups(me)["chromium"]}
                tl0 = time.perf_counter()
                with session.episode() as ep:
                    ep.goto(url)
                    tl1 = time.perf_counter()
                    groups = _groups(me)  # (the new context's renderers included)
                    c0 = _cpu(groups)
                    t0 = time.perf_counter()
                    obs = ep.observe()
                    t1 = time.perf_counter()
                    c1 = _cpu(groups)
                    view = focus_view(obs, goal=GOAL)
                    t2 = time.perf_counter()
                    c2 = _cpu(groups)
                    split_ms = _split(ep, url, me) if split else {}
            load_cpu = c0["chromium"] - sum(old.get(p, 0) for p in groups["chromium"])
            print(json.dumps({
                "nodes": len(obs.nodes), "observe_s": t1 - t0, "focus_s": t2 - t1, "total_s": t2 - t0,
                # the new context and the page's load: Chromium's CPU, every process (a new one from 0)
                "load_s": tl1 - tl0, "cpu_load_ms": {"chromium": load_cpu / 1e6},
                "cpu_observe_ms": {k: (c1[k] - c0[k]) / 1e6 for k in c0},
                "cpu_focus_ms": {k: (c2[k] - c1[k]) / 1e6 for k in c0 if k != "renderer_main"},
                "stages_ms": {k: 1000 * v for k, v in obs.timings.items()},
                "view_ms": {k: 1000 * v for k, v in view.timings.items() if k in ("render", "focus")},
                "split_renderer_main_ms": split_ms,
                "trips": tracer.segments(t0, t1) if tracer else [],
            }), flush=True)
            if tracer:
                tracer.log.clear()


def _split(ep: Any, url: str, me: int) -> dict[str, float]:
    """Renderer main-thread CPU of a second observation of the same document, and of an
    observation of the page loaded again in the same context (``--split``)."""
    def rmain() -> int:
        return _cpu(_groups(me))["renderer_main"]

    c, t = rmain(), time.perf_counter()
    ep.observe()
    again_wall = 1000 * (time.perf_counter() - t)
    again = (rmain() - c) / 1e6
    ep.goto(url)
    c = rmain()
    ep.observe()
    return {"again": again, "new_doc": (rmain() - c) / 1e6, "again_wall": again_wall}


def _groups(me: int) -> dict[str, list[int]]:
    kids = [p for p in _tree(me) if p != me]
    chromium = [p for p in kids if "chrom" in _comm(p)]
    driver = [p for p in kids if p not in chromium and _comm(p) == "node"]
    return {"py": [me], "driver": driver, "chromium": chromium}


def _comm(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""


def _page(name: str, folder: Path) -> Path:
    if name.startswith("gen-"):
        path = folder / f"{name}.html"
        if not path.exists():
            sys.path.insert(0, str(HERE))
            from gen_pages import write_pages

            write_pages([int(name[4:])], folder)
        return path
    return CORPUS / name


def _median(rows: list[dict[str, Any]], *keys: str) -> float:
    vals = []
    for r in rows:
        v: Any = r
        for k in keys:
            v = v.get(k, 0.0) if isinstance(v, dict) else 0.0
        vals.append(float(v))
    return statistics.median(vals) if vals else 0.0


def _trips(rows: list[dict[str, Any]]) -> list[list[Any]]:
    """Median of each segment over the repetitions whose sequence of segments is the most common."""
    shapes: dict[tuple[str, ...], list[list[list[Any]]]] = {}
    for r in rows:
        shapes.setdefault(tuple(s[0] for s in r.get("trips", [])), []).append(r["trips"])
    if not shapes:
        return []
    runs = max(shapes.values(), key=len)
    return [[runs[0][i][0], statistics.median(run[i][1] for run in runs)] for i in range(len(runs[0]))]


def main() -> int:
    if "--worker" in sys.argv:
        worker(split="--split" in sys.argv, trips="--trips" in sys.argv)
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base-src", required=True, help="src folder of the baseline checkout")
    ap.add_argument("--pages", nargs="+", default=["gen-1000", "011-hacker-news-front.html"])
    ap.add_argument("--reps", type=int, default=6)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--chromium-before", help="the before worker's Chromium (its PAGELENS_CHROMIUM)")
    ap.add_argument("--chromium-after", help="the after worker's Chromium (its PAGELENS_CHROMIUM)")
    ap.add_argument("--split", action="store_true", help="also observe the same document again, and the page "
                    "reloaded in the same renderer (renderer main CPU of each; not counted in the figures)")
    ap.add_argument("--trips", action="store_true", help="account the timed observation's wall time call by "
                    "call (every driver round trip, its wait, the Python around it; medians)")
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="obsfixed-"))
    pages = [_page(p, folder) for p in args.pages]
    here_src = str(HERE.parent / "src")
    workers: dict[str, subprocess.Popen[str]] = {}
    for name, src, exe in (("before", args.base_src, args.chromium_before), ("after", here_src, args.chromium_after)):
        env = {**os.environ, "PYTHONPATH": src, **({"PAGELENS_CHROMIUM": exe} if exe else {})}
        flags = [f for f, on in (("--split", args.split), ("--trips", args.trips)) if on]
        workers[name] = subprocess.Popen([sys.executable, __file__, "--worker", *flags],
                                         stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, text=True, env=env)
    rows: dict[tuple[str, str], list[dict[str, Any]]] = {}
    load0 = os.getloadavg()
    try:
        for rep in range(args.reps + 1):  # rep 0: warm-up, not counted
            order = list(workers) if rep % 2 == 0 else list(reversed(workers))
            for page in pages:
                for name in order:
                    w = workers[name]
                    assert w.stdin is not None and w.stdout is not None
                    w.stdin.write(f"{page}\n")
                    w.stdin.flush()
                    row = json.loads(w.stdout.readline())
                    if rep:
                        rows.setdefault((page.name, name), []).append(row)
    finally:
        for w in workers.values():
            if w.stdin:
                w.stdin.close()
            w.wait(timeout=60)
    out: dict[str, Any] = {"command": " ".join(sys.argv), "load_start": load0, "load_end": os.getloadavg(),
                           "chromium": {"before": args.chromium_before, "after": args.chromium_after},
                           "reps": args.reps, "pages": {}}
    print(f"load average start {load0[0]:.1f}, end {os.getloadavg()[0]:.1f} (2 cores, shared); medians of {args.reps} reps")
    print(f"{'page':28} {'who':6} {'nodes':>6} {'wall obs':>8} {'wall tot':>8} {'cpu obs py/drv/chr/rmain':>27} "
          f"{'cpu foc py':>10} {'cpu total':>9} {'load wall/chr cpu':>17}")
    for page in pages:
        entry: dict[str, Any] = {}
        for name in workers:
            r = rows.get((page.name, name), [])
            cpu_obs = {k: _median(r, "cpu_observe_ms", k) for k in ("py", "driver", "chromium", "renderer_main")}
            cpu_total = statistics.median([x["cpu_observe_ms"]["py"] + x["cpu_observe_ms"]["driver"] + x["cpu_observe_ms"]["renderer_main"]
                                           + x["cpu_focus_ms"]["py"] for x in r])
            m = {"nodes": r[0]["nodes"] if r else 0, "observe_ms": 1000 * _median(r, "observe_s"),
                 "total_ms": 1000 * _median(r, "total_s"), "cpu_observe_ms": cpu_obs,
                 "cpu_focus_py_ms": _median(r, "cpu_focus_ms", "py"), "cpu_total_ms": cpu_total,
                 "load_ms": 1000 * _median(r, "load_s"), "cpu_load_chromium_ms": _median(r, "cpu_load_ms", "chromium"),
                 "stages_ms": {k: _median(r, "stages_ms", k) for k in (r[0]["stages_ms"] if r else {})},
                 "view_ms": {k: _median(r, "view_ms", k) for k in (r[0]["view_ms"] if r else {})}}
            if args.split:
                m["split_renderer_main_ms"] = {k: _median(r, "split_renderer_main_ms", k) for k in ("again", "new_doc", "again_wall")}
            entry[name] = m
            print(f"{page.name[:28]:28} {name:6} {m['nodes']:6d} {m['observe_ms']:8.1f} {m['total_ms']:8.1f} "
                  f"{cpu_obs['py']:6.1f}/{cpu_obs['driver']:5.1f}/{cpu_obs['chromium']:6.1f}/{cpu_obs['renderer_main']:6.1f} "
                  f"{m['cpu_focus_py_ms']:10.1f} {cpu_total:9.1f} {m['load_ms']:8.1f}/{m['cpu_load_chromium_ms']:8.1f}")
        if args.split:
            for name in workers:
                sp = entry[name]["split_renderer_main_ms"]
                print(f"{'':28} {name:6} renderer main CPU: timed observe {entry[name]['cpu_observe_ms']['renderer_main']:.1f}, "
                      f"same document again {sp['again']:.1f} (wall {sp['again_wall']:.1f}), "
                      f"page reloaded in the same renderer {sp['new_doc']:.1f}")
        if args.trips:
            for name in workers:
                entry[name]["trips_ms"] = _trips(rows.get((page.name, name), []))
                print(f"{'':28} {name:6} wall of observe, call by call (medians; renderer main CPU "
                      f"{entry[name]['cpu_observe_ms']['renderer_main']:.1f} ms):")
                for what, ms in entry[name]["trips_ms"]:
                    print(f"{'':35} {ms:7.2f}  {what}")
        b, a = entry.get("before"), entry.get("after")
        if b and a and b["total_ms"] and b["cpu_total_ms"]:
            entry["ratio_wall_total"] = a["total_ms"] / b["total_ms"]
            entry["ratio_cpu_total"] = a["cpu_total_ms"] / b["cpu_total_ms"]
            print(f"{'':28} after/before: wall total {entry['ratio_wall_total']:.2f}, cpu total {entry['ratio_cpu_total']:.2f}")
        out["pages"][page.name] = entry
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
