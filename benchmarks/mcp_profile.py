"""Where an MCP tool call's time goes: the bundled tasks' plans through :class:`pagelens.mcp.browsing.Browsing`
in-process (no MCP transport), each stage timed by wrapping it (instrumentation only: the wrapped
functions run unchanged).

Stages: ``new_episode`` (context + page), ``goto``, ``observe`` (extraction; ``obs.*`` its own
stages: the liveness probe, the walker or the AX tree, ``backend_ids``, build), ``focus_view``
(render + focus), ``tracker`` (the delta tracker), ``compose`` (the capped answer), ``execute``
(the executor; ``op.*`` the page operation, ``settle`` the settling and the fingerprint after it,
``fp.take`` the other fingerprints, ``tab.element`` resolving the element), ``detector.*``
(signals; ``check`` reads nothing when the executor brought the page state).

``--dump`` prints every call and its answer, ``--trace`` every call's Playwright round trips
(protocol method and milliseconds), ``--cprofile FILE`` profiles the calls on the browser's thread,
``--cpu`` adds each tool's CPU time per call by process (less sensitive to the machine's load than
wall time): this thread (the server's Python, Playwright's client included), the Playwright driver
(node), and Chromium (every process below the driver), read from ``/proc`` around each call.
Not counted here: the MCP transport and the server's per-call work outside ``Browsing.call``.

    PYTHONPATH=src .venv/bin/python benchmarks/mcp_profile.py [--tasks a,b] [--limit 10] [--view-cap N]
        [--dump] [--trace] [--cprofile FILE] [--cpu]
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import functools
import os
import statistics
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from types import MappingProxyType, SimpleNamespace
from typing import Any

_T: dict[str, float] = collections.defaultdict(float)
_LOCAL = threading.local()
#: Playwright round trips of the current tool call: (object type.method, seconds), with ``--trace``.
_RT: list[tuple[str, float]] = []


def trace_round_trips() -> None:
    """Record every Playwright protocol call (CDP sessions included) with its duration."""
    from playwright._impl import _connection

    inner = _connection.Channel.inner_send

    async def timed(self: Any, method: str, params: Any, return_as_dict: bool) -> Any:
        t = time.perf_counter()
        try:
            return await inner(self, method, params, return_as_dict)
        finally:
            what = method
            if method in ("send", "evaluateExpression", "evaluateExpressionHandle") and isinstance(params, dict):
                what += ":" + str(params.get("method") or params.get("expression", ""))[:40].replace("\n", " ")
            _RT.append((f"{type(self._object).__name__}.{what}", time.perf_counter() - t))

    _connection.Channel.inner_send = timed  # type: ignore[method-assign]


def _wrap(owner: Any, name: str, label: str) -> None:
    f = getattr(owner, name, None)
    if f is None:  # an older tree (a baseline run) without this stage
        return

    @functools.wraps(f)
    def timed(*a: Any, **k: Any) -> Any:
        t = time.perf_counter()
        try:
            return f(*a, **k)
        finally:
            _T[label] += time.perf_counter() - t

    setattr(owner, name, timed)


def install() -> None:
    import pagelens.actions.executor as ex
    from pagelens.browser import extract, page, session
    from pagelens.focus import delta, view
    from pagelens.mcp import browsing
    from pagelens.signals import detector

    _wrap(session.BrowserSession, "episode", "new_episode")
    _wrap(session.Episode, "goto", "goto")
    _wrap(session.Episode, "observe", "observe")
    _wrap(view, "focus_view", "focus_view")
    _wrap(delta.ViewTracker, "update", "tracker")
    _wrap(browsing, "compose", "compose")
    _wrap(ex.Executor, "execute", "execute")
    _wrap(ex, "settled", "settle")  # (the settle and the fingerprint after the action, one call)
    _wrap(ex.Executor, "_settle", "settle")  # (older trees: the fixed settle timer)
    _wrap(ex, "take", "fp.take")
    _wrap(page.Tab, "element", "tab.element")
    _wrap(detector.SignalDetector, "check", "detector.check")
    _wrap(detector.SignalDetector, "arm", "detector.arm")
    observe = extract.PageObserver.observe

    def observed(self: Any, *a: Any, **k: Any) -> Any:
        obs = observe(self, *a, **k)
        for key, secs in obs.timings.items():
            if key != "extract":
                _T["obs." + key] += secs
        return obs

    extract.PageObserver.observe = observed  # type: ignore[method-assign]
    handlers = dict(ex.HANDLERS)
    for name, handler in handlers.items():
        def op(*a: Any, _h: Any = handler, _n: str = name, **k: Any) -> Any:
            t = time.perf_counter()
            try:
                return _h(*a, **k)
            finally:
                _T["op." + _n] += time.perf_counter() - t
        handlers[name] = op
    ex.HANDLERS = MappingProxyType(handlers)  # type: ignore[misc]


def _ticks(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])  # utime + stime
    except (OSError, ValueError, IndexError):
        return 0


class CpuMeter:
    """CPU seconds of this thread, the Playwright driver and the browser's processes."""

    def __init__(self) -> None:
        self.hz = os.sysconf("SC_CLK_TCK")

    @staticmethod
    def _driver() -> int | None:
        """The pid of this thread's Playwright driver (None before it started)."""
        from pagelens.browser.session import _driver

        conn = getattr(getattr(_driver.pw, "_impl_obj", None), "_connection", None)
        proc = getattr(getattr(conn, "_transport", None), "_proc", None)
        return getattr(proc, "pid", None)

    def read(self, *, thread_last: bool = False) -> tuple[float, float, float]:
        """(this thread, driver, Chromium) CPU seconds. The process list is read from /proc first;
        ``thread_last``: this thread's clock after the other reads (a call's start: the reads
        themselves are then outside the measured span), else before them (its end)."""
        from pagelens.browser.watchdog import descendants

        driver = self._driver()
        if driver is None:
            return time.thread_time(), 0.0, 0.0
        below = descendants([driver])[1:]
        mine = 0.0 if thread_last else time.thread_time()
        others = _ticks(driver) / self.hz, sum(_ticks(p) for p in below) / self.hz
        return (time.thread_time() if thread_last else mine, *others)


