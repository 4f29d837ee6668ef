"""Pixel change on a moving real page: idle false fires of the pixel watch, true fires on a canvas.

:func:`measure_page` serves a page with ``data/realpage_motion.js`` injected (it slides the
page's own carousel track every ``period_ms``, ticks a clock every second and adds a canvas
chart that repaints under the mouse), arms a :class:`~pagelens.actions.pixels.PixelWatch`,
counts the idle action windows it reports as changed (false fires) and the chart hovers it
and the DOM fingerprint report (true fires). Used by ``benchmarks/vision_realpages.py`` and
``tests/browser/test_vision_realpages.py``.
"""

from __future__ import annotations

import random
from importlib import resources
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pagelens.actions.pixels import PixelWatch
    from pagelens.browser.serve import StaticServer
    from pagelens.browser.session import BrowserSession

__all__ = ["HOVERED_BARS", "WATCHES", "make_watch", "measure_page"]

#: the chart's bars hovered in turn after the idle frames (each hover repaints the highlight)
HOVERED_BARS = (1, 3, 5, 0, 4)


#: the watches compared: what the agent loop uses, its learning alone, the opt-in second look, one bar
WATCHES = ("default", "hysteresis", "confirm", "plain")


def make_watch(kind: str) -> PixelWatch:
    """``kind``: "default" (:class:`~pagelens.vision.mask.HysteresisWatch` as the agent loop makes it:
    hysteresis + slides told from effects), "hysteresis" (its learning alone, ``ambient=False``),
    "confirm" (that with a second look 250 ms after a fire) or "plain"
    (:class:`~pagelens.actions.pixels.PixelWatch`, one bar to learn and fire)."""
    from pagelens.actions.pixels import PixelWatch
    from pagelens.vision.mask import HysteresisWatch

    if kind == "default":
        return HysteresisWatch()
    if kind == "hysteresis":
        return HysteresisWatch(ambient=False)
    if kind == "confirm":
        return HysteresisWatch(ambient=False, confirm_ms=250)
    if kind == "plain":
        return PixelWatch()
    raise ValueError(f"unknown watch {kind!r}: one of {', '.join(WATCHES)}")


def measure_page(session: BrowserSession, server: StaticServer, name: str, frames: int, period_ms: int = 3100,
                 *, watch_kind: str = "default", seed: int | None = None) -> dict[str, Any]:
    """One page, one watch (:func:`make_watch`). ``seed``: the carousel's first slide comes at a
    random phase of its period, the clock's first tick at a random phase of its second, and the
    idle gaps and action windows have random lengths (the same for every watch given the seed);
    ``None``: the fixed schedule (first slide one period after load, gaps 200-900 ms, windows 450 ms)."""
    from pagelens.actions.executor import Budgets, Executor
    from pagelens.actions.ops import Outcome
    from pagelens.actions.spec import Action
    from pagelens.vision.hybrid import capture_hybrid

    rng = random.Random(seed)
    phase = rng.randrange(period_ms) if seed is not None else period_ms
    clock_phase = rng.randrange(1000) if seed is not None else 1000
    gaps = [(rng.randint(100, 1000), rng.randint(250, 650)) if seed is not None else (200 + 100 * (i % 8), 450)
            for i in range(frames)]
    script = resources.files("pagelens.bench").joinpath("data/realpage_motion.js").read_text(encoding="utf-8")
    inject = (f"<script>window.__motionPeriod = {period_ms}; window.__motionPhase = {phase};"
              f" window.__clockPhase = {clock_phase};</script><script>{script}</script>")
    with session.episode() as ep:
        ep.goto(server.url(name, inject=inject))
        page = ep.tab
        page.pause(300)
        carousel = bool(page.evaluate("window.__carousel === true"))
        watch = make_watch(watch_kind)
        watch.arm(page)
        learnt = len(watch.mask)
        false_fires = 0
        fired_frames = []
        for i, (gap, window) in enumerate(gaps):
            page.pause(gap)
            watch.before(page)
            page.pause(window)
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
        row = {"page": name, "watch": watch_kind, "seed": seed, "phase_ms": phase, "carousel_driven": carousel,
               "cells_learnt_at_arm": learnt, "idle_frames": frames, "false_fires": false_fires,
               "fired_frames": fired_frames}
        if box is None:  # the page's own scripts removed the injected chart
            return {**row, "masked_cells_end": len(watch.effective_mask()), "canvas_updates": 0, "pixel_caught": 0,
                    "dom_caught": 0, "dom_changes": [], "slides_dropped": int(getattr(watch, "slides", 0))}
        pixel_true = dom_true = 0
        dom_changes: list[str] = []
        for bar in HOVERED_BARS:
            x, y = geo.to_screen(box[0] + 1 + 12 + bar * 48 + 18, box[1] + 1 + 120)
            fb = ex.execute(Action("hover_at", {"x": x, "y": y}), obs)
            pixel_true += int(int(fb.detail.get("pixel_cells", 0)) > 0)
            dom = [c for c in fb.changes if not c.startswith("the screen changed in ")]
            dom_true += int(bool(dom))
            dom_changes.extend(dom)
        return {**row, "masked_cells_end": len(watch.effective_mask()), "canvas_updates": len(HOVERED_BARS),
                "pixel_caught": pixel_true, "dom_caught": dom_true, "dom_changes": sorted(set(dom_changes)),
                "slides_dropped": int(getattr(watch, "slides", 0))}
