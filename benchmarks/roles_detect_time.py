"""Defense CPU time per page (thread time, best of 5, modes interleaved) for several roles.MODE values on defense_fp's
cache; the pages that grow most.  usage: PYTHONPATH=src .venv/bin/python benchmarks/roles_detect_time.py sites off R4"""
import pickle, time, sys
from pathlib import Path
from pagelens.focus import roles, defense
paths = sorted(Path("runs/defense-cache").glob(sys.argv[1] + "*.pkl"))
rs = [(p.name, x) for p in paths if hasattr(x := pickle.loads(p.read_bytes()), "lines")]
modes = sys.argv[2:]
best = {m: [9.0] * len(rs) for m in modes}
for rnd in range(5):
    for k, (n, r) in enumerate(rs):
        for m in (modes if rnd % 2 else modes[::-1]):
            roles.MODE = m
            t = time.thread_time(); defense.detect(r); dt = time.thread_time() - t
            best[m][k] = min(best[m][k], dt)
def pct(xs, q): xs = sorted(xs); return xs[min(len(xs)-1, int(round(q*(len(xs)-1))))]
for m in modes:
    print(m, "sum %.1f ms, p50 %.2f, p95 %.2f" % (sum(best[m])*1000, pct(best[m], .5)*1000, pct(best[m], .95)*1000))
d = sorted(((best[modes[1]][k] - best[modes[0]][k]) * 1000, rs[k][0], len(rs[k][1].lines), best[modes[0]][k]*1000) for k in range(len(rs)))
for x in d[-6:]: print("  +%.2f ms %s (%d lines, base %.2f)" % x)
