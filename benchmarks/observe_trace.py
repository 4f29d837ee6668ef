"""Where a walker observation's renderer time goes: Chromium's trace of cold observations (a fresh
load each), the renderer main thread's *thread* time (``tdur``: on-CPU, so the machine's load
barely moves it) per trace event name, self time (children subtracted), per observation.

    PYTHONPATH=src .venv/bin/python benchmarks/observe_trace.py 4 /work/shared/corpus/realpages/036-netgear-port-forwarding.html

(The trace events are Chromium's: ``EvaluateScript`` is the walker's own JavaScript, ``V8.Parse*`` /
``V8.Compile*`` compiling it for the new document, ``UpdateStyleAndLayout`` style and layout.)
"""
import collections
import json
import sys
from pathlib import Path

from pagelens.browser.serve import serve_file
from pagelens.browser.session import BrowserSession
from pagelens.config import BrowserConfig

cats = ["devtools.timeline", "v8", "v8.execute", "blink", "disabled-by-default-devtools.timeline", "disabled-by-default-v8.compile", "toplevel"]
cfg = BrowserConfig(block_external=False, extract_timeout_s=120)
reps = int(sys.argv[1])
for p in sys.argv[2:]:
    agg: collections.Counter[str] = collections.Counter()
    with BrowserSession(cfg) as s:
        for _rep in range(reps):
            with serve_file(Path(p)) as url, s.episode() as ep:
                ep.goto(url)
                s.browser.start_tracing(page=ep.page, categories=cats)
                ep.observe()
                data = json.loads(s.browser.stop_tracing())
            evs = data["traceEvents"] if isinstance(data, dict) else data
            # the renderer main thread: thread name CrRendererMain
            names = {(e["pid"], e["tid"]): e["args"]["name"] for e in evs if e.get("ph") == "M" and e.get("name") == "thread_name"}
            mains = {k for k, v in names.items() if v == "CrRendererMain"}
            # per thread, complete events -> self time by tdur
            by = collections.defaultdict(list)
            for e in evs:
                if (e.get("pid"), e.get("tid")) in mains and e.get("ph") == "X" and "tdur" in e:
                    by[(e["pid"], e["tid"])].append(e)
            for es in by.values():
                es.sort(key=lambda e: (e["ts"], -e.get("dur", 0)))
                stack = []
                for e in es:
                    end = e["ts"] + e.get("dur", 0)
                    while stack and stack[-1][1] <= e["ts"]:
                        stack.pop()
                    if stack:
                        stack[-1][2]["self"] -= e["tdur"]
                    rec = {"name": e["name"], "self": e["tdur"]}
                    stack.append((e["ts"], end, rec))
                    e["_rec"] = rec
                for e in es:
                    agg[e["name"]] += e["_rec"]["self"]
    tot = sum(agg.values())
    print(Path(p).name, f"renderer main self thread-time per observation (ms), total {tot/1000/reps:.1f}")
    for n, v in agg.most_common(25):
        print(f"  {v/1000/reps:8.2f}  {n}")
