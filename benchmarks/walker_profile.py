"""Where the walker's JavaScript spends its time: V8's sampling profiler around cold walks (issue 13, h10-obs).

Each repetition loads the page fresh (a new context, so the walker runs cold, as on every new
document), starts ``Profiler`` on a second CDP session of the page with a 50 µs sampling
interval, observes once and stops. Samples are counted per function (self and inclusive) and per
source line of the *unminified* walker (``rjsmin`` is bypassed so lines are readable). Shares of
samples, not times: on a loaded machine the sampler runs late, but what it samples is unbiased.

    PYTHONPATH=src .venv/bin/python benchmarks/walker_profile.py 8 /tmp/pages/gen-1000.html \\
        /work/shared/corpus/realpages/028-wikipedia-mozilla.html [--top 30]
"""

from __future__ import annotations

import argparse
import collections
from pathlib import Path
from typing import Any

from pagelens.browser import walker_source
from pagelens.browser.serve import serve_file
from pagelens.browser.session import BrowserSession
from pagelens.config import BrowserConfig


def _key(node: dict[str, Any]) -> str:
    cf = node["callFrame"]
    return f'{cf["functionName"] or "(anonymous)"}:{cf["lineNumber"] + 1}'


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("reps", type=int)
    ap.add_argument("pages", nargs="+")
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--interval-us", type=int, default=50)
    args = ap.parse_args()
    walker_source._minify = lambda s: s  # readable line numbers
    source = walker_source.walker_js().splitlines()
    cfg = BrowserConfig(block_external=False, extract_timeout_s=300)
    for page in args.pages:
        own: collections.Counter[str] = collections.Counter()
        incl: collections.Counter[str] = collections.Counter()
        lines: collections.Counter[int] = collections.Counter()
        total = 0
        with BrowserSession(cfg) as s:
            for _ in range(args.reps):
                with serve_file(Path(page)) as url, s.episode() as ep:
                    ep.goto(url)
                    cdp = ep.page.context.new_cdp_session(ep.page)
                    cdp.send("Profiler.enable")
                    cdp.send("Profiler.setSamplingInterval", {"interval": args.interval_us})
                    cdp.send("Profiler.start")
                    ep.observe()
                    prof = cdp.send("Profiler.stop")["profile"]
                nodes = {n["id"]: n for n in prof["nodes"]}
                parent = {c: n["id"] for n in prof["nodes"] for c in n.get("children", [])}
                for n in prof["nodes"]:
                    for pt in n.get("positionTicks", []):
                        lines[pt["line"]] += pt["ticks"]
                for nid in prof["samples"]:
                    k = _key(nodes[nid])
                    if k.startswith("(idle)"):
                        continue
                    own[k] += 1
                    total += 1
                    seen: set[str] = set()
                    x: int | None = nid
                    while x is not None:
                        kk = _key(nodes[x])
                        if kk not in seen:
                            incl[kk] += 1
                            seen.add(kk)
                        x = parent.get(x)
        print(f"{Path(page).name}: {total} samples outside idle, {args.reps} cold walks")
        for title, counter in (("self", own), ("inclusive", incl)):
            print(f"  {title}:")
            for k, c in counter.most_common(args.top):
                print(f"    {100 * c / max(total, 1):5.1f}%  {k}")
        print("  lines (self):")
        for ln, c in lines.most_common(args.top):
            text = source[ln - 1].strip()[:110] if 0 < ln <= len(source) else "(outside the walker)"
            print(f"    {100 * c / max(total, 1):5.1f}%  {ln:5d}  {text}")


if __name__ == "__main__":
    main()
