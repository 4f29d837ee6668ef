"""Pixel change on a moving real page: idle false fires of the pixel watch, true fires on a canvas.

:func:`measure_page` serves a page with ``data/realpage_motion.js`` injected (it slides the
page's own carousel track every ``period_ms``, ticks a clock every second and adds a canvas
chart that repaints under the mouse), arms a :class:`~pagelens.actions.pixels.PixelWatch`,
counts the idle action windows it reports as changed (false fires) and the chart hovers it
and the DOM fingerprint report (true fires). Used by ``benchmarks/vision_realpages.py`` and
``tests/browser/test_vision_realpages.py``.
"""

from __future__ import annotations

from importlib import resources
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pagelens.browser.serve import StaticServer
    from pagelens.browser.session import BrowserSession

__all__ = ["measure_page"]


def measure_page(session: BrowserSession, server: StaticServer, name: str, frames: int, period_ms: int = 3100,
                 *, watch_kind: str = "hysteresis") -> dict[str, Any]:
    """One page: ``watch_kind`` "hysteresis" (:class:`~pagelens.vision.mask.HysteresisWatch`, what the
    loop uses), "confirm" (the same with a second look 250 ms after a fire) or "plain"
    (:class:`~pagelens.actions.pixels.PixelWatch`, one bar to learn and fire)."""
    from pagelens.actions.executor import Budgets, Executor
    from pagelens.actions.ops import Outcome
    from pagelens.actions.pixels import PixelWatch
    from pagelens.actions.spec import Action
    from pagelens.vision.hybrid import capture_hybrid
    from pagelens.vision.mask import HysteresisWatch

    script = resources.files("pagelens.bench").joinpath("data/realpage_motion.js").read_text(encoding="utf-8")
    inject = f"<script>window.__motionPeriod = {period_ms};</script><script>{script}</script>"
    with session.episode() as ep:
        ep.goto(server.url(name, inject=inject))
        page = ep.tab
        page.pause(300)
        carousel = bool(page.evaluate("window.__carousel === true"))
        watch = (HysteresisWatch() if watch_kind == "hysteresis" else HysteresisWatch(confirm_ms=250)
                 if watch_kind == "confirm" else PixelWatch())
        watch.arm(page)
        learnt = len(watch.mask)
        false_fires = 0
        fired_frames = []
        for i in range(frames):
            page.pause(200 + 100 * (i % 8))
            watch.before(page)
            page.pause(450)
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
        box = page.evaluate("(() => { const c = document.querySelector('canvas[aria-label=\"Sales chart\"]');"
                            " if (!c) return null; const r = c.getBoundingClientRect(); return [r.left, r.top]; })()")
        row = {"page": name, "watch": watch_kind, "carousel_driven": carousel, "cells_learnt_at_arm": learnt,
               "idle_frames": frames, "false_fires": false_fires, "fired_frames": fired_frames}
        if box is None:  # the page's own scripts removed the injected chart
            return {**row, "masked_cells_end": len(watch.effective_mask()), "canvas_updates": 0, "pixel_caught": 0,
                    "dom_caught": 0, "dom_changes": []}
        pixel_true = dom_true = 0
        dom_changes: list[str] = []
        for bar in (1, 3, 5):
            x, y = geo.to_screen(box[0] + 1 + 12 + bar * 48 + 18, box[1] + 1 + 120)
            fb = ex.execute(Action("hover_at", {"x": x, "y": y}), obs)
            pixel_true += int(int(fb.detail.get("pixel_cells", 0)) > 0)
            dom = [c for c in fb.changes if not c.startswith("the screen changed in ")]
            dom_true += int(bool(dom))
            dom_changes.extend(dom)
        return {**row, "masked_cells_end": len(watch.effective_mask()), "canvas_updates": 3,
                "pixel_caught": pixel_true, "dom_caught": dom_true, "dom_changes": sorted(set(dom_changes))}
