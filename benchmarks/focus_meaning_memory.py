"""Peak traced memory of one ``focus()`` call (defense on) on a synthetic 100,000-line shop (the thirtieth pass):
the unit vectors the meaning columns need are held with the page's analysis.

    PYTHONPATH=src .venv/bin/python benchmarks/focus_meaning_memory.py ["GOAL"]
"""

from __future__ import annotations

import sys
import time
import tracemalloc
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "unit" / "focus"))
sys.path.insert(0, str(HERE.parent / "tests" / "unit"))


def main() -> None:
    from test_learned import _shop  # the learned-fusion tests' synthetic shop (3 lines an item + the page's frame)

    from pagelens.focus.apply import focus
    from pagelens.focus.base import FocusQuery
    from pagelens.focus.rules import RulesRetriever

    goal = sys.argv[1] if len(sys.argv) > 1 else "Add kettle model 24999 to the cart"
    r = _shop(25_000)
    focus(_shop(50), FocusQuery("Add kettle model 7 to the cart"), RulesRetriever(), defense=False)  # imports, tables
    tracemalloc.start()
    t = time.perf_counter()
    res = focus(r, FocusQuery(goal), RulesRetriever(), defense=True)
    ms = (time.perf_counter() - t) * 1000
    _cur, peak = tracemalloc.get_traced_memory()
    print(f"{len(r.lines)} lines, goal {goal!r}: peak {peak / 1e6:.1f} MB, {ms:.0f} ms traced, error {res.error}")


if __name__ == "__main__":
    main()
