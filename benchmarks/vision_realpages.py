"""Pixel change on real pages: false fires of the perceptual-hash signal on moving pages, true fires on drawn content.

    PYTHONPATH=src python benchmarks/vision_realpages.py [--frames 24] [--pages 001,002,...] [--out FILE]

The corpus pages (../shared/corpus/realpages, served from 127.0.0.1) were saved without their
scripts, so nothing on them moves offline (checked: 0 cells changed over 8 idle frames on all
49). ``benchmarks/data/realpage_motion.js`` is injected into each: it slides the page's own
carousel track (when the page has one) one card every ~3 s with a 600 ms transition, adds a
ticking clock (every second) and a canvas chart that repaints a highlight under the mouse.

Per page: the watch is armed (its idle learning), then ``--frames`` idle action windows
(screenshot before, ~450 ms with nothing done, screenshot after; 200-900 ms apart) are counted
as false fires when the watch reports changed cells; then 3 ``hover_at`` moves onto bars of the
canvas through the executor (the chart repaints, the DOM does not change) are counted as true
fires of the pixel hash and of the DOM fingerprint. Carousel periods longer than the watch's
idle learning are the hard case: a slide that starts inside an action window before the watch
has seen it move while idle would be a false fire.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
CORPUS = ROOT.parent.parent / "shared" / "corpus" / "realpages"
#: pages whose saved markup has a carousel (amazon ×2, bing, bookpeople) and four without one
DEFAULT_PAGES = ("001", "002", "009", "041", "011", "028", "032", "034")


def measure_page(session: Any, server: Any, name: str, frames: int, period_ms: int = 3100) -> dict[str, Any]:
    from pagelens.actions.executor import Budgets, Executor
    from pagelens.actions.ops import Outcome
    from pagelens.actions.pixels import PixelWatch
    from pagelens.actions.spec import Action
    from pagelens.vision.hybrid import capture_hybrid

    script = (ROOT / "benchmarks/data/realpage_motion.js").read_text()
    inject = f"<script>window.__motionPeriod = {period_ms};</script><script>{script}</script>"
    with session.episode() as ep:
        ep.goto(server.url(name, inject=inject))
        page = ep.page
        page.wait_for_timeout(300)
        carousel = bool(page.evaluate("window.__carousel === true"))
        watch = PixelWatch()
        watch.arm(page)
        learnt = len(watch.mask)
        false_fires = 0
        fired_frames = []
        for i in range(frames):
            page.wait_for_timeout(200 + 100 * (i % 8))
            watch.before(page)
            page.wait_for_timeout(450)
            out = watch.after(page, Outcome())
            if int(out.detail.get("pixel_cells", 0)) > 0:
                false_fires += 1
                fired_frames.append(i)
        # true fires: hover onto bars of the canvas chart (drawn content only)
        obs = ep.observe()
        hybrid = capture_hybrid(ep, obs)
        ex = Executor(ep, Budgets(max_steps=100, max_repeats=100))
        ex.screen = hybrid.screenshot.geometry
        ex.pixels = watch
        geo = hybrid.screenshot.geometry
        box = page.evaluate("(() => { const r = document.querySelector('canvas[aria-label=\"Sales chart\"]')"
                            ".getBoundingClientRect(); return [r.left, r.top]; })()")
        pixel_true = dom_true = 0
        dom_changes: list[str] = []
        for bar in (1, 3, 5):
            x, y = geo.to_screen(box[0] + 1 + 12 + bar * 48 + 18, box[1] + 1 + 120)
            fb = ex.execute(Action("hover_at", {"x": x, "y": y}), obs)
            pixel_true += int(int(fb.detail.get("pixel_cells", 0)) > 0)
            dom = [c for c in fb.changes if not c.startswith("the screen changed in ")]
            dom_true += int(bool(dom))
            dom_changes.extend(dom)
        return {"page": name, "carousel_driven": carousel, "cells_learnt_at_arm": learnt,
                "masked_cells_end": len(watch.effective_mask()), "idle_frames": frames, "false_fires": false_fires,
                "fired_frames": fired_frames, "canvas_updates": 3, "pixel_caught": pixel_true, "dom_caught": dom_true,
                "dom_changes": sorted(set(dom_changes))}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--frames", type=int, default=24)
    ap.add_argument("--pages", default=",".join(DEFAULT_PAGES), help="corpus page number prefixes")
    ap.add_argument("--period-ms", type=int, default=3100, help="carousel period")
    ap.add_argument("--out", default=str(ROOT / "benchmarks/results/vision_realpages.json"))
    args = ap.parse_args()
    from pagelens.browser.serve import StaticServer
    from pagelens.browser.session import BrowserSession

    names = sorted(p.name for p in CORPUS.glob("*.html"))
    wanted = [n for n in names if n.split("-")[0] in args.pages.split(",")]
    rows = []
    with BrowserSession() as session, StaticServer(CORPUS) as server:
        for name in wanted:
            row = measure_page(session, server, name, args.frames, args.period_ms)
            print(json.dumps(row), flush=True)
            rows.append(row)
    total = {"pages": len(rows), "carousel_pages": sum(r["carousel_driven"] for r in rows),
             "idle_frames": sum(r["idle_frames"] for r in rows), "false_fires": sum(r["false_fires"] for r in rows),
             "canvas_updates": sum(r["canvas_updates"] for r in rows),
             "pixel_caught": sum(r["pixel_caught"] for r in rows), "dom_caught": sum(r["dom_caught"] for r in rows)}
    print("total", json.dumps(total), flush=True)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps({"total": total, "pages": rows}, indent=1))


if __name__ == "__main__":
    main()
