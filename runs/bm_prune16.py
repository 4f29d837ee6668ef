"""bm25-400's pruning per goal (the slice table's baseline; runs/slice16.py did not keep it)."""
import json, sys
from pathlib import Path
sys.path.insert(0, "benchmarks")
import focus_learn as fl
from pagelens.focus.apply import focus
from pagelens.focus.base import FocusQuery
from pagelens.focus.registry import make_retriever
goals = fl.load_goals()
rend = fl.renderings(Path("runs/realpages"), {g["page"] for g in goals})
bm = make_retriever("bm25-400")
Path("runs/bm_prune16.json").write_text(json.dumps({g["id"]: focus(rend[g["page"]], FocusQuery(g["goal"]), bm).pruning for g in goals}))