class _Session:
    """The plan driver's ToolSession on a Browsing, on the one thread that owns its browser."""

    def __init__(self, browsing: Any, pool: ThreadPoolExecutor) -> None:
        self.browsing, self.pool = browsing, pool
        self.rows: dict[str, list[tuple[float, dict[str, float]]]] = collections.defaultdict(list)
        self.dump = False  # print every call and its answer (stderr)
        self.trace = False  # print every call's Playwright round trips (stderr)
        self.profiler: Any = None  # a cProfile.Profile run around every call (on the browser's thread)
        self.cpu: CpuMeter | None = None  # CPU seconds by process around every call

    def _timed(self, tool: str, call: Any) -> Any:
        _T.clear()
        _RT.clear()
        if self.profiler is not None:
            self.profiler.enable()
        c0 = self.cpu.read(thread_last=True) if self.cpu is not None else None
        t = time.perf_counter()
        reply = self.browsing.call(call)
        secs = time.perf_counter() - t
        if self.profiler is not None:
            self.profiler.disable()
        if self.cpu is not None and c0 is not None:
            c1 = self.cpu.read()
            for label, a, b in zip(("cpu.python", "cpu.driver", "cpu.chromium"), c0, c1, strict=True):
                _T[label] = b - a
        self.rows[tool].append((secs, dict(_T)))
        if self.trace:
            trips = " | ".join(f"{m} {1000 * d:.0f}" for m, d in _RT)
            print(f"--- {tool} {1000 * secs:.0f} ms, {len(_RT)} round trips "
                  f"({1000 * sum(d for _, d in _RT):.0f} ms): {trips}", file=sys.stderr, flush=True)
        return reply

    async def call_tool(self, name: str, arguments: dict[str, Any] | None = None) -> Any:
        from pagelens.mcp.tools import parse_call

        call = parse_call(name, arguments)
        if isinstance(call, str):
            return SimpleNamespace(content=[SimpleNamespace(type="text", text=call)], is_error=True)
        reply = await asyncio.get_running_loop().run_in_executor(self.pool, self._timed, name, call)
        if self.dump:
            print(f">>> {name} {arguments}\n{reply.text}\n", file=sys.stderr, flush=True)
        return SimpleNamespace(content=[SimpleNamespace(type="text", text=reply.text)], is_error=reply.is_error)


