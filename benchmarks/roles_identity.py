"""The claimed-roles passes: an older roles.py against this checkout's on cached renderings (defense_fp's cache):
whether roles.judge finds the same (line, claim, use) on every page, and the judge's CPU time (best of 5, thread time).

    PYTHONPATH=src .venv/bin/python benchmarks/roles_identity.py OLD_ROLES_PY CACHE_DIR PREFIX MODE...
    e.g. roles_identity.py /tmp/roles_old.py runs/defense-cache sites R1 R4 R5
"""
import pickle, time, sys, importlib.util
from pathlib import Path
from pagelens.focus import roles as new
spec = importlib.util.spec_from_file_location("roles_old", sys.argv.pop(1)); old = importlib.util.module_from_spec(spec); sys.modules["roles_old"] = old; spec.loader.exec_module(old)
from pagelens.focus.defense import _payload, _live_regions, page_domains, _FOREIGN
from pagelens.focus.evidence import gate
rs = [x for x in (pickle.loads(p.read_bytes()) for p in sorted(Path(sys.argv[1]).glob(sys.argv[2] + "*.pkl"))) if hasattr(x, "lines")]
prep = []
for r in rs:
    pl = [_payload(l) for l in r.lines]; reg = _live_regions(r.lines)
    g = [bool(p) and gate(p, reg[i] in _FOREIGN) for i, p in enumerate(pl)]
    prep.append((r.lines, pl, reg, g, page_domains(r)[0]))
for mode in sys.argv[3:]:
    tot = {"old": 0.0, "new": 0.0}; same = True
    for (lines, pl, reg, g, home) in prep:
        b = {"old": 9, "new": 9}; res = {}
        for _ in range(5):
            for name, mod in (("old", old), ("new", new)):
                mod.MODE = mode
                t = time.thread_time(); res[name] = mod.judge(lines, pl, reg, lambda i: False, home, g); b[name] = min(b[name], time.thread_time() - t)
        same = same and [(f.at, f.claim, f.why) for f in res["old"]] == [(f.at, f.claim, f.why) for f in res["new"]]
        for k in b: tot[k] += b[k]
    print(mode, {k: round(v * 1000, 1) for k, v in tot.items()}, "ms summed over", len(prep), "pages; identical:", same)
