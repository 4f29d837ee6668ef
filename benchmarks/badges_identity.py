"""h39-badges: the one-scan role-noun test keeps R4's finds. roles.py of the port (1bba9df) in R4 against this
checkout's B1 with its badge bylines switched off (the cut alone), on cached renderings (defense_fp's cache): whether
roles.judge finds the same (line, claim, use) on every page, and the judge's CPU time summed (best of 5, thread time).
Written for amendment 1 (b8ef8a0), where the cut kept R4's finds; from amendment 2 (0010e19) on, B1 judges gated or
"@" lines only, so R4's finds on digit-only lines may differ.

    git show 1bba9df:src/pagelens/focus/roles.py > /tmp/roles_r4.py
    PYTHONPATH=src .venv/bin/python benchmarks/badges_identity.py /tmp/roles_r4.py runs/defense-cache corpus sites miniwob
"""
import importlib.util, pickle, sys, time
from pathlib import Path
from pagelens.focus import roles as new
spec = importlib.util.spec_from_file_location("roles_old", sys.argv[1]); old = importlib.util.module_from_spec(spec)
sys.modules["roles_old"] = old; spec.loader.exec_module(old)
from pagelens.focus.defense import _FOREIGN, _live_regions, _payload, page_domains
from pagelens.focus.evidence import gate
new.badge_byline = lambda *a, **k: None  # the cut alone
old.MODE, new.MODE = "R4", "B1"
for prefix in sys.argv[3:]:
    rs = [x for x in (pickle.loads(p.read_bytes()) for p in sorted(Path(sys.argv[2]).glob(prefix + "*.pkl")))
          if hasattr(x, "lines")]
    tot = {"R4": 0.0, "B1-cut": 0.0}; same = 0; finds = 0
    for r in rs:
        pl = [_payload(ln) for ln in r.lines]; reg = _live_regions(r.lines)
        g = [bool(p) and gate(p, reg[i] in _FOREIGN) for i, p in enumerate(pl)]
        home = page_domains(r)[0]; res = {}; b = {k: 9.0 for k in tot}
        for _ in range(5):
            for name, mod in (("R4", old), ("B1-cut", new)):
                t = time.thread_time(); res[name] = mod.judge(r.lines, pl, reg, lambda i: False, home, g)
                b[name] = min(b[name], time.thread_time() - t)
        a, c = ([(f.at, f.claim.role, f.claim.frame, f.why) for f in res[k]] for k in ("R4", "B1-cut"))
        same += a == c; finds += len(a)
        for k in b: tot[k] += b[k]
    print(prefix, {k: round(v * 1000, 1) for k, v in tot.items()}, "ms summed;", f"{same}/{len(rs)} pages identical,",
          finds, "R4 finds")
