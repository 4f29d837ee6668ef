"""Walker vs CDP reference on the corpus pages (issue 13, item 2): fidelity and time, one run.

Each page is served from 127.0.0.1 (like ``benchmarks/realpage_goals.py``), loaded once, and
observed on the *same* loaded page by the CDP reference (:class:`PageObserver`) and the in-page
walker (:class:`WalkerObserver`), order alternating per page and repetition. Both observations
are rendered; we compare the multisets of (role, name) lines:

* agreement = matched lines / max(lines CDP, lines walker) (missing and extra both count);
* interactive = every (role, name) of an interactive CDP line (links, buttons, fields ...)
  also occurs in the walker's rendering (with multiplicity);
* differences by kind: role of the missing / extra lines, with examples.

    PYTHONPATH=src .venv/bin/python benchmarks/walker_fidelity.py --reps 3 \\
        --out benchmarks/results/walker_fidelity.json

Times are wall seconds of ``observe()`` + ``render()`` on a shared machine: read the ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

CORPUS = next((p / "shared" / "corpus" / "realpages" for p in Path(__file__).resolve().parents if (p / "shared" / "corpus" / "realpages").is_dir()), Path("shared/corpus/realpages"))
INTERACTIVE = frozenset({
    "link", "button", "textbox", "searchbox", "combobox", "checkbox", "radio", "switch", "slider", "spinbutton",
    "listbox", "option", "menuitem", "menuitemcheckbox", "menuitemradio", "tab", "treeitem", "DisclosureTriangle",
})


def keys(rendering: Any) -> list[tuple[str, str]]:
    return [(ln.role, ln.name) for ln in rendering.lines]


def compare(ref: list[tuple[str, str]], got: list[tuple[str, str]]) -> dict[str, Any]:
    a, b = Counter(ref), Counter(got)
    matched = sum((a & b).values())
    missing = a - b
    extra = b - a
    inter = Counter(k for k in ref if k[0] in INTERACTIVE)
    inter_missing = inter - b
    return {
        "lines_cdp": len(ref), "lines_walker": len(got), "matched": matched,
        "agreement": matched / max(len(ref), len(got), 1),
        "interactive": sum(inter.values()), "interactive_missing": sum(inter_missing.values()),
        "missing": missing, "extra": extra, "interactive_missing_keys": inter_missing,
    }


def run(pages: list[Path], reps: int, timeout_s: float) -> list[dict[str, Any]]:
    from pagelens.browser.extract import PageObserver
    from pagelens.browser.serve import StaticServer
    from pagelens.browser.session import BrowserSession
    from pagelens.browser.walker import WalkerObserver
    from pagelens.config import BrowserConfig
    from pagelens.observe.render import render

    rows: list[dict[str, Any]] = []
    server = StaticServer(pages[0].parent)
    try:
        with BrowserSession(BrowserConfig(extract_timeout_s=timeout_s, navigation_timeout_s=120)) as session:
            for k, path in enumerate(pages):
                with session.episode() as ep:
                    ep.goto(server.url(path.name))
                    ep.pause(300)
                    times: dict[str, list[float]] = {"cdp": [], "walker": []}
                    renders: dict[str, Any] = {}
                    nodes: dict[str, int] = {}
                    for rep in range(reps):
                        order = ["cdp", "walker"] if (k + rep) % 2 == 0 else ["walker", "cdp"]
                        for mode in order:
                            obs_cls = PageObserver if mode == "cdp" else WalkerObserver
                            observer = obs_cls(ep.page, timeout_s=timeout_s)
                            t = time.perf_counter()
                            obs = observer.observe()
                            r = render(obs)
                            times[mode].append(time.perf_counter() - t)
                            observer.close()
                            renders[mode] = r
                            nodes[mode] = len(obs.nodes)
                    c = compare(keys(renders["cdp"]), keys(renders["walker"]))
                    med = {m: statistics.median(v) for m, v in times.items()}
                    row = {"page": path.name, "nodes_cdp": nodes["cdp"], "nodes_walker": nodes["walker"], **c,
                           "s_cdp": med["cdp"], "s_walker": med["walker"],
                           "ratio": med["walker"] / med["cdp"] if med["cdp"] else None,
                           "times": times}
                    rows.append(row)
                    print(f"{path.name}: agree {c['agreement']:.4f} ({c['matched']}/{c['lines_cdp']}|{c['lines_walker']}) "
                          f"interactive missing {c['interactive_missing']}/{c['interactive']}  "
                          f"cdp {med['cdp']:.2f}s walker {med['walker']:.2f}s", file=sys.stderr, flush=True)
    finally:
        server.close()
    return rows


def summary(rows: list[dict[str, Any]], examples: int) -> str:
    out: list[str] = []
    total_ref = sum(r["lines_cdp"] for r in rows)
    total_got = sum(r["lines_walker"] for r in rows)
    matched = sum(r["matched"] for r in rows)
    inter = sum(r["interactive"] for r in rows)
    inter_missing = sum(r["interactive_missing"] for r in rows)
    out.append(f"pages {len(rows)}; lines CDP {total_ref:,}, walker {total_got:,}, matched {matched:,}: "
               f"agreement {matched / max(total_ref, total_got, 1):.4f} (pooled), "
               f"median per page {statistics.median(r['agreement'] for r in rows):.4f}, "
               f"min {min(r['agreement'] for r in rows):.4f}")
    out.append(f"interactive (role, name) present: {inter - inter_missing:,}/{inter:,}; pages with all: "
               f"{sum(1 for r in rows if r['interactive_missing'] == 0)}/{len(rows)}")
    ratios = [r["ratio"] for r in rows if r["ratio"]]
    out.append(f"time walker/CDP: median ratio {statistics.median(ratios):.3f}, "
               f"sum CDP {sum(r['s_cdp'] for r in rows):.2f}s vs walker {sum(r['s_walker'] for r in rows):.2f}s")
    miss: Counter[str] = Counter()
    extra: Counter[str] = Counter()
    ex_m: dict[str, list[str]] = {}
    ex_e: dict[str, list[str]] = {}
    for r in rows:
        for (role, name), n in r["missing"].items():
            miss[role] += n
            ex_m.setdefault(role, []).append(f"{r['page'][:3]}:{name[:50]!r}")
        for (role, name), n in r["extra"].items():
            extra[role] += n
            ex_e.setdefault(role, []).append(f"{r['page'][:3]}:{name[:50]!r}")
    out.append("missing in walker (by role): " + ", ".join(f"{k} {v}" for k, v in miss.most_common()))
    for role, _ in miss.most_common(12):
        out.append(f"  - {role}: " + "; ".join(ex_m[role][:examples]))
    out.append("extra in walker (by role): " + ", ".join(f"{k} {v}" for k, v in extra.most_common()))
    for role, _ in extra.most_common(12):
        out.append(f"  + {role}: " + "; ".join(ex_e[role][:examples]))
    im = [f"{r['page'][:3]}:{k[0]} {k[1][:40]!r}" for r in rows for k in r["interactive_missing_keys"]]
    if im:
        out.append("interactive missing: " + "; ".join(im[: examples * 4]))
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument("--pages", nargs="*", help="page file names (default: all *.html of the corpus)")
    ap.add_argument("--reps", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("--examples", type=int, default=6)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    names = args.pages or sorted(p.name for p in args.corpus.glob("*.html"))
    pages = [args.corpus / n for n in names]
    load = os.getloadavg()
    rows = run(pages, args.reps, args.timeout)
    text = summary(rows, args.examples)
    print(f"load average at start {load[0]:.1f}, at end {os.getloadavg()[0]:.1f}")
    print(text)
    if args.out:
        serial = [{k: (v if not isinstance(v, Counter) else [[list(kk), n] for kk, n in v.items()])
                   for k, v in r.items()} for r in rows]
        args.out.write_text(json.dumps({"rows": serial, "summary": text}, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
