"""The eighteenth pass's comparison (issue 9, h18-refit): candidates against the shipped recipe out of fold.

Reads the row files of ``focus_learn_oof.py`` (``--with-set ... --check blind-15``; see BENCHMARKS.md,
"Focus, eighteenth pass") and adds the reference **R**: the corpus-only refit out of fold (label
``gbdt.c0@B``) on the corpus goals, the shipped model (``shipped@B``) on the goals of pages outside the
corpus (its fit never saw them). Prints the tables of ``focus_learn_oof.tables`` and, for each candidate,
``focus_learn_oof.compare`` against R and against S (the shipped model) on the choosing goals (every set but
the checked ones) and, apart, on the checked sets.

    .venv/bin/python benchmarks/focus_refit_report.py runs/learn18/*.json [--check blind-15] [--budget 0.29]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import focus_learn_oof as oof  # noqa: E402


def with_reference(rows: list[dict], budget: str) -> list[dict]:
    """``rows`` plus R's rows (labelled ``R@budget``)."""
    out = list(rows)
    for r in rows:
        outside = "/" in r["page"]
        if (r["retriever"] == f"gbdt.c0@{budget}" and not outside) or (r["retriever"] == f"shipped@{budget}" and outside):
            out.append({**r, "retriever": f"R@{budget}"})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", type=Path, nargs="+")
    ap.add_argument("--check", action="append", default=[])
    ap.add_argument("--budget", default="0.29")
    args = ap.parse_args()
    rows = with_reference([r for f in args.files for r in json.loads(f.read_text())], args.budget)
    labels = list(dict.fromkeys(r["retriever"] for r in rows))
    cands = [lab for lab in labels if not lab.startswith(("R@", "shipped@", "gbdt.c0@"))]
    for title, part in (("choosing", [r for r in rows if r["set"] not in args.check]),
                        ("check", [r for r in rows if r["set"] in args.check])):
        if not part:
            continue
        print(f"### {title} goals\n")
        print(oof.tables(part))
        for c in cands:
            for base in (f"R@{args.budget}", f"shipped@{args.budget}"):
                print(oof.compare(part, base, c))
        print()


if __name__ == "__main__":
    main()
