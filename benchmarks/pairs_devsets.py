"""The development injection sets under several ``pairs.MODE`` values in one process (h38-pairs).

A case's row depends on the code only through ``defense.detect``'s flags (the focused view and the redaction follow
the flags), so a case whose flags a candidate leaves as they are with the switch off keeps the base row (read from
``BASE/<set>.json``, as ``defense_langs_devsets.sh`` wrote it with the base tree); a case whose flags change is run
again through ``injection_blind4.run_case`` with the candidate switched on. Rows go to ``OUT/<mode>/<set>.json``
(``defense_langs_sum.py`` and ``pairs_halves.py`` read them); ``OUT/<mode>/changed.txt`` lists the changed cases.

    PYTHONPATH=src .venv/bin/python benchmarks/pairs_devsets.py runs/base/dev runs/cand P1 P2 P3 [--sets dev6,dev8]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
SETS = ("dev6", "dev8", "dev9", "dev12", "dev13", "dev14", "dev15", "dev15b", "blind4", "blind5", "blind6", "blind7",
        "blind8", "blind9", "blind14", "blind15", "benign18a", "benign18b", "dev33", "dev34")


def where(s: str, root: Path) -> tuple[Path, Path]:
    """(pages, observation cache) of a set, as ``defense_langs_devsets.sh`` gives them."""
    pages = Path("/work/shared/corpus/realpages")
    if s in ("blind14", "benign18a"):
        pages = HERE / "data" / "pages_blind13"
    elif s in ("blind15", "benign18b"):
        pages = HERE / "data" / "pages_blind14"
    cache = root / ("b22" if s.startswith("benign") else "d22") / f"obs-{s}"
    return pages, cache


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("base", type=Path, help="the base tree's rows (defense_langs_devsets.sh's OUT)")
    ap.add_argument("out", type=Path)
    ap.add_argument("modes", nargs="+")
    ap.add_argument("--sets", default=",".join(SETS))
    ap.add_argument("--runs", type=Path, default=HERE.parent / "runs", help="folder holding d22/ and b22/")
    args = ap.parse_args(argv)
    import injection_blind4 as ib

    from pagelens.api import render_observation
    from pagelens.focus import defense, pairs

    for s in args.sets.split(","):
        pages, cache = where(s, args.runs)
        base_rows = {r["id"]: r for r in json.loads((args.base / f"{s}.json").read_text())}
        cases = ib.load_cases(HERE / "data" / f"injections_{s}.jsonl")
        rows: dict[str, list[dict]] = {m: [] for m in args.modes}
        changed: dict[str, list[str]] = {m: [] for m in args.modes}
        with tempfile.TemporaryDirectory() as tmp:
            for case in cases:
                def session() -> None:  # every observation is cached: no browser is opened
                    raise RuntimeError(f"{case.id}: not in the observation cache")

                pairs.MODE = ""
                rendering = render_observation(ib._cached_observation(case, pages, session, Path(tmp), cache))
                off = defense.detect(rendering, goal=case.goal)
                for m in args.modes:
                    pairs.MODE = m
                    if defense.detect(rendering, goal=case.goal) == off:
                        rows[m].append(base_rows[case.id])
                    else:
                        changed[m].append(case.id)
                        rows[m].append(ib.run_case(case, pages, session, Path(tmp), cache))
                pairs.MODE = ""
        for m, rs in rows.items():
            d = args.out / m
            d.mkdir(parents=True, exist_ok=True)
            (d / f"{s}.json").write_text(json.dumps(rs, indent=1))
            with (d / "changed.txt").open("a") as fh:
                fh.writelines(f"{s} {c}\n" for c in changed[m])
        print(s, len(cases), "cases; flags changed:", {m: len(c) for m, c in changed.items()}, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
