"""Whether two trees' injection defenses judge alike: every flag and every notice fold, in one process.

Both ``detect`` functions (this checkout's and ``--baseline``'s, loaded apart by ``defense_fp.load_baseline``), each
followed by its own tree's notice fold, run on the same renderings: defense_fp's cached corpus and sites pages (without
a goal, and the corpus pages with each development goal of ``benchmarks/data/realpage_goals.jsonl``) and, with
``--dev``, the development injection sets' cached observations (``runs/d22/obs-*``, ``runs/b22/obs-*``, as
``defense_langs_devsets.sh`` keeps them), rendered once into ``--render-cache``, with their case's goal and without.
Every flag's (line, kind, reason, excerpt, region) and every fold's line count must be equal; the differences are
printed, and the exit status is 1 when there is one.

    PYTHONPATH=src .venv/bin/python benchmarks/defense_identity.py --baseline /tmp/base/src [--dev]
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import defense_fp  # noqa: E402

#: The development injection sets (defense_langs_devsets.sh's list; no held-out set).
DEV_SETS = ("dev6 dev8 dev9 dev12 dev13 dev14 dev15 dev15b blind4 blind5 blind6 blind7 blind8 blind9 blind14 blind15 "
            "benign18a benign18b dev33 dev34").split()


def _items(cache: Path, dev: bool, render_cache: Path) -> list[tuple[str, Any, str | None]]:
    items: list[tuple[str, Any, str | None]] = [(p.stem, pickle.loads(p.read_bytes()), None)
                                                for p in sorted(cache.glob("*.pkl"))]
    pages = {k: r for k, r, _ in items}
    for raw in (HERE / "data" / "realpage_goals.jsonl").read_text(encoding="utf-8").splitlines():
        if raw.strip():
            g = json.loads(raw)
            if f"corpus_{g['page']}" in pages:
                items.append((f"goal:{g['page']}", pages[f"corpus_{g['page']}"], g["goal"]))
    if dev:
        from pagelens.api import render_observation

        goals: dict[str, str | None] = {}
        for s in DEV_SETS:
            for raw in (HERE / "data" / f"injections_{s}.jsonl").read_text(encoding="utf-8").splitlines():
                if raw.strip():
                    case = json.loads(raw)
                    goals[case["id"]] = case.get("goal")
        render_cache.mkdir(parents=True, exist_ok=True)
        for obs in sorted([*ROOT.glob("runs/d22/obs-*/*.pkl"), *ROOT.glob("runs/b22/obs-*/*.pkl")]):
            kept = render_cache / f"{obs.parent.name}_{obs.name}"
            if kept.is_file():
                r = pickle.loads(kept.read_bytes())
            else:
                r = render_observation(pickle.loads(obs.read_bytes()))
                kept.write_bytes(pickle.dumps(r))
            items.append((f"dev:{kept.stem}", r, goals.get(obs.name.rsplit("-", 1)[0])))
            items.append((f"dev-nogoal:{kept.stem}", r, None))
    return items


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", type=Path, required=True, help="the other tree's src/")
    ap.add_argument("--cache", type=Path, default=ROOT / "runs" / "defense-cache")
    ap.add_argument("--dev", action="store_true", help="the development injection sets' observations too")
    ap.add_argument("--render-cache", type=Path, default=ROOT / "runs" / "identity-renderings")
    args = ap.parse_args()
    base = defense_fp.with_notices(defense_fp.load_baseline(args.baseline))
    from pagelens.focus.defense import detect

    new = defense_fp.with_notices(detect)
    items = _items(args.cache, args.dev, args.render_cache)
    differ = flags = 0
    for key, r, goal in items:
        got = [(f.line, f.kind, f.reason, f.excerpt, f.region) for f in (new(r, goal) if goal else new(r))]
        ref = [(f.line, f.kind, f.reason, f.excerpt, f.region) for f in (base(r, goal) if goal else base(r))]
        flags += len(got)
        if got != ref or new.folded.get(id(r)) != base.folded.get(id(r)):  # type: ignore[attr-defined]
            differ += 1
            print(f"DIFF {key} goal={goal!r} folded {new.folded.get(id(r))} vs {base.folded.get(id(r))}")  # type: ignore[attr-defined]
            for f in sorted(set(got) ^ set(ref)):
                print(f"  {'new ' if f in got else 'base'} {f}")
    print(f"{len(items)} judgements, {flags} flags, {differ} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
