"""What the defense does to each clean page, written out so that two codes can be compared line for line.

For every cached rendering of ``defense_fp.py`` (the corpus pages and the bundled site pages, ``--cache``), the
flags of :func:`pagelens.focus.defense.detect` (line, kind, reason, region) and the lines the notice fold hides,
without a goal and with each development goal of ``benchmarks/data/realpage_goals.jsonl`` on its corpus page.
Run it once per code (``PYTHONPATH`` picks the code), then ``--compare`` the two files: a speed-up must leave them
equal. ``--injected DIR`` adds the pages *with* an injection: the development cases (``injections_dev*.jsonl``, never a
blind set) whose observations ``injection_generalisation.py --cases FILE --cache DIR`` pickled there — the flags (with
their reasons and excerpts), the lines hidden and redacted and the fold, without a goal and with the case's goal.

    PYTHONPATH=/tmp/base12/src .venv/bin/python benchmarks/defense_outputs.py --cache runs/defense-cache --out base.json
    PYTHONPATH=src             .venv/bin/python benchmarks/defense_outputs.py --cache runs/defense-cache --out new.json
        [--injected runs/inj-obs]
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


def injected_outputs(obs_dir: Path) -> dict[str, Any]:
    """case id -> what the defense does on its page, for the development injection cases observed in ``obs_dir``."""
    import re
    from functools import partial

    from pagelens.api import render_observation
    from pagelens.focus.apply import removal_set
    from pagelens.focus.defense import detect, home_domains
    from pagelens.focus.notices import fold

    out: dict[str, Any] = {}
    for path in sorted((HERE / "data").glob("injections_dev*.jsonl")):
        for raw in (json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()):
            obs = obs_dir / (re.sub(r"[^\w.-]+", "_", raw["id"] + "-" + raw["marker"])[:180] + ".pkl")
            if not obs.is_file():
                continue
            r = render_observation(pickle.loads(obs.read_bytes()))
            row: dict[str, Any] = {}
            for name, goal in (("no_goal", None), ("goal", raw["goal"])):
                flags = detect(r, goal)
                hidden, redacted = removal_set(r, flags)
                folded = fold(r.lines, None, home=partial(home_domains, r), hidden=hidden)
                row[name] = {"flags": [[f.line, f.kind, f.reason, f.excerpt, f.region] for f in flags],
                             "hidden": sorted(hidden), "redacted": sorted(redacted),
                             "folded": sorted(repr(x) for x in folded.folded)}
            out[raw["id"]] = row
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cache", type=Path, default=HERE.parent / "runs" / "defense-cache")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--compare", nargs=2, type=Path, metavar=("A", "B"))
    ap.add_argument("--injected", type=Path, metavar="OBS_DIR",
                    help="also the development injection cases observed there (injection_generalisation.py --cache)")
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
        inj_a, inj_b = a.get("injected", {}), b.get("injected", {})
        inj_diff = [k for k in sorted(set(inj_a) | set(inj_b)) if inj_a.get(k) != inj_b.get(k)]
        if inj_a or inj_b:
            flagged = [sum(bool(v["no_goal"]["flags"]) for v in x.values()) for x in (inj_a, inj_b)]
            print(f"injected cases {len(inj_a)} / {len(inj_b)}, flagged without a goal {flagged[0]} / {flagged[1]}; "
                  f"cases that differ: {len(inj_diff)} {inj_diff[:5]}")
        sys.exit(1 if diff or goal_diff or inj_diff else 0)
    got = outputs(args.cache)
    if args.injected:
        got["injected"] = injected_outputs(args.injected)
    if args.out:
        args.out.write_text(json.dumps(got, indent=0, sort_keys=True))
    print(f"{len(got['pages'])} pages, {sum(len(v['flags']) for v in got['pages'].values())} flags, "
          f"{sum(len(v['folded']) for v in got['pages'].values())} folded, {len(got['with_goals'])} goals"
          + (f", {len(got['injected'])} injected cases" if args.injected else ""))


if __name__ == "__main__":
    main()
