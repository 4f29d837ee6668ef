"""What a `RulesConfig` switch costs in cold focus time: `default` with and without it, alternated in one process.

For every cached corpus page and every goal of :data:`focus_latency.GOALS`, the page's analysis caches are cleared
and ``select`` is timed cold with config A, then again cold with config B (the order flips on every pair, so drift
in the machine's load falls on both). Wall and CPU (``process_time``) milliseconds are reported as p50 / p95 per arm
and as the ratio B / A, which is what a noisy shared machine can measure::

    PYTHONPATH=src python benchmarks/focus_switch_cost.py --cache runs/rp --off rank_suspicion= --off complete=
    # A = default with those fields set (here: both passes of stop 38 off), B = default as shipped

``--off field=value`` may repeat; a value is parsed as the field's type (``""`` for an empty string).
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import fields, replace
from pathlib import Path

from focus_latency import GOALS, cached_renderings, pct


def _config(base, pairs: list[str]):  # type: ignore[no-untyped-def]
    types = {f.name: f.type for f in fields(base)}
    out = {}
    for pair in pairs:
        name, _, value = pair.partition("=")
        if name not in types:
            raise SystemExit(f"unknown RulesConfig field {name!r}")
        kind = types[name] if isinstance(types[name], str) else types[name].__name__
        out[name] = (value if kind == "str" else float(value) if kind == "float" else int(value)
                     if kind == "int" else value.lower() in ("1", "true", "yes"))
    return replace(base, **out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cache", type=Path, required=True)
    ap.add_argument("--off", action="append", default=[], help="field=value for arm A (repeat)")
    args = ap.parse_args()
    from pagelens.focus.analysis import clear_caches
    from pagelens.focus.base import FocusQuery
    from pagelens.focus.rules import RulesRetriever

    b = RulesRetriever()
    a = RulesRetriever(_config(b.config, args.off))
    wall: dict[str, list[float]] = {"A": [], "B": []}
    cpu: dict[str, list[float]] = {"A": [], "B": []}
    n = 0
    for _, r in cached_renderings(args.cache):
        for goal in GOALS:
            q = FocusQuery(goal)
            for arm in (("A", "B") if n % 2 == 0 else ("B", "A")):
                clear_caches()
                t, c = time.perf_counter(), time.process_time()
                (a if arm == "A" else b).select(q, r)
                wall[arm].append((time.perf_counter() - t) * 1000)
                cpu[arm].append((time.process_time() - c) * 1000)
            n += 1
    print(f"{n} (page, goal) pairs; A = default with {', '.join(args.off) or 'nothing changed'}, B = default")
    print("| measure | A p50 | A p95 | B p50 | B p95 | p50 B/A | p95 B/A | sum B/A |")
    print("|---|---|---|---|---|---|---|---|")
    for label, d in (("cold wall ms", wall), ("cold CPU ms", cpu)):
        a50, a95, b50, b95 = (statistics.median(d["A"]), pct(d["A"], .95), statistics.median(d["B"]), pct(d["B"], .95))
        print(f"| {label} | {a50:.1f} | {a95:.1f} | {b50:.1f} | {b95:.1f} | {b50 / a50:.2f} | {b95 / a95:.2f} | "
              f"{sum(d['B']) / sum(d['A']):.2f} |")


if __name__ == "__main__":
    main()
