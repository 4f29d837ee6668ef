"""The claimed-roles passes: whether a candidate ``roles.MODE`` changes the defense's flags on any goal of a focus_tail
group (cached renderings): a goal whose flags equal off's gets base's focused view (the defense is the only code the
switch reaches). usage: roles_choose_flags.py GROUP MODE... [--cache runs/rp] [--pages DIR]"""
import sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parent))
from focus_tail import load
from realpage_goals import renderings
from pagelens.focus import roles
from pagelens.focus.defense import detect
args = sys.argv[1:]
cache = Path(args[args.index("--cache") + 1]) if "--cache" in args else Path("runs/rp")
pages = Path(args[args.index("--pages") + 1]) if "--pages" in args else Path("/work/shared/corpus/realpages")
group, modes = args[0], [a for a in args[1:] if not a.startswith("--") and a not in (str(cache), str(pages))]
goals = load(group)
parsed = renderings(goals, cache, pages)
diff = {m: [] for m in modes}
for g in goals:
    r = parsed[g["page"]]
    roles.MODE = "off"; ref = detect(r, goal=g["goal"])
    for m in modes:
        roles.MODE = m
        if detect(r, goal=g["goal"]) != ref:
            diff[m].append((g["set"], g["page"], g["goal"][:60]))
    roles.MODE = "off"
for m in modes:
    print(m, "goals with other flags than off:", len(diff[m]), "of", len(goals))
    for d in diff[m][:20]:
        print("  ", *d)
