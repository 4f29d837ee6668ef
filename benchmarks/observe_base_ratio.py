"""Before/after figures of one ``observe_peers.py --tools walker,walker-base,...`` run (issue 13).

Per-page ratios within the run (the same load for both), their medians over the corpus pages,
the generated pages' rows, and the walker's stage medians:

    PYTHONPATH=src .venv/bin/python benchmarks/observe_base_ratio.py benchmarks/results/observe_peers_3a.json
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path
from typing import Any


def _med(xs: list[float]) -> float | None:
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def _f(x: float | None, nd: int = 2) -> str:
    return "—" if x is None else f"{x:.{nd}f}"


def main(path: str) -> None:
    rows: list[dict[str, Any]] = json.loads(Path(path).read_text())["rows"]
    corpus = [r for r in rows if r.get("kind") == "corpus"]
    tools = sorted({t for r in rows for t in r["tools"]})

    def val(r: dict[str, Any], tool: str, key: str) -> float | None:
        e = r["tools"].get(tool) or {}
        return e.get(key) if e.get("n_ok") else None

    def ratio(r: dict[str, Any], a: str, ka: str, b: str, kb: str) -> float | None:
        x, y = val(r, a, ka), val(r, b, kb)
        return x / y if x is not None and y else None

    print(f"corpus pages: {len(corpus)}; tools: {tools}")
    for tool in tools:
        print(f"  {tool}: median observe s {_f(_med([val(r, tool, 'observe_s') for r in corpus]))}, "
              f"observe+render+focus s {_f(_med([val(r, tool, 'total_s') for r in corpus]))}")
    pairs = [("walker", "total_s", "walker-base", "total_s"), ("walker", "observe_s", "walker-base", "observe_s"),
             ("walker", "total_s", "browsergym", "observe_s"), ("walker-base", "total_s", "browsergym", "observe_s"),
             ("walker", "observe_s", "browsergym", "observe_s"), ("walker-base", "observe_s", "browsergym", "observe_s")]
    for a, ka, b, kb in pairs:
        if a in tools and b in tools:
            print(f"  median per-page ratio {a} {ka} / {b} {kb}: {_f(_med([ratio(r, a, ka, b, kb) for r in corpus]), 3)}")
    for tool in ("walker", "walker-base"):
        st = [(r["tools"].get(tool) or {}).get("stages") or {} for r in corpus]
        keys = sorted({k for s in st for k in s})
        print(f"  {tool} stage medians s: " + ", ".join(f"{k} {_f(_med([s.get(k) for s in st]), 3)}" for k in keys))
    for r in rows:
        if r.get("kind") == "generated" or r["page"].startswith("033"):
            cells = []
            for tool in tools:
                e = r["tools"].get(tool) or {}
                pk = (e.get("peak_mb") or {})
                n = r.get("elements")
                tot = val(r, tool, "total_s")
                per = f" ({tot / (n / 1000):.3f}/1k)" if n and tot else ""
                cells.append(f"{tool} obs {_f(val(r, tool, 'observe_s'))} total {_f(tot)}{per} peak {pk.get('total', 0):.0f} MB"
                             f" (worker {pk.get('worker_rss', 0):.0f}, renderer {pk.get('renderer_rss_max', 0):.0f},"
                             f" driver {pk.get('helper_rss', 0):.0f})" + ("" if e.get("n_ok") else f" {e.get('errors', [''])[:1]}"))
            print(f"  {r['page']}: " + "; ".join(cells))
            for tool in ("walker", "walker-base"):
                s = (r["tools"].get(tool) or {}).get("stages")
                if s:
                    print(f"      {tool} stages: " + ", ".join(f"{k} {v:.3f}" for k, v in s.items()))


if __name__ == "__main__":
    main(sys.argv[1])