async def run(args: argparse.Namespace) -> int:
    from pagelens.bench.mcp_plans import Episode, PagelensPlanAgent, play
    from pagelens.bench.sites import resolve_site_url, start_sites
    from pagelens.bench.task_defs import load_tasks
    from pagelens.bench.tasks import check_task
    from pagelens.mcp.browsing import Browsing, McpConfig

    tasks = [t for t in load_tasks(0) if not args.tasks or t.id in args.tasks.split(",")][: args.limit or None]
    pool = ThreadPoolExecutor(1)
    config = McpConfig(**({"view_cap": args.view_cap} if args.view_cap is not None else {}))
    browsing = await asyncio.get_running_loop().run_in_executor(pool, Browsing, config)
    s = _Session(browsing, pool)
    s.dump, s.trace = args.dump, args.trace
    if args.cpu:
        s.cpu = CpuMeter()
    if args.cprofile:
        import cProfile

        # --cpu: the profile counts this thread's CPU time (what the server's Python costs), not waits
        s.profiler = cProfile.Profile(time.thread_time) if args.cpu else cProfile.Profile()
    failures = 0
    try:
        with start_sites(0) as sites:
            for task in tasks:
                sites.reset()
                await s.call_tool("close", {})
                await s.call_tool("set_goal", {"goal": task.goal})
                s.rows.pop("close", None)
                s.rows.pop("set_goal", None)
                ep = Episode(task.id, "pagelens")
                answer = await play(PagelensPlanAgent(s, ep), task, resolve_site_url(sites, task.start))
                if not ep.detail:
                    await asyncio.sleep(0.4)
                    result = check_task(task, {n: sites.state(n) for n in sites.names}, answer)
                    ep.success, ep.detail = result.ok, result.detail
                failures += not ep.success
                print(f"{'ok ' if ep.success else 'FAIL'} {task.id:28} calls={len(ep.calls):2} tokens={ep.tokens:6} "
                      + " ".join(f"{c.tool}:{c.seconds:.2f}s/{c.tokens}" for c in ep.calls), file=sys.stderr, flush=True)
    finally:
        await asyncio.get_running_loop().run_in_executor(pool, browsing.close)
        pool.shutdown()
        if s.profiler is not None:
            s.profiler.dump_stats(args.cprofile)
    print("| tool | calls | p50 s | mean s | mean s by stage (largest first) |\n|---|---|---|---|---|")
    for tool, rows in sorted(s.rows.items()):
        stages: collections.Counter[str] = collections.Counter()
        for _, d in rows:
            stages.update({k: v for k, v in d.items() if not k.startswith("cpu.")})
        secs = [r[0] for r in rows]
        top = ", ".join(f"{k} {v / len(rows):.3f}" for k, v in stages.most_common(16))
        print(f"| {tool} | {len(rows)} | {statistics.median(secs):.3f} | {statistics.mean(secs):.3f} | {top} |")
    if s.cpu is not None:
        print("\n| tool | calls | CPU ms / call: python | driver | chromium | all (mean) | all (p50) |\n|---|---|---|---|---|---|---|")
        for tool, rows in sorted(s.rows.items()):
            parts = [[d.get(k, 0.0) for _, d in rows] for k in ("cpu.python", "cpu.driver", "cpu.chromium")]
            total = [sum(x) for x in zip(*parts, strict=True)]
            print(f"| {tool} | {len(rows)} | " + " | ".join(f"{1000 * statistics.mean(p):.1f}" for p in parts)
                  + f" | {1000 * statistics.mean(total):.1f} | {1000 * statistics.median(total):.1f} |")
    every = sorted(secs for rows in s.rows.values() for secs, _ in rows)
    if every:
        print(f"all calls: {len(every)}, p50 {statistics.median(every):.3f} s, p90 {every[int(0.9 * (len(every) - 1))]:.3f} s")
    print(f"({len(tasks)} tasks, {failures} failed)")
    return 1 if failures else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tasks", help="comma-separated task ids (default: all 44)")
    parser.add_argument("--limit", type=int)
    parser.add_argument("--view-cap", type=int, default=None)
    parser.add_argument("--dump", action="store_true", help="print every call and its answer (stderr)")
    parser.add_argument("--trace", action="store_true", help="print every call's Playwright round trips (stderr)")
    parser.add_argument("--cprofile", metavar="FILE", help="cProfile the tool calls (not the set-up) into FILE")
    parser.add_argument("--cpu", action="store_true", help="CPU time per call by process (this thread, driver, "
                        "Chromium); with --cprofile, profile this thread's CPU time instead of wall time")
    args = parser.parse_args(argv)
    install()
    if args.trace:
        trace_round_trips()
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main())
