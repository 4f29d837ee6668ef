"""Development half vs validation half of the development goal sets (issue 9, "focus that generalises").

The split was fixed before any miss was read (BENCHMARKS.md, "Focus: a split fixed before
reading misses"):

* development half — ``developer``, ``blind-1``, ``blind-2`` (``realpage_goals.jsonl``) and
  ``dev-8a`` (``realpage_goals_dev8.jsonl``): their misses may be printed (``--misses``);
* validation half — ``dev-8b`` (``realpage_goals_dev8.jsonl``), ``dev-6`` and ``dev-6-late``
  (``realpage_goals_dev6.jsonl``): aggregates only; this script never prints their rows. The
  bundled cases (``pagelens eval-cases``, 191 cases) are a second validation set, aggregates
  only, from their observation cache (``--cases-cache``; added to the validation half before
  any of their misses was read, because the goal sets above were saturated at 0.98).

No held-out file is opened. Runs on cached observations (``realpage_goals.py`` writes them).

    .venv/bin/python benchmarks/focus_split.py [--cache runs/realpages] [--retriever default
        --retriever bm25-400] [--set KEY=VALUE ...] [--misses] [--by-size]

``--set budget=0.3`` (repeatable) overrides a field of ``RulesConfig`` for ``default``-family
retrievers (a named experiment: the name in the table says which overrides were applied).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from realpage_goals import items_ok, observations  # noqa: E402

DATA = HERE / "data"
FILES = (DATA / "realpage_goals.jsonl", DATA / "realpage_goals_dev8.jsonl", DATA / "realpage_goals_dev6.jsonl")
DEV = ("developer", "blind-1", "blind-2", "dev-8a")
VALIDATION = ("dev-8b", "dev-6", "dev-6-late")


def goals() -> list[dict[str, Any]]:
    out = []
    for path in FILES:
        assert "blind" not in path.name, path
        out += [json.loads(ln) for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()]
    return [g for g in out if g["set"] in DEV + VALIDATION]


def _value(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def retriever(name: str, overrides: dict[str, Any]) -> Any:
    from pagelens.focus.registry import make_retriever

    ret = make_retriever(name)
    if overrides and hasattr(ret, "config"):
        ret.config = dataclasses.replace(ret.config, **overrides)
    return ret


def evaluate(gs: list[dict[str, Any]], parsed: dict[str, Any], ret: Any, label: str) -> list[dict[str, Any]]:
    from pagelens.focus.apply import focus
    from pagelens.focus.base import FocusQuery

    rows = []
    for g in gs:
        r = parsed[g["page"]]
        t = time.perf_counter()
        res = focus(r, FocusQuery(g["goal"]), ret)
        ms = (time.perf_counter() - t) * 1000
        ok = items_ok(r, res, g["must_keep"])
        rows.append({"retriever": label, "set": g["set"], "page": g["page"], "goal": g["goal"],
                     "kept": sum(ok), "items": len(ok), "ok": ok, "must_keep": g["must_keep"],
                     "pruning": res.pruning, "ms": ms, "total": sum(ln.tokens for ln in r.lines)
                     if hasattr(r.lines[0], "tokens") else 0})
    return rows


def case_rows(cache: Path, ret: Any, label: str) -> list[dict[str, Any]]:
    """The bundled cases whose observation is cached, focused by ``ret`` (no per-case output)."""
    import hashlib
    import pickle

    from pagelens.api import render_observation
    from pagelens.bench.cases import bundled_paths, item_kept, load_cases
    from pagelens.focus.apply import focus
    from pagelens.focus.base import FocusQuery

    rows = []
    for case in load_cases(bundled_paths()[0]):
        key = hashlib.sha1(json.dumps([case.page, case.injection.html if case.injection else None]).encode())
        f = cache / f"{key.hexdigest()[:20]}.obs.pickle"
        if not f.is_file():
            continue
        r = _RENDERED.get(f.name) or _RENDERED.setdefault(f.name, render_observation(pickle.loads(f.read_bytes())))
        t = time.perf_counter()
        res = focus(r, FocusQuery(case.goal), ret)
        ms = (time.perf_counter() - t) * 1000
        kept = [ln for ln in r.lines if ln.no in res.kept]
        shown = [ln.text for ln in res.lines if ln.no is not None]
        ok = [item_kept(m, kept, shown) for m in case.must_keep]
        rows.append({"retriever": label, "kept": sum(ok), "items": len(ok), "pruning": res.pruning, "ms": ms})
    return rows


_RENDERED: dict[str, Any] = {}


def line(rows: list[dict[str, Any]], half: str, label: str) -> str:
    items = sum(r["items"] for r in rows) or 1
    return (f"| {half} | {label} | {len(rows)} | {sum(r['kept'] for r in rows) / items:.3f} | "
            f"{sum(r['kept'] == r['items'] for r in rows) / max(1, len(rows)):.3f} | "
            f"{statistics.mean(r['pruning'] for r in rows):.1%} | {statistics.median(r['ms'] for r in rows):.0f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", type=Path, default=HERE.parent.parent / "shared" / "corpus" / "realpages")
    ap.add_argument("--cache", type=Path, default=HERE.parent / "runs" / "realpages")
    ap.add_argument("--retriever", action="append", dest="retrievers")
    ap.add_argument("--set", action="append", dest="overrides", default=[], metavar="KEY=VALUE")
    ap.add_argument("--half", choices=("dev", "validation", "both"), default="both")
    ap.add_argument("--misses", action="store_true", help="print the development half's missed items")
    ap.add_argument("--json", type=Path, help="development-half rows only")
    ap.add_argument("--cases-cache", type=Path, help="observations of the bundled cases (validation, aggregates)")
    args = ap.parse_args()
    from pagelens.api import render_observation

    overrides = dict(kv.split("=", 1) for kv in args.overrides)
    overrides = {k: _value(v) for k, v in overrides.items()}
    gs = goals()
    halves = {"dev": [g for g in gs if g["set"] in DEV], "validation": [g for g in gs if g["set"] in VALIDATION]}
    if args.half != "both":
        halves = {args.half: halves[args.half]}
    observed = observations(args.pages, args.cache, {g["page"] for h in halves.values() for g in h})
    parsed = {n: render_observation(o) for n, o in observed.items()}
    out = ["| half | retriever | goals | recall (items) | case recall | pruning | p50 ms |", "|---|---|---|---|---|---|---|"]
    dev_rows: list[dict[str, Any]] = []
    for name in args.retrievers or ["default", "bm25-400"]:
        label = name + ("" if not overrides or name.startswith("bm25") else
                        "[" + ",".join(f"{k}={v}" for k, v in overrides.items()) + "]")
        ret = retriever(name, {} if name.startswith("bm25") else overrides)
        for half, hg in halves.items():
            rows = evaluate(hg, parsed, ret, label)
            out.append(line(rows, half, label))
            if half == "dev":
                dev_rows += rows
        if args.cases_cache is not None and args.half != "dev":
            out.append(line(case_rows(args.cases_cache, ret, label), "validation: bundled cases", label))
    print("\n".join(out))
    if args.misses:
        for r in dev_rows:
            for m, ok in zip(r["must_keep"], r["ok"], strict=True):
                if not ok:
                    print(f"MISS {r['retriever']} {r['set']} {r['page']} | {r['goal']} | {m['role']} {m['name']!r}"
                          f" | pruning {r['pruning']:.0%}")
    if args.json:
        args.json.write_text(json.dumps(dev_rows, indent=1))


if __name__ == "__main__":
    main()
