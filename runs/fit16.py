import json, sys
from pathlib import Path
sys.path.insert(0, "benchmarks")
import focus_learn as fl
goals = fl.load_goals()
fold = fl.folds([g["page"] for g in goals], by="family")
out = Path("runs/learn16")
for f in sorted(set(fold.values())):
    train = {g["id"] for g in goals if fold[g["page"]] != f}
    p = out / "oof" / f"gbdt_family{f}.json"
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(json.dumps(fl.fit_on("gbdt", out, train)))
    print("fold", f, file=sys.stderr, flush=True)
