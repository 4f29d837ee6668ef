"""Retrievers on labeled goals over real pages (the corpus in ../shared/corpus/realpages).

Four goal sets: three in ``benchmarks/data/realpage_goals.jsonl`` and one in its own file:

* ``developer`` — 20 goals the developer wrote while building ``default`` (a sanity check);
* ``blind-1`` — 45 goals written by a helper that never read the retrievers' code; its misses
  were then read and ``default`` was changed, so it is a *development* figure now;
* ``blind-2`` — 40 goals written the same blind way and never used for development: the
  held-out figure;
* ``blind-3`` — 111 goals on 33 pages (``benchmarks/data/realpage_goals_blind3.jsonl``, with a
  ``kind`` field: act / read / navigate) written by a helper that never read the retriever or
  defense code, to be run once when the ranker of issue 9 is done.

Each page is rendered once with pagelens (real Chromium, the page served from 127.0.0.1,
off-site requests blocked) and cached as text; every retriever then focuses the same rendering
with the same ``focus()`` (defense on), as ``pagelens eval-cases`` does.

    .venv/bin/python benchmarks/realpage_goals.py [--pages DIR] [--cache runs/realpages]
        [--retriever default --retriever bm25-400 ...] [--set blind-2] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
GOALS = (HERE / "data" / "realpage_goals.jsonl", HERE / "data" / "realpage_goals_blind3.jsonl")
SET_ORDER = ["developer", "blind-1", "blind-2", "blind-3"]
DEFAULT_RETRIEVERS = ("default", "bm25-200", "bm25-400", "embedding-200", "embedding-400", "truncate")


def renderings(pages: Path, cache: Path, names: set[str]) -> dict[str, str]:
    """``name -> full rendering text``; renders (and caches) the pages not cached yet."""
    cache.mkdir(parents=True, exist_ok=True)
    out = {n: (cache / f"{n}.txt").read_text() for n in names if (cache / f"{n}.txt").is_file()}
    missing = sorted(names - out.keys())
    if missing:
        from pagelens.api import observe
        from pagelens.browser.serve import StaticServer
        from pagelens.browser.session import BrowserSession

        server = StaticServer(pages)
        try:
            with BrowserSession() as session:
                for n in missing:
                    t = time.perf_counter()
                    view = observe(server.url(f"{n}.html"), session=session)
                    out[n] = view.rendering.text()
                    (cache / f"{n}.txt").write_text(out[n])
                    print(f"rendered {n} ({len(view.rendering.lines)} lines, {time.perf_counter() - t:.1f} s)",
                          file=sys.stderr)
        finally:
            server.close()
    return out


def evaluate(goals: list[dict], texts: dict[str, str], retrievers: list[str]) -> list[dict]:
    from pagelens.bench.cases import MustKeep, item_kept
    from pagelens.focus.apply import focus
    from pagelens.focus.base import FocusQuery
    from pagelens.focus.registry import make_retriever
    from pagelens.observe.textparse import rendering_from_text

    rows = []
    parsed = {n: rendering_from_text(t) for n, t in texts.items()}
    for name in retrievers:
        ret = make_retriever(name)
        for g in goals:
            r = parsed[g["page"]]
            t = time.perf_counter()
            res = focus(r, FocusQuery(g["goal"]), ret)
            ms = (time.perf_counter() - t) * 1000
            kept = [ln for ln in r.lines if ln.no in res.kept]
            shown = [ln.text for ln in res.lines if ln.no is not None]
            ok = [item_kept(MustKeep(role=m["role"], name=m["name"]), kept, shown) for m in g["must_keep"]]
            rows.append({"retriever": name, "set": g["set"], "page": g["page"], "goal": g["goal"], "kept": sum(ok),
                         "items": len(ok), "pruning": res.pruning, "ms": ms, "error": res.error})
    return rows


def table(rows: list[dict], retrievers: list[str], sets: list[str]) -> str:
    out = ["| set | retriever | goals | recall (items) | case recall | pruning | p50 ms |", "|---|---|---|---|---|---|---|"]
    for s in sets:
        for name in retrievers:
            rs = [r for r in rows if r["retriever"] == name and r["set"] == s]
            if not rs:
                continue
            recall = sum(r["kept"] for r in rs) / sum(r["items"] for r in rs)
            cases = sum(r["kept"] == r["items"] for r in rs) / len(rs)
            pruning = statistics.mean(r["pruning"] for r in rs)
            p50 = statistics.median(r["ms"] for r in rs)
            out.append(f"| {s} | {name} | {len(rs)} | {recall:.3f} | {cases:.3f} | {pruning:.1%} | {p50:.0f} |")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", type=Path, default=HERE.parent.parent / "shared" / "corpus" / "realpages")
    ap.add_argument("--cache", type=Path, default=HERE.parent / "runs" / "realpages")
    ap.add_argument("--retriever", action="append", dest="retrievers")
    ap.add_argument("--set", action="append", dest="sets")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    goals = [json.loads(line) for path in GOALS for line in path.read_text().splitlines() if line.strip()]
    known = sorted({g["set"] for g in goals}, key=lambda s: (SET_ORDER + [s]).index(s))
    unknown = sorted(set(args.sets or ()) - set(known))
    if unknown:
        ap.error(f"unknown --set {', '.join(unknown)} (known: {', '.join(known)})")
    sets = args.sets or known
    goals = [g for g in goals if g["set"] in sets]
    retrievers = args.retrievers or list(DEFAULT_RETRIEVERS)
    texts = renderings(args.pages, args.cache, {g["page"] for g in goals})
    rows = evaluate(goals, texts, retrievers)
    print(table(rows, retrievers, sets))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
