"""Pixel change on a moving real page: idle false fires of the pixel watch, true fires on a canvas.

:func:`measure_watches` serves a page with ``data/realpage_motion.js`` injected (it slides the
page's own carousel track every ``period_ms``, ticks a clock every second and adds a canvas
chart that repaints under the mouse), arms the first watch, counts the idle action windows it
reports as changed (false fires) and the chart hovers it and the DOM fingerprint report (true
fires). Every other watch is then shown **the same screenshots** in the same order (replayed:
a paired comparison, and one browser run for all of them). Used by
``benchmarks/vision_realpages.py`` and ``tests/browser/test_vision_realpages.py``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from importlib import resources
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from PIL.Image import Image

    from pagelens.actions.pixels import PixelWatch
    from pagelens.browser.page import Tab
    from pagelens.browser.serve import StaticServer
    from pagelens.browser.session import BrowserSession

__all__ = ["HOVERED_BARS", "WATCHES", "make_watch", "measure_page", "measure_watches"]

#: the watches compared: what the agent loop uses, its learning alone, the opt-in second look, one bar
WATCHES = ("default", "hysteresis", "confirm", "plain")
#: the chart's bars hovered in turn after the idle frames (each hover repaints the highlight)
HOVERED_BARS = (1, 3, 5, 0, 4)


def make_watch(kind: str) -> PixelWatch:
    """``kind``: "default" (:class:`~pagelens.vision.mask.HysteresisWatch` as the agent loop makes it:
    hysteresis + pixel learning + slides told from effects), "hysteresis" (the earlier default:
    ``ambient=False``), "confirm" (that with a second look 250 ms after a fire) or "plain"
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


class _Recorder:
    """The live tab for the first watch; keeps every screenshot it takes, in order."""

    def __init__(self, tab: Tab) -> None:
        self._tab = tab
        self.shots: list[Image] = []

    @property
    def tab(self) -> _Recorder:
        return self

    @property
    def url(self) -> str:
        return self._tab.url

    def screenshot(self, config: Any = None, *, raw: bool = False) -> Image:
        img: Image = self._tab.screenshot(config, raw=True)  # type: ignore[assignment]
        self.shots.append(img)
        return img

    def pause(self, ms: float) -> None:
        self._tab.pause(ms)

    def evaluate(self, script: str) -> Any:
        return self._tab.evaluate(script)


class _Replay:
    """The recorded screenshots again, in order, for another watch (no time passes)."""

    def __init__(self, url: str, shots: Sequence[Image], viewport: tuple[int, int]) -> None:
        self.url = url
        self._shots = iter(shots)
        self._viewport = viewport

    @property
    def tab(self) -> _Replay:
        return self

    def screenshot(self, config: Any = None, *, raw: bool = False) -> Image:
        return next(self._shots)

    def pause(self, ms: float) -> None:
        pass

    def evaluate(self, script: str) -> Any:  # the watch's questions about the action's target
        from pagelens.vision.mask import POINTER_BEFORE_JS

        if script == POINTER_BEFORE_JS:
            return 0
        return [self._viewport[0], self._viewport[1], 0, None, None]  # no pointer event, no focus moved


def measure_page(session: BrowserSession, server: StaticServer, name: str, frames: int, period_ms: int = 3100,
                 *, watch_kind: str = "default", seed: int | None = None) -> dict[str, Any]:
    """One page, one watch (:func:`measure_watches` with one kind)."""
    return measure_watches(session, server, name, frames, period_ms, kinds=(watch_kind,), seed=seed)[0]


