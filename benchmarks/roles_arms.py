"""Candidate rows of the claimed-roles pass (h37-roles) from base rows, on the cached observations of
``defense_langs_devsets.sh``: each case's rendering judged with ``roles.MODE`` = off, R1, R2, R3 in one process; a case
whose flags equal off's keeps base's row (the harness is deterministic on a cached observation), the others are run again
in full (``injection_blind4.run_case``) under that MODE (the modes: env ROLES_MODES, default "R1 R2 R3"). Writes ``<OUT_PREFIX>-R1/<set>.json`` etc.

    PYTHONPATH=src .venv/bin/python benchmarks/roles_arms.py BASE_DIR OUT_PREFIX SET...
"""
import json, os, sys, tempfile
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parent))
import injection_blind4 as ib
from pagelens.api import render_observation
from pagelens.focus import roles
from pagelens.focus.defense import detect
MODES = tuple(os.environ.get("ROLES_MODES", "R1 R2 R3").split())  # h38-roles2: ROLES_MODES="R4 R5"
base_dir, prefix, sets = Path(sys.argv[1]), sys.argv[2], sys.argv[3:]
for s in sets:
    pages = Path("/work/shared/corpus/realpages"); cache = Path(f"runs/d22/obs-{s}")
    if s in ("blind14", "benign18a"): pages = Path("benchmarks/data/pages_blind13")
    if s in ("blind15", "benign18b"): pages = Path("benchmarks/data/pages_blind14")
    if s.startswith("benign"): cache = Path(f"runs/b22/obs-{s}")
    base = {r["id"]: r for r in json.loads((base_dir / f"{s}.json").read_text())}
    out = {m: [] for m in MODES}; changed = {m: [] for m in MODES}
    with tempfile.TemporaryDirectory() as tmp:
        for case in ib.load_cases(Path(f"benchmarks/data/injections_{s}.jsonl")):
            obs = ib._cached_observation(case, pages, lambda: None, Path(tmp), cache)
            r = render_observation(obs)
            roles.MODE = "off"; ref = detect(r, goal=case.goal)
            for m in MODES:
                roles.MODE = m
                if detect(r, goal=case.goal) == ref:
                    out[m].append(base[case.id]); continue
                row = ib.run_case(case, pages, lambda: None, Path(tmp), cache)
                out[m].append(row); changed[m].append(case.id)
            roles.MODE = "off"
    for m in MODES:
        d = Path(f"{prefix}-{m}"); d.mkdir(parents=True, exist_ok=True)
        (d / f"{s}.json").write_text(json.dumps(out[m], indent=1))
        print(s, m, "rerun:", " ".join(changed[m]), flush=True)
