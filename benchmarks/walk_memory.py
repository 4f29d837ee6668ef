"""Memory of one observation of a big page, by process (issue 13 item 5; h8-obs).

Chromium's PSS (the renderer's and all of Chromium's) after the page loaded (the floor: Chromium
holding the page), its peak while ``observe()`` runs (sampled every ~30 ms) and after; the
Playwright driver's RSS; the Python process' RSS; then the same across ``focus_view``.

    PYTHONPATH=src .venv/bin/python benchmarks/walk_memory.py /tmp/pages/gen-100000.html

(One process, fresh browser; the sampler itself costs CPU, so its times are not figures.)
"""
import sys, time, json, threading, os, glob
from pathlib import Path
from pagelens.browser.serve import StaticServer
from pagelens.browser.session import BrowserSession
from pagelens.config import BrowserConfig
from pagelens.api import focus_view
page_path = Path(sys.argv[1]).resolve()
page = page_path.name
srv = StaticServer(page_path.parent)
cfg = BrowserConfig(block_external=False, extract_timeout_s=600, navigation_timeout_s=300)
def kids():
    k = {}
    for st in glob.glob("/proc/[0-9]*/stat"):
        try: t = open(st).read()
        except OSError: continue
        f = t[t.rfind(")") + 2:].split(); k.setdefault(int(f[1]), []).append(int(st.split("/")[2]))
    return k
def tree(root):
    k = kids(); out, stack = [], [root]
    while stack:
        p = stack.pop(); out.append(p); stack += k.get(p, [])
    return out
def cmd(p):
    try: return open(f"/proc/{p}/cmdline", "rb").read().decode(errors="replace")
    except OSError: return ""
def pss(p):
    try:
        for line in open(f"/proc/{p}/smaps_rollup"):
            if line.startswith("Pss:"): return int(line.split()[1]) * 1024
    except OSError: pass
    return 0
def rss(p):
    try: return int(open(f"/proc/{p}/statm").read().split()[1]) * 4096
    except OSError: return 0
MB = 2 ** 20
def snapshot():
    pids = tree(os.getpid())
    out = {"python": rss(os.getpid()), "driver": 0, "renderer_pss": 0, "chromium_pss": 0}
    for p in pids:
        c = cmd(p)
        if p == os.getpid(): continue
        if "chrom" in c:
            v = pss(p); out["chromium_pss"] += v
            if "--type=renderer" in c: out["renderer_pss"] = max(out["renderer_pss"], v)
        elif "node" in c or "driver" in c: out["driver"] += rss(p)
    out["total"] = out["python"] + out["driver"] + out["chromium_pss"]
    return out
class Peak:
    def __init__(self):
        self.peak = {}; self.on = True
        self.t = threading.Thread(target=self.run, daemon=True); self.t.start()
    def run(self):
        while self.on:
            s = snapshot()
            for k, v in s.items(): self.peak[k] = max(self.peak.get(k, 0), v)
            time.sleep(0.03)
    def stop(self):
        self.on = False; self.t.join(); return self.peak
res = {}
with BrowserSession(cfg) as s:
    with s.episode() as ep:
        ep.goto(srv.base_url + page)
        ep.page.wait_for_timeout(1500)
        res["after_load"] = snapshot()
        pk = Peak(); t = time.perf_counter(); o = ep.observe(); res["observe_s"] = time.perf_counter() - t
        res["peak_observe"] = pk.stop(); res["after_observe"] = snapshot()
        res["stages"] = {k: round(v, 3) for k, v in o.timings.items()}
        pk = Peak(); v = focus_view(o, goal="Find the request form, fill in the message and send it")
        res["peak_focus"] = pk.stop(); res["after_focus"] = snapshot()
        res["nodes"] = len(o.nodes)
        ep.page.wait_for_timeout(3000)
        res["renderer_later"] = snapshot()
for k, v in res.items():
    if isinstance(v, dict) and "total" in v: print(f"{k:16s}", " ".join(f"{a}={b / MB:.0f}" for a, b in v.items()))
    else: print(k, v)
