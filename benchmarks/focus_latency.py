"""Focus latency per page on the real-page corpus: ``default``'s ``select`` cold, for a new goal
on the same observation, and for the next step of a page that changed a little; the whole
``focus()`` call (injection defense included); ``bm25-400`` measured in the same run.

Uses the observations cached by ``benchmarks/realpage_goals.py`` (every corpus page that has a
goal); goals are generic ("Find the price", "Sign in", ...). Per page and goal:

* ``cold`` — every cache of :mod:`pagelens.focus.analysis` emptied first (a first observation);
* ``new goal`` — the same rendering, analysed already (the per-page analysis is reused);
* ``next step`` — a copy of the rendering with a few lines changed (a counter, a message):
  a new analysis, but the per-text caches (BM25 tokens, word stems) hold the unchanged units;
* ``no cache`` — ``RulesConfig(cache=False)``, with the per-text caches warm (what the old
  code did on every call, minus its slower unit pass);
* ``cold, GC paused`` — ``cold`` with cyclic garbage collection paused around the call, as
  :func:`pagelens.focus.view.focus_view` runs focus (``pagelens.gcpause``): the
  collector's passes are left out of this call (they run later, when allocation next triggers them).

    .venv/bin/python benchmarks/focus_latency.py [--cache runs/realpages] [--retriever default:learned] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import pickle
import statistics
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
GOALS = ("What does this cost?", "Sign in to my account", "Go to the next page", "Who wrote this?")


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))]


def changed(rendering, every: int = 400):  # type: ignore[no-untyped-def]
    """The rendering with every ``every``-th named text line renamed (at least one line)."""
    from pagelens.types import Rendering

    lines = list(rendering.lines)
    named = [i for i, ln in enumerate(lines) if ln.name and ln.role == "StaticText"] or [len(lines) - 1]
    for i in named[:: every] or named[:1]:
        ln = lines[i]
        lines[i] = replace(ln, name=ln.name + " (updated 2)", text=ln.text[:-1] + " (updated 2)'")
    return Rendering(tuple(lines), rendering.refined)


def cached_renderings(*caches: Path, limit: int | None = None) -> Iterator[tuple[str, Any]]:
    """``(page name, rendering)`` of each cached observation (``*.obs.pickle``, sorted by path) under ``caches``,
    rendered one at a time."""
    from pagelens.api import render_observation

    for f in sorted(f for c in caches for f in c.glob("*.obs.pickle"))[:limit]:
        yield f.name.split(".")[0], render_observation(pickle.loads(f.read_bytes()))


def timed(fn) -> float:  # type: ignore[no-untyped-def]
    t = time.perf_counter()
    fn()
    return (time.perf_counter() - t) * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cache", type=Path, default=HERE.parent / "runs" / "realpages")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--retriever", default="default", help="the default variant timed (e.g. default:rrf, default:learned)")
    args = ap.parse_args()
    from pagelens.focus.analysis import clear_caches
    from pagelens.focus.apply import focus
    from pagelens.focus.base import FocusQuery
    from pagelens.focus.registry import make_retriever
    from pagelens.focus.rules import RulesRetriever
    from pagelens.gcpause import gc_paused

    default = make_retriever(args.retriever)
    assert isinstance(default, RulesRetriever), "a variant of default"
    uncached = RulesRetriever(replace(default.config, cache=False))
    bm25 = make_retriever("bm25-400")
    cols = ("cold", "new goal", "next step", "no cache", "bm25-400", "focus() new goal", "focus() bm25-400",
            "cold, GC paused")
    ms: dict[str, list[float]] = {c: [] for c in cols}
    biggest: tuple[int, str, dict[str, float]] | None = None
    per_page: list[dict[str, object]] = []
    for name, r in cached_renderings(args.cache):
        step = changed(r)
        bm25.select(FocusQuery(GOALS[0]), r)  # warm its imports
        row: dict[str, float] = {}
        for gi, goal in enumerate(GOALS):
            q = FocusQuery(goal)
            clear_caches()
            row["cold"] = timed(lambda: default.select(q, r))  # noqa: B023
            other = FocusQuery(GOALS[(gi + 1) % len(GOALS)])
            row["new goal"] = timed(lambda: default.select(other, r))  # noqa: B023
            row["next step"] = timed(lambda: default.select(q, step))  # noqa: B023
            row["no cache"] = timed(lambda: uncached.select(q, r))  # noqa: B023
            row["bm25-400"] = timed(lambda: bm25.select(q, r))  # noqa: B023
            row["focus() new goal"] = timed(lambda: focus(r, q, default))  # noqa: B023
            row["focus() bm25-400"] = timed(lambda: focus(r, q, bm25))  # noqa: B023
            clear_caches()
            with gc_paused():
                row["cold, GC paused"] = timed(lambda: default.select(q, r))  # noqa: B023
            for c in cols:
                ms[c].append(row[c])
            per_page.append({"page": name, "lines": len(r), "goal": goal, **row})
        if biggest is None or len(r) > biggest[0]:
            biggest = (len(r), name, dict(row))
    print(f"{len(ms['cold'])} (page, goal) pairs")
    print("| measure | p50 ms | p95 ms | max ms | p50 ratio to cold |")
    print("|---|---|---|---|---|")
    cold50 = statistics.median(ms["cold"])
    for c in cols:
        print(f"| {c} | {statistics.median(ms[c]):.1f} | {pct(ms[c], .95):.1f} | {max(ms[c]):.0f} | "
              f"{statistics.median(ms[c]) / cold50:.2f} |")
    if biggest is not None:
        print(f"largest page: {biggest[1]} ({biggest[0]} lines), last goal: "
              + ", ".join(f"{c} {v:.0f} ms" for c, v in biggest[2].items()))
    if args.json:
        args.json.write_text(json.dumps({**ms, "per_page": per_page}))


if __name__ == "__main__":
    main()
