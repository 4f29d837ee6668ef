"""The plain attacks the defense leaves in view, and what evidence it found in them (h34-plain's diagnosis).

Development data only. For each retained attack of ``RUNDIR/<set>.json`` (``benchmarks/defense_langs_devsets.sh``'s
output) that is *plain* (``subtle_shapes.subtle`` false: it names an automated reader or writes an outside host), the
rendered lines that carry the snippet's text: region (after live regions), role, whether the gate lets the line be
judged, the evidence found (``evidence.evidence``: reasons, points, anchored) against the region's bar, and the same for
the snippet's lines joined into one text (tells a span split over lines from a lack of evidence).

    PYTHONPATH=src .venv/bin/python benchmarks/plain_retained.py runs/base --obs runs/d22
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import subtle_shapes as ss  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("rundir", type=Path)
    ap.add_argument("--obs", type=Path, default=Path("runs/d22"))
    a = ap.parse_args(argv)
    from pagelens.api import render_observation
    from pagelens.focus import defense as d
    from pagelens.focus.evidence import evidence, gate, points

    n = 0
    for name in ss.SETS:
        path = a.rundir / f"{name}.json"
        if not path.is_file():
            continue
        known = ss.cases(name)
        for row in json.loads(path.read_text()):
            if row["benign"] or not row["retained"]:
                continue
            c = known[row["id"]]
            raw = ss.snippet_text(c["html"])
            if ss.subtle(name, c, raw):
                continue
            n += 1
            found = sorted((a.obs / f"obs-{name}").glob(f"{c['id']}-*.pkl"))
            r = render_observation(pickle.loads(found[0].read_bytes()))
            home, _ = d.page_domains(r)
            regions = d._live_regions(r.lines)
            flags = {f.line: f for f in d.detect(r, goal=c["goal"])}
            rawn = " ".join(raw.split()).lower()
            print(f"### {c['id']} [{name}] {c['category']} {c['lang']}\nGOAL: {c['goal']}\nHOME: {sorted(home)}\n"
                  f"TEXT: {raw[:600]}")
            span = []
            for i, ln in enumerate(r.lines):
                p = d._payload(ln)
                if not p or len(p) < 12 or " ".join((ln.name or "").split()).lower()[:60] not in rawn:
                    if not (p and c["marker"].lower() in p.lower()):
                        continue
                span.append(p)
                ev = evidence(p, home)
                pts, anch = points(ev)
                fl = flags.get(ln.no)
                print(f"  L{ln.no} {regions[i]:7} {ln.role:10} gate={gate(p, regions[i] in d._FOREIGN)} "
                      f"pts={pts} anch={anch} need={d._NEEDS.get(regions[i], 4)} {ev.reasons()}"
                      f"{' FLAG ' + fl.kind if fl else ''} url={(ln.url or '')[:60]}\n      {p[:300]}")
            if len(span) > 1:
                ev = evidence(" ".join(span), home)
                print(f"  JOINED pts/anch={points(ev)} {ev.reasons()}")
            print()
    print(f"plain retained: {n}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
