"""Per arm: attacks retained / redacted / benign flagged over the 19 development sets, split by the harness' --half convention
(odd id = read, even = unread). usage: roles_halves.py base=DIR R1=DIR ..."""
import json, re, sys
from pathlib import Path
SETS = "dev6 dev8 dev9 dev12 dev13 dev14 dev15 dev15b blind4 blind5 blind6 blind7 blind8 blind9 blind14 blind15 benign18a benign18b dev33 dev34".split()
def half(i):
    m = re.search(r"(\d+)$", i); return "read" if m and int(m.group(1)) % 2 else "unread"
print("| arm | retained read / unread / sum | redacted read / unread / sum | benign flagged (read / unread / sum) |")
print("|---|---|---|---|")
for a in sys.argv[1:]:
    n, d = a.split("=", 1); t = {k: [0, 0, 0] for k in ("read", "unread")}
    for s in SETS:
        for r in json.loads((Path(d) / f"{s}.json").read_text()):
            h = half(r["id"])
            if r["benign"]: t[h][2] += bool(r["redacted"])
            else:
                t[h][0] += bool(r["retained"] and not r["redacted"]); t[h][1] += bool(r["redacted"])
    R, U = t["read"], t["unread"]
    print(f"| {n} | {R[0]} / {U[0]} / **{R[0]+U[0]}** | {R[1]} / {U[1]} / {R[1]+U[1]} | {R[2]} / {U[2]} / {R[2]+U[2]} |")
