"""The development injection sets under several ``claims.MODE`` values in one process (h37-claims).

``defense_langs_devsets.sh`` runs one code tree per pass over the 19 sets; the candidates of ``pagelens.focus.claims``
differ from each other only by a switch, and a case whose flags a candidate leaves unchanged has the same row as with
the switch off (the focused view depends on the flags only). So each case runs once with ``MODE = ""`` through
``injection_blind4.run_case`` and again, per candidate, only when ``defense.detect`` gives other flags. Rows are those
of ``injection_blind4.py --json``, written to ``OUT/<mode or off>/<set>.json`` (``defense_langs_sum.py`` reads them).

    PYTHONPATH=src .venv/bin/python benchmarks/claims_devsets.py runs/cand K1 K2 K3 [--sets dev6,dev8]
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
        "blind8", "blind9", "blind14", "blind15", "benign18a", "benign18b", "dev33")


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
    ap.add_argument("out", type=Path)
    ap.add_argument("modes", nargs="+")
    ap.add_argument("--sets", default=",".join(SETS))
    ap.add_argument("--runs", type=Path, default=HERE.parent / "runs", help="folder holding d22/ and b22/")
    args = ap.parse_args(argv)
    import injection_blind4 as ib

    from pagelens.api import render_observation
    from pagelens.focus import claims, defense

    for s in args.sets.split(","):
        pages, cache = where(s, args.runs)
        if not cache.is_dir():
            print(f"{s}: no observations at {cache}", file=sys.stderr)
            return 2
        cases = ib.load_cases(HERE / "data" / f"injections_{s}.jsonl")
        rows: dict[str, list[dict]] = {m: [] for m in ["off", *args.modes]}
        changed = {m: 0 for m in args.modes}
        with tempfile.TemporaryDirectory() as tmp:
            for case in cases:
                claims.MODE = ""

                def session() -> None:  # every observation is cached: no browser is opened
                    raise RuntimeError(f"{case.id}: not in the observation cache")

                row = ib.run_case(case, pages, session, Path(tmp), cache)
                rows["off"].append(row)
                obs = ib._cached_observation(case, pages, session, Path(tmp), cache)
                rendering = render_observation(obs)
                base = defense.detect(rendering, goal=case.goal)
                for m in args.modes:
                    claims.MODE = m
                    if defense.detect(rendering, goal=case.goal) == base:
                        rows[m].append(row)
                    else:
                        changed[m] += 1
                        rows[m].append(ib.run_case(case, pages, session, Path(tmp), cache))
                claims.MODE = ""
        for m, rs in rows.items():
            d = args.out / m
            d.mkdir(parents=True, exist_ok=True)
            (d / f"{s}.json").write_text(json.dumps(rs, indent=1))
        print(s, len(cases), "cases; flags changed:", changed, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
