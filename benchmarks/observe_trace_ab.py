"""A/B of the renderer's main-thread *thread* time per cold walker observation, two source trees
alternated (issue 13, h10-obs): ``observe_trace.py``'s measure, in rounds.

Each round runs one worker process per variant (order reversed every other round); a worker loads
every page ``REPS`` times, each in a fresh context, traces one observation and sums the renderer
main thread's self thread time (``tdur``) per trace event. Printed per page and variant: medians of
the total, of the walker's JavaScript (``EvaluateScript`` / ``FunctionCall``), of V8 parse+compile,
and the walker stage's wall time (load-sensitive; for reference only).

    .venv/bin/python benchmarks/observe_trace_ab.py --rounds 4 --reps 2 \\
        --variants base=/tmp/base10/src,new=src /tmp/pages/gen-1000.html /work/shared/corpus/realpages/011-hacker-news-front.html
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

CATEGORIES = ["devtools.timeline", "v8", "v8.execute", "blink", "disabled-by-default-devtools.timeline",
              "disabled-by-default-v8.compile", "toplevel"]


def _self_times(events: list[dict[str, Any]]) -> collections.Counter[str]:
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events if e.get("ph") == "M" and e.get("name") == "thread_name"}
    mains = {k for k, v in names.items() if v == "CrRendererMain"}
    by: dict[tuple[int, int], list[dict[str, Any]]] = collections.defaultdict(list)
    for e in events:
        if (e.get("pid"), e.get("tid")) in mains and e.get("ph") == "X" and "tdur" in e:
            by[(e["pid"], e["tid"])].append(e)
    agg: collections.Counter[str] = collections.Counter()
    for es in by.values():
        es.sort(key=lambda e: (e["ts"], -e.get("dur", 0)))
        stack: list[tuple[int, int, dict[str, float]]] = []
        recs = []
        for e in es:
            while stack and stack[-1][1] <= e["ts"]:
                stack.pop()
            rec = {"self": float(e["tdur"])}
            if stack:
                stack[-1][2]["self"] -= e["tdur"]
            stack.append((e["ts"], e["ts"] + e.get("dur", 0), rec))
            recs.append((e["name"], rec))
        for name, rec in recs:
            agg[name] += rec["self"]
    return agg


def worker(reps: int, pages: list[str]) -> None:
    from pagelens.browser.serve import serve_file
    from pagelens.browser.session import BrowserSession
    from pagelens.config import BrowserConfig

    out: dict[str, list[dict[str, float]]] = {}
    with BrowserSession(BrowserConfig(block_external=False, extract_timeout_s=300)) as s:
        for p in pages:
            for _ in range(reps):
                with serve_file(Path(p)) as url, s.episode() as ep:
                    ep.goto(url)
                    s.browser.start_tracing(page=ep.page, categories=CATEGORIES)
                    obs = ep.observe()
                    data = json.loads(s.browser.stop_tracing())
                agg = _self_times(data["traceEvents"] if isinstance(data, dict) else data)
                out.setdefault(Path(p).name, []).append({
                    "total": sum(agg.values()) / 1000,
                    "js": (agg.get("EvaluateScript", 0) + agg.get("FunctionCall", 0)) / 1000,
                    "compile": sum(v for k, v in agg.items() if k.startswith(("V8.Parse", "V8.Compile"))) / 1000,
                    "walker_ms": obs.timings["walker"] * 1000})
    print(json.dumps(out))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pages", nargs="+")
    ap.add_argument("--variants", required=True, help="name=PYTHONPATH,name=PYTHONPATH")
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--reps", type=int, default=2)
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args.reps, args.pages)
        return
    variants = [v.split("=", 1) for v in args.variants.split(",")]
    acc: dict[str, dict[str, list[dict[str, float]]]] = {}
    for r in range(args.rounds):
        for name, src in variants if r % 2 == 0 else variants[::-1]:
            done = subprocess.run([sys.executable, __file__, "--worker", "--variants", "-", "--reps", str(args.reps), *args.pages],
                                  env=dict(os.environ, PYTHONPATH=src), capture_output=True, text=True, check=False)
            if done.returncode:
                print(f"{name}: worker failed: {done.stderr[-500:]}", file=sys.stderr)
                continue
            for page, res in json.loads(done.stdout.strip().splitlines()[-1]).items():
                acc.setdefault(page, {}).setdefault(name, []).extend(res)
    for page, by in acc.items():
        print(page)
        for name, res in by.items():
            def med(k: str, res: list[dict[str, float]] = res) -> float:
                return statistics.median(x[k] for x in res)
            print(f"  {name:10s} n={len(res):2d}  thread ms: total {med('total'):7.1f}  js {med('js'):7.1f}  "
                  f"compile {med('compile'):5.1f}  | walker stage wall {med('walker_ms'):7.1f} ms")


if __name__ == "__main__":
    main()
