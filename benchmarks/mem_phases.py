"""RSS of the Python process by phase of walker observations + focus_view in one process (issue 13
item 5, h8-mem): imports, browser session, a 1k warm-up, then REPS observations of PAGE, each
followed by dropping the view and a gc. Bounded: one page, a few repetitions.

    PYTHONPATH=src .venv/bin/python benchmarks/mem_phases.py /tmp/m8/cache/gen-100000.html 2

(PAGE's folder must also hold gen-1000.html, as render_scale.py cache writes it.)
"""
import gc, sys, threading, time, json
def st(key):
    for r in open('/proc/self/status'):
        if r.startswith(key + ':'): return int(r.split()[1]) / 1024
def reset(): open('/proc/self/clear_refs','w').write('5')
out = []
def mark(label):
    out.append((label, round(st('VmRSS')), round(st('VmHWM'))))
    print(f"{label:40s} rss {st('VmRSS'):7.1f}  hwm {st('VmHWM'):7.1f}", flush=True)
    reset()
mark('start')
import pagelens.api
from pagelens.api import focus_view
from pagelens.browser.session import BrowserSession
from pagelens.browser.serve import StaticServer
from pagelens.config import BrowserConfig
from pathlib import Path
mark('imports')
page = sys.argv[1]; reps = int(sys.argv[2]) if len(sys.argv) > 2 else 2
goal = "Find the request form, fill in the message and send it"
cfg = BrowserConfig(navigation_timeout_s=300, extract_timeout_s=600)
with StaticServer(Path(page).parent) as srv, BrowserSession(cfg) as s:
    mark('session')
    with s.episode() as ep:
        ep.goto(srv.url('gen-1000.html')); o = ep.observe(timeout_s=120); v = focus_view(o, goal=goal)
    del o, v; gc.collect()
    mark('warm-up 1k (observe+focus)')
    for rep in range(reps):
        with s.episode() as ep:
            ep.goto(srv.url(Path(page).name))
            mark(f'[{rep}] goto')
            t = time.perf_counter(); obs = ep.observe(timeout_s=300); t1 = time.perf_counter()
            mark(f'[{rep}] observe {t1-t:.1f}s ({len(obs.nodes)} nodes)')
            view = focus_view(obs, goal=goal)
            mark(f'[{rep}] focus_view {time.perf_counter()-t1:.1f}s')
        mark(f'[{rep}] episode closed (view kept)')
        del view, obs
        gc.collect()
        mark(f'[{rep}] view+obs dropped, gc')
