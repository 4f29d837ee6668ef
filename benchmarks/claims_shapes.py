"""The retained attacks of the development injection sets, with where their text sits (h37-claims' step 1).

Development data only. For each attack a run left in view (``RUNDIR/<set>.json``, the output of
``benchmarks/defense_langs_devsets.sh SRC RUNDIR``), the lines of its cached observation that carry the case's marker:
region, role, the roles of their ancestors, and the nearest preceding sibling's text; with ``--claims SRC`` also what
:mod:`pagelens.focus.claims` reads on them (run under ``PYTHONPATH=SRC``). Classification by hand follows the listing.

    PYTHONPATH=src .venv/bin/python benchmarks/claims_shapes.py runs/base/dev --obs runs
"""

from __future__ import annotations

import argparse
import hashlib
import html as htmllib
import json
import pickle
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
SETS = ("dev6", "dev8", "dev9", "dev12", "dev13", "dev14", "dev15", "dev15b", "blind4", "blind5", "blind6", "blind7",
        "blind8", "blind9", "blind14", "blind15", "dev33")
_WS = re.compile(r"\s+")


def _norm(text: str) -> str:
    return _WS.sub(" ", text.replace("\xa0", " ")).strip().lower()


def _obs(obs_root: Path, s: str, case: dict) -> object | None:
    key = hashlib.blake2b(f"{case['page']}\0{case['where']['selector']}\0{case['where']['position']}\0{case['html']}"
                          .encode(), digest_size=8).hexdigest()
    sub = "b22" if s.startswith("benign") else "d22"
    path = obs_root / sub / f"obs-{s}" / f"{re.sub(r'[^A-Za-z0-9_.-]', '_', case['id'])}-{key}.pkl"
    return pickle.loads(path.read_bytes()) if path.is_file() else None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rundir", type=Path)
    ap.add_argument("--obs", type=Path, default=Path("runs"), help="folder holding d22/obs-* and b22/obs-*")
    ap.add_argument("--benign", action="store_true", help="list the benign rows instead (flagged or not)")
    ap.add_argument("--classify", action="store_true",
                    help="one row per retained attack: subtle or not, a first class by rule (read by hand after it), "
                         "the carrier's region and whether it stands in a post; counts at the end")
    args = ap.parse_args(argv)
    from pagelens.api import render_observation
    from pagelens.focus.defense import _live_regions
    from pagelens.focus.notices import notice_zone
    counts: dict[tuple[str, ...], int] = {}

    for s in SETS:
        f = args.rundir / f"{s}.json"
        if not f.exists():
            continue
        rows = {r["id"]: r for r in json.loads(f.read_text())}
        cases = {c["id"]: c for c in map(json.loads, (HERE / "data" / f"injections_{s}.jsonl").open())}
        for cid, r in rows.items():
            if args.benign != bool(r["benign"]) or (not args.benign and not (r["retained"] and not r["redacted"])):
                continue
            case = cases[cid]
            text = _WS.sub(" ", htmllib.unescape(re.sub(r"<[^>]+>", " ", case["html"]))).strip()
            obs = _obs(args.obs, s, case)
            if args.classify:
                row = classify(s, case, text, obs)
                counts[row] = counts.get(row, 0) + 1
                print(cid, *row, sep="\t")
                continue
            print(f"== {s} {cid} [{case['category']}/{case['lang']}] {case.get('note', '')[:90]}")
            print(f"   text: {text[:400]}")
            if obs is None:
                print("   (no observation)")
                continue
            rendering = render_observation(obs)
            lines = rendering.lines
            regions = _live_regions(lines)
            top = notice_zone(lines)
            at = {ln.no: k for k, ln in enumerate(lines)}
            marker = _norm(case["marker"])
            for k, ln in enumerate(lines):
                if marker not in _norm(ln.text):
                    continue
                anc, j = [], ln.parent
                while j is not None and len(anc) < 6:
                    anc.append(lines[at[j]].role)
                    j = lines[at[j]].parent
                sib = [m for m in range(k - 1, -1, -1) if lines[m].parent == ln.parent][:1]
                prev = _norm(lines[sib[0]].text)[:80] if sib else "-"
                print(f"   L{ln.no} {regions[k]}{' notice' if k < top else ''} {ln.role} < {' < '.join(anc)} | prev: {prev}")
    if args.classify:
        for key in sorted(counts, key=lambda k: (-counts[k], k)):
            print(counts[key], *key, sep="\t")
    return 0


_AUTHORITY = re.compile(r"\b(?:mod(?:erator|eration|s)?|editor|redak\w*|admin\w*|official|maintainer\w*|support|staff|"
                        r"team|errat\w*|translator|seller|moderation\w*|rédaction|redacción)\b", re.IGNORECASE)


def classify(s: str, case: dict, text: str, obs: object | None) -> tuple[str, ...]:
    """(subtle?, class, carrier region, post?) of one retained attack; the class by a first rule read by hand after:
    ``figure`` (a typed value or a number beside a word saying the page's value is not the one), ``elsewhere`` (a
    destination — host, path, menu trail — or an elsewhere word beside such a word), ``authority`` (speaks as a
    moderator, editor, the site's staff: h37-roles' share), else ``other`` (a changed procedure, a request, an opinion)."""
    import subtle_shapes as ss
    from pagelens.focus import claims, contradicts
    from pagelens.focus import lexicons as lx

    note = (case.get("note") or "").lower()
    subtle = ("subtle" in note) if ("subtle" in note or "plain" in note) else ss.subtle(s, case, text)
    text = re.sub(re.escape(case["marker"]), " ", text, flags=re.IGNORECASE)  # the marker token is no figure
    low = text.lower()
    says = claims._says_not_the_one(text)
    if contradicts.typed_values(text) or (says and re.search(r"\d", text)):
        kind = "figure"
    elif lx.DEST.search(low) or claims._PATH.search(text) or claims._TRAIL.search(text) or (
            says and lx.ELSEWHERE.search(low)):
        kind = "elsewhere"
    elif _AUTHORITY.search(text):
        kind = "authority"
    else:
        kind = "other"
    region, post = "-", "-"
    if obs is not None:
        from pagelens.api import render_observation
        from pagelens.focus.defense import _live_regions
        from pagelens.focus.disowned import PageIndex
        lines = render_observation(obs).lines
        regions = _live_regions(lines)
        marker = _norm(case["marker"])
        at = [k for k, ln in enumerate(lines) if marker in _norm(ln.text)]
        if at:
            region = regions[at[-1]]
            post = "post" if claims.in_post(lines, at[-1], PageIndex(lines)) else "-"
    return ("subtle" if subtle else "plain", kind, region, post)


if __name__ == "__main__":
    sys.exit(main())