def measure_watches(session: BrowserSession, server: StaticServer, name: str, frames: int, period_ms: int = 3100,
                    *, kinds: Sequence[str] = ("default",), seed: int | None = None,
                    first_slide_in_window: bool = False) -> list[dict[str, Any]]:
    """One page, one row per watch kind (:func:`make_watch`), all on the same screenshots.
    ``seed``: the carousel's first slide comes at a random phase of its period, the clock's first
    tick at a random phase of its second, and the idle gaps and action windows have random
    lengths; ``None``: the fixed schedule (first slide one period after load, gaps 200-900 ms,
    windows 450 ms). ``first_slide_in_window``: the carousel stands still until the first action
    window, in which its first slide starts (the hard case, every run, instead of by phase luck).
    "confirm" takes screenshots of its own, so it runs alone."""
    from pagelens.actions.executor import Budgets, Executor
    from pagelens.actions.ops import Outcome
    from pagelens.actions.spec import Action
    from pagelens.vision.hybrid import capture_hybrid

    if not kinds:
        raise ValueError("no watch to measure")
    if "confirm" in kinds and len(kinds) > 1:
        raise ValueError("the confirm watch takes screenshots of its own: measure it alone")
    watches = [make_watch(k) for k in kinds]  # bad kinds fail before the browser starts
    rng = random.Random(seed)
    phase = -1 if first_slide_in_window else rng.randrange(period_ms) if seed is not None else period_ms
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
        viewport = tuple(page.evaluate("[innerWidth, innerHeight]"))
        live = _Recorder(page)
        first = watches[0]
        first.arm(live)  # type: ignore[arg-type]  # the recorder stands for the tab
        idle = []
        for i, (gap, window) in enumerate(gaps):
            page.pause(gap)
            first.before(live)  # type: ignore[arg-type]
            if i == 0 and first_slide_in_window:
                page.evaluate("window.__startSlides && window.__startSlides()")  # as the page's timer would
            page.pause(window)
            idle.append(int(first.after(live, Outcome()).detail.get("pixel_cells", 0)))  # type: ignore[arg-type]
        # true fires: hover onto bars of the canvas chart (drawn content only)
        obs = ep.observe(timeout_s=120)  # a crowded machine: a big page's observation is slow, not wrong
        hybrid = capture_hybrid(ep, obs)
        ex = Executor(ep, Budgets(max_steps=100, max_repeats=100))
        ex.screen = hybrid.screenshot.geometry
        geo = hybrid.screenshot.geometry
        box = page.evaluate("(() => { const c = document.querySelector('canvas[aria-label=\"Sales chart\"]');"
                            " if (!c) return null; const r = c.getBoundingClientRect(); return [r.left, r.top]; })()")
        hovers: list[tuple[dict[str, Any], int]] = []  # (the action's detail, pixel cells)
        dom_true = 0
        dom_changes: list[str] = []
        for bar in HOVERED_BARS if box is not None else ():
            x, y = geo.to_screen(box[0] + 1 + 12 + bar * 48 + 18, box[1] + 1 + 120)
            first.before(live)  # type: ignore[arg-type]
            fb = ex.execute(Action("hover_at", {"x": x, "y": y}), obs)  # the executor has no pixel watch
            detail = dict(fb.detail)
            hovers.append((detail, int(first.after(live, Outcome(detail=detail)).detail.get("pixel_cells", 0))))  # type: ignore[arg-type]
            dom = list(fb.changes)
            dom_true += int(bool(dom))
            dom_changes.extend(dom)
        url = page.url
    results = [(first, idle, [n for _, n in hovers])]
    for watch in watches[1:]:
        replay = _Replay(url, live.shots, (int(viewport[0]), int(viewport[1])))
        watch.arm(replay)  # type: ignore[arg-type]
        w_idle = []
        for _ in gaps:
            watch.before(replay)  # type: ignore[arg-type]
            w_idle.append(int(watch.after(replay, Outcome()).detail.get("pixel_cells", 0)))  # type: ignore[arg-type]
        w_hover = []
        for detail, _n in hovers:
            watch.before(replay)  # type: ignore[arg-type]
            w_hover.append(int(watch.after(replay, Outcome(detail=detail)).detail.get("pixel_cells", 0)))  # type: ignore[arg-type]
        results.append((watch, w_idle, w_hover))
    rows = []
    for kind, (watch, w_idle, w_hover) in zip(kinds, results, strict=True):
        rows.append({"page": name, "watch": kind, "seed": seed, "phase_ms": phase, "carousel_driven": carousel,
                     "idle_frames": frames, "false_fires": sum(n > 0 for n in w_idle),
                     "fired_frames": [i for i, n in enumerate(w_idle) if n > 0],
                     "masked_cells_end": len(watch.effective_mask()), "canvas_updates": len(w_hover),
                     "pixel_caught": sum(n > 0 for n in w_hover), "dom_caught": dom_true,
                     "dom_changes": sorted(set(dom_changes)), "slides_dropped": int(getattr(watch, "slides", 0)),
                     "shared_screenshots": len(live.shots)})
    return rows
