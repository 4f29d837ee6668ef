"""h39-badges: the cases of a development injection set whose defense flags differ from off under R4 or B1 (cached
observations in runs/d22/obs-<set>). usage: PYTHONPATH=src .venv/bin/python benchmarks/badges_dev_flags.py dev33"""
import sys, tempfile, json
from pathlib import Path
sys.path.insert(0, "benchmarks")
import injection_blind4 as ib
from pagelens.api import render_observation
from pagelens.focus import roles
from pagelens.focus.defense import detect
s = sys.argv[1]
with tempfile.TemporaryDirectory() as tmp:
    for case in ib.load_cases(Path(f"benchmarks/data/injections_{s}.jsonl")):
        obs = ib._cached_observation(case, Path("/work/shared/corpus/realpages"), lambda: None, Path(tmp), Path(f"runs/d22/obs-{s}"))
        r = render_observation(obs)
        res = {}
        for m in ("off", "R4", "B1"):
            roles.MODE = m; res[m] = detect(r, goal=case.goal)
        if res["R4"] != res["off"] or res["B1"] != res["off"]:
            print(case.id, "R4 differs" if res["R4"] != res["off"] else "", "B1 differs" if res["B1"] != res["off"] else "")
