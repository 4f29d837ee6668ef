"""Time and memory of the Python side after extraction (issue 13 items 4-5): render, the full
tree's token count and ``default`` focus, on cached observations (no browser in the timed part).

Two steps:

    # 1. observe the generated pages once with the walker (needs Chromium) and pickle them
    .venv/bin/python benchmarks/render_scale.py cache --sizes 1000,5000,20000,50000,100000 --out runs/rs-cache
    # 2. measure, each observation in a fresh interpreter (so peaks do not mix), for each source
    #    tree (alternated page by page: base, cand, base, cand ...)
    .venv/bin/python benchmarks/render_scale.py measure runs/rs-cache/*.obs.pickle \
        --sources base=/tmp/renderbase/src,cand=src [--rounds 2] [--reps 2] [--json out.json]

Per observation (fresh process, imports and tokenizer warmed on a tiny page first):

* ``load`` — unpickling the observation (what the walker's build leaves behind: the tree);
* ``render`` / ``tokens`` / ``focus`` — the three stages of :func:`pagelens.api.focus_view`
  (render, ``tokens.count`` of the full text, ``focus()`` with the ``default`` retriever and the
  defense), fastest of ``--reps`` in each of ``--rounds`` processes, as wall time (``_s``) and
  as the process' CPU time (``_cpu``: less inflated by other jobs on a shared machine);
* memory — the process' resident set (``/proc/self/status``): the peak over the whole
  ``focus_view`` call above the RSS once the tree is loaded (``VmHWM`` reset through
  ``/proc/self/clear_refs``), and what stays resident while the caller keeps the
  ``PageView``; plus ``tracemalloc``'s peak of Python allocations during ``focus_view`` (a
  separate pass: tracing slows the code down, so its times are not used).

``pages``: many observations in one process per source (the corpus), each stage's CPU time
per page (``focus`` with the per-page caches of :mod:`pagelens.focus.analysis` cleared first),
fastest of ``--reps``, and the medians:

    .venv/bin/python benchmarks/render_scale.py pages /work/main/runs/b5/cache-main/*.obs.pickle \
        --sources base=/tmp/renderbase/src,cand=src [--reps 3] [--json out.json]

Goals: the corpus page's first goal of ``benchmarks/data/realpage_goals.jsonl`` (development
set), the generic form goal of ``observe_peers.py`` on generated pages.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
GENERIC_GOAL = "Find the request form, fill in the message and send it"


def _status_kb(key: str) -> int:
    for row in Path("/proc/self/status").read_text().splitlines():
        if row.startswith(key + ":"):
            return int(row.split()[1])
    return 0


def _reset_peak() -> None:
    Path("/proc/self/clear_refs").write_text("5")


def goal_for(page: str) -> str:
    stem = page.split(".obs.pickle")[0]
    for row in (HERE / "data" / "realpage_goals.jsonl").read_text().splitlines():
        rec = json.loads(row)
        if Path(rec["page"]).stem == stem:
            return str(rec["goal"])
    return GENERIC_GOAL


def cmd_cache(args: argparse.Namespace) -> None:
    sys.path.insert(0, str(HERE))
    import pickle

    from gen_pages import write_pages

    from pagelens.browser.serve import StaticServer
    from pagelens.browser.session import BrowserSession
    from pagelens.config import BrowserConfig

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    pages = write_pages([int(s) for s in args.sizes.split(",")], out)
    config = BrowserConfig(navigation_timeout_s=300, extract_timeout_s=600)
    with StaticServer(out) as srv, BrowserSession(config) as session:
        for p in pages:
            with session.episode() as ep:
                ep.goto(srv.url(p.name))
                t = time.perf_counter()
                obs = ep.observe(timeout_s=600)
                dt = time.perf_counter() - t
            target = out / (p.stem + ".obs.pickle")
            target.write_bytes(pickle.dumps(obs, protocol=pickle.HIGHEST_PROTOCOL))
            print(f"{p.name}: {len(obs.nodes)} nodes in {dt:.1f} s -> {target}", flush=True)


def _one(path: str, reps: int, trace: bool) -> dict[str, Any]:
    """Runs in the child: measure one observation."""
    import gc
    import pickle

    from pagelens import tokens
    from pagelens.api import focus_view
    from pagelens.focus.apply import focus
    from pagelens.focus.base import FocusQuery
    from pagelens.focus.registry import make_retriever
    from pagelens.observe.render import render
    from pagelens.types import Node, Observation

    goal = goal_for(Path(path).name)
    tiny = Observation("http://127.0.0.1/", "t", (Node(0, None, 0, None, "RootWebArea", "t"),
                                                 Node(1, 0, 1, None, "StaticText", "warm up")))
    focus_view(tiny, goal=goal)  # imports, tokenizer, lexicons
    tokens.count("warm up")
    gc.collect()
    rss0 = _status_kb("VmRSS")
    t = time.perf_counter()
    obs = pickle.loads(Path(path).read_bytes())
    load_s = time.perf_counter() - t
    gc.collect()
    rss_tree = _status_kb("VmRSS")
    row: dict[str, Any] = {"page": Path(path).name.split(".obs.pickle")[0], "nodes": len(obs.nodes),
                           "load_s": load_s, "tree_mb": (rss_tree - rss0) / 1024}
    if trace:
        import tracemalloc

        tracemalloc.start()
        view = focus_view(obs, goal=goal)
        _cur, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        row["tracemalloc_peak_mb"] = peak / 2**20
        return row
    _reset_peak()
    view = focus_view(obs, goal=goal)
    row["peak_over_tree_mb"] = (_status_kb("VmHWM") - rss_tree) / 1024
    gc.collect()
    row["kept_view_mb"] = (_status_kb("VmRSS") - rss_tree) / 1024
    row["lines"] = len(view.rendering.lines)
    row["full_tokens"] = view.full_tokens
    row["sent_lines"] = len(view.focused.lines) if view.focused is not None else None
    retriever = make_retriever("default")
    best: dict[str, float] = {}
    clocks = (("_s", time.perf_counter), ("_cpu", time.process_time))
    del view
    for _ in range(reps):
        for suffix, clock in clocks:
            gc.collect()
            t0 = clock()
            rendering = render(obs)
            t1 = clock()
            full = tokens.count(rendering.text())
            t2 = clock()
            focus(rendering, FocusQuery(goal=goal), retriever, defense=True, full_tokens=full)
            t3 = clock()
            del rendering
            again = focus_view(obs, goal=goal)
            t4 = clock()
            del again
            for k, v in (("render", t1 - t0), ("tokens", t2 - t1), ("focus", t3 - t2), ("focus_view", t4 - t3)):
                best[k + suffix] = min(best.get(k + suffix, v), v)
    row.update(best)
    return row


def _child(src: str, path: str, reps: int, trace: bool) -> dict[str, Any]:
    cmd = [sys.executable, __file__, "_one", path, "--reps", str(reps)] + (["--trace"] if trace else [])
    env = {**os.environ, "PYTHONPATH": str(Path(src).resolve())}
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    if proc.returncode != 0:
        print(proc.stderr[-2000:], file=sys.stderr)
        raise SystemExit(f"{path}: worker failed ({src})")
    out: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return out


def cmd_measure(args: argparse.Namespace) -> None:
    sources = dict(item.split("=", 1) for item in args.sources.split(","))
    rows = []
    for path in args.pickles:
        per: dict[str, dict[str, Any]] = {name: {} for name in sources}
        for rnd in range(args.rounds):
            for name, src in sources.items():
                got = _child(src, path, args.reps, False)
                if rnd == 0 and not args.no_trace:
                    got.update({k: v for k, v in _child(src, path, 1, True).items() if k == "tracemalloc_peak_mb"})
                for k, v in got.items():  # times: the fastest; memory: the largest
                    old = per[name].get(k)
                    if old is None or not isinstance(v, float):
                        per[name][k] = v
                    else:
                        per[name][k] = min(old, v) if k.endswith(("_s", "_cpu")) else max(old, v)
        for name, res in per.items():
            rows.append({"source": name, **res})
            print(name, " ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}" for k, v in res.items()),
                  flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps({"command": " ".join(sys.argv), "sources": sources, "rows": rows,
                                               "load_avg_end": os.getloadavg()}, indent=1))


def _pages(paths: list[str], reps: int) -> dict[str, Any]:
    """Runs in the child: CPU time of each stage per page, one process for all pages."""
    import gc
    import pickle

    from pagelens import tokens
    from pagelens.focus.analysis import clear_caches
    from pagelens.focus.apply import focus
    from pagelens.focus.base import FocusQuery
    from pagelens.focus.registry import make_retriever
    from pagelens.observe.render import render

    retriever = make_retriever("default")
    out: dict[str, Any] = {}
    for path in paths:
        obs = pickle.loads(Path(path).read_bytes())
        goal = goal_for(Path(path).name)
        best: dict[str, float] = {}
        for rnd in range(reps + 1):  # the first round warms imports and per-text caches: not counted
            clear_caches()
            gc.collect()
            t0 = time.process_time()
            rendering = render(obs)
            t1 = time.process_time()
            full = tokens.count(rendering.text())
            t2 = time.process_time()
            focus(rendering, FocusQuery(goal=goal), retriever, defense=True, full_tokens=full)
            t3 = time.process_time()
            if rnd == 0:
                continue
            for k, v in (("render_cpu", t1 - t0), ("tokens_cpu", t2 - t1), ("focus_cpu", t3 - t2), ("all_cpu", t3 - t0)):
                best[k] = min(best.get(k, v), v)
        out[Path(path).name.split(".obs.pickle")[0]] = best
    return out


def cmd_pages(args: argparse.Namespace) -> None:
    import statistics

    sources = dict(item.split("=", 1) for item in args.sources.split(","))
    res: dict[str, Any] = {}
    for name, src in sources.items():
        cmd = [sys.executable, __file__, "_pages", "--reps", str(args.reps), *args.pickles]
        env = {**os.environ, "PYTHONPATH": str(Path(src).resolve())}
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
        if proc.returncode != 0:
            print(proc.stderr[-2000:], file=sys.stderr)
            raise SystemExit(f"pages worker failed ({src})")
        res[name] = json.loads(proc.stdout.strip().splitlines()[-1])
    names = list(sources)
    summary: dict[str, Any] = {}
    for name in names:
        summary[name] = {k: statistics.median(row[k] for row in res[name].values())
                         for k in ("render_cpu", "tokens_cpu", "focus_cpu", "all_cpu")}
        print(name, "median CPU s per page:", {k: round(v, 4) for k, v in summary[name].items()})
    if len(names) == 2:
        a, b = names
        for k in ("render_cpu", "tokens_cpu", "focus_cpu", "all_cpu"):
            ratios = [res[b][p][k] / res[a][p][k] for p in res[a] if res[a][p][k] > 0]
            print(f"{b}/{a} {k}: median ratio per page {statistics.median(ratios):.3f}")
    if args.json:
        Path(args.json).write_text(json.dumps({"command": " ".join(sys.argv), "sources": sources, "pages": res,
                                               "medians": summary, "load_avg_end": os.getloadavg()}, indent=1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("cache")
    c.add_argument("--sizes", default="1000,5000,20000,50000,100000")
    c.add_argument("--out", required=True)
    m = sub.add_parser("measure")
    m.add_argument("pickles", nargs="+")
    m.add_argument("--sources", default="cand=src", help="name=PYTHONPATH,... (alternated page by page)")
    m.add_argument("--rounds", type=int, default=2)
    m.add_argument("--reps", type=int, default=2)
    m.add_argument("--json")
    m.add_argument("--no-trace", action="store_true", help="skip the tracemalloc pass")
    g = sub.add_parser("pages")
    g.add_argument("pickles", nargs="+")
    g.add_argument("--sources", default="cand=src", help="name=PYTHONPATH,...")
    g.add_argument("--reps", type=int, default=3)
    g.add_argument("--json")
    h = sub.add_parser("_pages")
    h.add_argument("pickles", nargs="+")
    h.add_argument("--reps", type=int, default=3)
    o = sub.add_parser("_one")
    o.add_argument("pickle")
    o.add_argument("--reps", type=int, default=3)
    o.add_argument("--trace", action="store_true")
    args = ap.parse_args()
    if args.cmd == "cache":
        cmd_cache(args)
    elif args.cmd == "measure":
        cmd_measure(args)
    elif args.cmd == "pages":
        cmd_pages(args)
    elif args.cmd == "_pages":
        print(json.dumps(_pages(args.pickles, args.reps)))
    else:
        print(json.dumps(_one(args.pickle, args.reps, args.trace)))


if __name__ == "__main__":
    main()
