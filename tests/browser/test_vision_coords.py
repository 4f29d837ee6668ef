"""Coordinate actions on real Chromium: a calibration page at DPR 1 and 2, with and without cap scaling."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pagelens.actions.executor import Executor
from pagelens.actions.spec import Action
from pagelens.browser.session import Episode
from pagelens.vision.elements import element_boxes
from pagelens.vision.screenshot import ScreenshotConfig, capture

pytest.importorskip("PIL")
pytestmark = pytest.mark.browser

CASES = [(1, 1440, 810, 1.0), (2, 1440, 810, 1.0), (1, 1920, 1080, 0.75), (2, 1600, 900, 0.9)]


@pytest.fixture(params=CASES, ids=lambda c: f"dpr{c[0]}-{c[1]}x{c[2]}")
def calibrated(request, browser_session, pages_server) -> Iterator[tuple[Episode, float]]:  # type: ignore[no-untyped-def]
    dpr, w, h, scale = request.param
    context = browser_session.browser.new_context(viewport={"width": w, "height": h}, device_scale_factor=dpr)
    ep = Episode(browser_session, context, context.new_page())
    try:
        ep.goto(pages_server.url("vision_calibration.html"))
        yield ep, scale
    finally:
        ep.close()


def test_click_at_hits_every_target_centre_exactly(calibrated) -> None:  # type: ignore[no-untyped-def]
    ep, scale = calibrated
    shot = capture(ep.page, ScreenshotConfig())
    geo = shot.geometry
    assert geo.scale_x == pytest.approx(scale) and shot.image().size == (geo.width, geo.height)
    assert geo.width <= 1440 and geo.height <= 810
    obs = ep.observe()
    elements = {e.name: e for e in element_boxes(ep.observer.last_sessions, obs, geo)}
    targets = [e for name, e in elements.items() if name.startswith("Target ")]
    assert len(targets) >= 5, sorted(elements)
    ex = Executor(ep)
    ex.screen = geo
    for e in targets:
        x, y = e.centre
        fb = ex.execute(Action("click_at", {"x": x, "y": y}), obs)
        assert fb.ok, fb.message
        assert "role button" in fb.message and "clickable" in fb.message, fb.message
        hit = ep.page.evaluate("window.__hits.pop()")
        index = int(e.name.split()[-1])
        assert hit["id"] == f"t{index}", (e, hit)
        centre = ep.page.evaluate("(id) => { const r = document.getElementById(id).getBoundingClientRect();"
                                  " return [r.left + r.width / 2, r.top + r.height / 2]; }", f"t{index}")
        assert (hit["x"], hit["y"]) == pytest.approx(centre, abs=1e-3), "0 px error on the target centre (CSS)"
        assert geo.to_screen(hit["x"], hit["y"]) == (x, y), "0 px error in screenshot pixels"
    # the target inside the iframe: listed with a top-viewport box, reported with its frame
    inner = elements["Inner target"]
    fb = ex.execute(Action("click_at", {"x": inner.centre[0], "y": inner.centre[1]}), obs)
    assert fb.status == "done" and "inside the frame" in fb.message and "role button" in fb.message, fb.message
    assert any("frame" in c for c in fb.changes), fb.changes
    frame = next(f for f in ep.page.frames if f.url.endswith("vision_calibration_inner.html"))
    hit = frame.evaluate("window.__hits.pop()")
    assert (hit["x"], hit["y"]) == pytest.approx((140, 80), abs=1e-3)


def test_points_outside_the_screenshot_are_refused(calibrated) -> None:  # type: ignore[no-untyped-def]
    ep, _ = calibrated
    geo = capture(ep.page).geometry
    ex = Executor(ep)
    ex.screen = geo
    obs = ep.observe()
    fb = ex.execute(Action("click_at", {"x": geo.width, "y": 5}), obs)
    assert fb.status == "failed" and "outside the screenshot" in fb.message
    assert ep.page.evaluate("window.__hits.length") == 0
