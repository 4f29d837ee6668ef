"""OOF rows (focus_learn_oof --json) split by the cross-language slice (runs/lang16.json)."""
import json, sys, collections
L = json.load(open("runs/lang16.json"))
rows = [r for f in sys.argv[1:] for r in json.load(open(f))]
by = collections.defaultdict(list)
for r in rows:
    cross = L["goals"][str(r["id"])] != L["pages"][r["page"]]
    by[(r["retriever"], cross)].append(r)
print("| retriever | slice | goals | items | kept | item recall | case recall | pruning |\n|---|---|---|---|---|---|---|---|")
for (lab, cross), rs in sorted(by.items()):
    it = sum(r["items"] for r in rs); k = sum(r["kept"] for r in rs)
    print(f"| {lab} | {'cross-language' if cross else 'rest'} | {len(rs)} | {it} | {k} | {k/it:.3f} | "
          f"{sum(r['kept']==r['items'] for r in rs)/len(rs):.3f} | {sum(r['pruning'] for r in rs)/len(rs):.1%} |")
