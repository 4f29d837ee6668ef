"""What the defense does to each clean page, written out so that two codes can be compared line for line.

For every cached rendering of ``defense_fp.py`` (the corpus pages and the bundled site pages, ``--cache``), the
flags of :func:`pagelens.focus.defense.detect` (line, kind, reason, region) and the lines the notice fold hides,
without a goal and with each development goal of ``benchmarks/data/realpage_goals.jsonl`` on its corpus page.
Run it once per code (``PYTHONPATH`` picks the code), then ``--compare`` the two files: a speed-up must leave them
equal.

    PYTHONPATH=/tmp/base12/src .venv/bin/python benchmarks/defense_outputs.py --cache runs/defense-cache --out base.json
    PYTHONPATH=src             .venv/bin/python benchmarks/defense_outputs.py --cache runs/defense-cache --out new.json
    .venv/bin/python benchmarks/defense_outputs.py --compare base.json new.json
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def outputs(cache: Path) -> dict[str, Any]:
    from pagelens.focus.apply import removal_set
    from pagelens.focus.defense import _payload, detect, home_domains, page_domains
    from pagelens.focus.evidence import Evidence, evidence
    from pagelens.focus.notices import fold

    pages: dict[str, Any] = {}
    renderings: dict[str, Any] = {}
    for p in sorted(cache.glob("*.pkl")):
        if not p.stem.startswith(("corpus_", "sites_")):
            continue
        r = pickle.loads(p.read_bytes())
        renderings[p.stem] = r
        flags = detect(r)
        hidden, _ = removal_set(r, flags)
        folded = fold(r.lines, None, home=lambda r=r: home_domains(r), hidden=hidden)
        home = page_domains(r)[0]
        # the evidence of every line's text that has any (what a verdict reads; most lines have none)
        ev = []
        for ln in r.lines:
            text = _payload(ln)
            e = evidence(text, home) if text else None
            if e is not None and e != Evidence():
                ev.append([ln.no, repr(e)])
        pages[p.stem] = {"flags": [[f.line, f.kind, f.reason, f.region] for f in flags],
                         "folded": sorted(repr(x) for x in folded.folded), "evidence": ev}
    goals = [json.loads(x) for x in (HERE / "data" / "realpage_goals.jsonl").read_text(encoding="utf-8").splitlines()
             if x.strip()]
    with_goals = [[g["page"], g["goal"], [[f.line, f.kind, f.reason] for f in detect(renderings[f"corpus_{g['page']}"], g["goal"])]]
                  for g in goals if f"corpus_{g['page']}" in renderings]
    return {"pages": pages, "with_goals": with_goals}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cache", type=Path, default=HERE.parent / "runs" / "defense-cache")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--compare", nargs=2, type=Path, metavar=("A", "B"))
    args = ap.parse_args()
    if args.compare:
        a, b = (json.loads(p.read_text()) for p in args.compare)
        diff = [k for k in sorted(set(a["pages"]) | set(b["pages"])) if a["pages"].get(k) != b["pages"].get(k)]
        goal_diff = sum(x != y for x, y in zip(a["with_goals"], b["with_goals"])) + abs(len(a["with_goals"]) - len(b["with_goals"]))
        flags = sum(len(v["flags"]) for v in a["pages"].values()), sum(len(v["flags"]) for v in b["pages"].values())
        folded = sum(len(v["folded"]) for v in a["pages"].values()), sum(len(v["folded"]) for v in b["pages"].values())
        evs = sum(len(v["evidence"]) for v in a["pages"].values()), sum(len(v["evidence"]) for v in b["pages"].values())
        print(f"lines with evidence {evs[0]} / {evs[1]}; {len(a['pages'])} / {len(b['pages'])} pages; flags {flags[0]} / {flags[1]}, folded {folded[0]} / {folded[1]}; "
              f"pages that differ: {len(diff)} {diff[:5]}; goals judged {len(a['with_goals'])}, differing: {goal_diff}")
        sys.exit(1 if diff or goal_diff else 0)
    got = outputs(args.cache)
    if args.out:
        args.out.write_text(json.dumps(got, indent=0, sort_keys=True))
    print(f"{len(got['pages'])} pages, {sum(len(v['flags']) for v in got['pages'].values())} flags, "
          f"{sum(len(v['folded']) for v in got['pages'].values())} folded, {len(got['with_goals'])} goals")


if __name__ == "__main__":
    main()
