"""Pixel change on real pages: false fires of the perceptual-hash signal on moving pages, true fires on drawn content.

    PYTHONPATH=src python benchmarks/vision_realpages.py [--frames 24] [--pages 001,002,...] [--seeds 1,2,3]
        [--watches plain,hysteresis,default] [--out FILE]

The corpus pages (../shared/corpus/realpages, served from 127.0.0.1) were saved without their
scripts, so nothing on them moves offline (checked: 0 cells changed over 8 idle frames on all
49). ``pagelens/bench/data/realpage_motion.js`` is injected into each: it slides the page's own
carousel track (when the page has one) one card every ~3 s with a 600 ms transition, adds a
ticking clock (every second) and a canvas chart that repaints a highlight under the mouse.

Per page, carousel period (``--periods-ms``, when the page has a carousel) and seed (``--seeds``:
the carousel's first slide at a random phase of its period, the clock's first tick at a random
phase of its second, idle gaps of 100-1000 ms and action windows of 250-650 ms drawn from it; no
seed: the fixed schedule of the first measurements): the first watch is armed (its idle
learning), then ``--frames`` idle action windows (screenshot before, the window with nothing
done, screenshot after) are counted as false fires when the watch reports changed cells; then 5
``hover_at`` moves onto bars of the canvas through the executor (the chart repaints, the DOM
does not change) are counted as true fires of the pixel hash and of the DOM fingerprint. Every
other watch of ``--watches`` is shown the same screenshots in the same order (recorded once,
replayed: a paired comparison): "plain" (``PixelWatch``: one bar, 6 bits, to learn and to fire),
"hysteresis" (``vision.mask.HysteresisWatch(ambient=False)``: learns on any idle movement; the
loop's default until issue 14's last fix), "default" (``HysteresisWatch()``, what the agent loop
uses: that plus pixel learning and slides told from effects); "confirm" (the opt-in second look)
takes screenshots of its own and runs separately. Carousel periods longer than the watch's idle
learning are the hard case: a slide that starts inside an action window before the watch has seen
it move while idle.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
CORPUS = next((p / "shared" / "corpus" / "realpages" for p in Path(__file__).resolve().parents if (p / "shared" / "corpus" / "realpages").is_dir()), Path("shared/corpus/realpages"))
#: pages whose saved markup has a carousel (amazon ×2, bing, bookpeople) and four without one
DEFAULT_PAGES = ("001", "002", "009", "041", "011", "028", "032", "034")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--frames", type=int, default=24)
    ap.add_argument("--pages", default=",".join(DEFAULT_PAGES), help="corpus page number prefixes")
    ap.add_argument("--periods-ms", default="2300,3100",
                    help="carousel periods; a page whose carousel was driven is measured once per period")
    ap.add_argument("--watches", default="plain,hysteresis,default",
                    help="plain, hysteresis, confirm, default (comma-separated; see bench.vision_motion.make_watch)")
    ap.add_argument("--seeds", default="",
                    help="comma-separated seeds: each (page, period) is run once per seed, with the carousel's and "
                         "the clock's phases and the frame timings drawn from it (empty: the fixed schedule)")
    ap.add_argument("--first-slide-in-window", action="store_true",
                    help="the carousel's first slide starts inside the first idle action window (every run)")
    ap.add_argument("--out", default=str(ROOT / "benchmarks/results/vision_realpages.json"))
    args = ap.parse_args()
    from pagelens.bench.vision_motion import measure_watches
    from pagelens.browser.serve import StaticServer
    from pagelens.browser.session import BrowserSession

    names = sorted(p.name for p in CORPUS.glob("*.html"))
    wanted = [n for n in names if n.split("-")[0] in args.pages.split(",")]
    rows = []
    with BrowserSession() as session, StaticServer(CORPUS) as server:
        periods = [int(p) for p in args.periods_ms.split(",")]
        seeds: list[int | None] = [int(x) for x in args.seeds.split(",") if x.strip()] or [None]
        for name in wanted:
            for i, period in enumerate(periods):
                driven = True
                for seed in seeds:
                    kinds = [k for k in args.watches.split(",") if k != "confirm"]
                    # the watches but "confirm" see the same screenshots (recorded once, replayed)
                    got = measure_watches(session, server, name, args.frames, period, kinds=kinds, seed=seed,
                                          first_slide_in_window=args.first_slide_in_window) if kinds else []
                    if "confirm" in args.watches.split(","):
                        got += measure_watches(session, server, name, args.frames, period, kinds=["confirm"], seed=seed,
                                               first_slide_in_window=args.first_slide_in_window)
                    for row in got:
                        row["period_ms"] = period
                        print(json.dumps(row), flush=True)
                        rows.append(row)
                        driven = driven and row["carousel_driven"]
                if i == 0 and not driven:
                    break  # nothing slides on this page: one pass per seed (the clock and the chart) is enough
    total = {}
    for kind in args.watches.split(","):
        rs = [r for r in rows if r["watch"] == kind]
        total[kind] = {"pages": len({r["page"] for r in rs}), "runs": len(rs),
                       "carousel_pages": len({r["page"] for r in rs if r["carousel_driven"]}),
                       "idle_frames": sum(r["idle_frames"] for r in rs), "false_fires": sum(r["false_fires"] for r in rs),
                       "canvas_updates": sum(r["canvas_updates"] for r in rs),
                       "pixel_caught": sum(r["pixel_caught"] for r in rs), "dom_caught": sum(r["dom_caught"] for r in rs),
                       "carousel_false_fires": sum(r["false_fires"] for r in rs if r["carousel_driven"]),
                       "slides_dropped": sum(r.get("slides_dropped", 0) for r in rs),
                       "masked_cells_end_median": sorted(r["masked_cells_end"] for r in rs)[len(rs) // 2] if rs else 0,
                       "masked_cells_end_mean": round(sum(r["masked_cells_end"] for r in rs) / len(rs), 1) if rs else 0,
                       "masked_cells_end_mean_carousel": round(
                           sum(r["masked_cells_end"] for r in rs if r["carousel_driven"])
                           / max(1, sum(r["carousel_driven"] for r in rs)), 1)}
    print("total", json.dumps(total), flush=True)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps({"total": total, "pages": rows}, indent=1))


if __name__ == "__main__":
    main()
