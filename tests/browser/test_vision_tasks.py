"""The bundled vision tasks with the scripted vision policy, and pixel change on real pages."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pagelens.actions.executor import Budgets, Executor
from pagelens.actions.spec import Action
from pagelens.bench.vision import VISION_TASKS, pages_dir, run_vision_task
from pagelens.vision.hybrid import capture_hybrid
from pagelens.vision.ocr import cross_check
from pagelens.actions.pixels import PixelWatch

pytest.importorskip("imagehash")
pytest.importorskip("pytesseract")
pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def vision_server() -> Iterator[object]:
    from pagelens.browser.serve import StaticServer

    with StaticServer(pages_dir()) as server:
        yield server


@pytest.mark.parametrize("task", VISION_TASKS, ids=lambda t: t.id)
def test_scripted_vision_policy_solves_the_task(task, browser_session, vision_server) -> None:  # type: ignore[no-untyped-def]
    result = run_vision_task(task, browser_session, vision_server.url(""))
    assert result.success, (result.detail, result.answer, result.steps)
    errors = [s.coord_error_css for s in result.steps if s.coord_error_css is not None]
    assert all(e < 1e-6 for e in errors), errors


def _click(ex: Executor, obs, hybrid, name: str):  # type: ignore[no-untyped-def]
    el = next(e for e in hybrid.elements if e.name == name)
    return ex.execute(Action("click_at", {"x": el.centre[0], "y": el.centre[1]}), obs)


def test_clock_and_carousel_alone_never_fire_but_a_canvas_repaint_does(episode, vision_server) -> None:  # type: ignore[no-untyped-def]
    episode.goto(vision_server.url("clock.html"))
    ex = Executor(episode, Budgets(max_repeats=20))
    ex.pixels = PixelWatch()
    ex.pixels.arm(episode)
    assert ex.pixels.mask, "the clock and the carousel are learnt as volatile while nobody acts"
    obs = episode.observe()
    hybrid = capture_hybrid(episode, obs)
    ex.screen = hybrid.screenshot.geometry
    _click(ex, obs, hybrid, "Refresh later")  # focus ring: a real change, once
    fires = 0
    for _ in range(6):  # the page goes on ticking; pressing the no-op button changes nothing
        episode.page.wait_for_timeout(350)
        fb = _click(ex, obs, hybrid, "Refresh later")
        fires += int(fb.detail.get("pixel_cells", 0) > 0)
        assert fb.status == "no_change", fb.message
    assert fires == 0
    fb = _click(ex, obs, hybrid, "Show delays")
    assert fb.detail["pixel_cells"] > 0 and fb.status == "done", fb.message
    assert any(c.startswith("the screen changed") for c in fb.changes)
    board = next(e for e in capture_hybrid(episode, episode.observe()).elements if e.name == "Delays board")
    check = cross_check("25", capture_hybrid(episode, obs).screenshot.image(),
                        (board.x, board.y, board.w, board.h // 2))
    assert check.agrees, check


def test_a_hover_tooltip_drawn_into_a_canvas_is_a_change_only_pixels_see(episode, vision_server) -> None:  # type: ignore[no-untyped-def]
    episode.goto(vision_server.url("chart.html"))
    ex = Executor(episode)
    obs = episode.observe()
    hybrid = capture_hybrid(episode, obs)
    ex.screen = hybrid.screenshot.geometry
    canvas = next(e for e in hybrid.elements if e.role == "Canvas")
    x, y = hybrid.screenshot.geometry.to_screen(*hybrid.screenshot.geometry.to_css(canvas.x, canvas.y))
    point = {"x": x + 280, "y": y + 300}
    fb = ex.execute(Action("hover_at", point), obs)
    assert fb.status == "no_change", "without the pixel watch the DOM fingerprint sees nothing"
    ex.execute(Action("hover_at", {"x": x + 600, "y": y + 10}), obs)  # inside the canvas, off the bars: no tooltip
    ex.pixels = PixelWatch()
    ex.pixels.arm(episode)
    fb = ex.execute(Action("hover_at", point), obs)
    assert fb.status == "done" and fb.detail["pixel_cells"] > 0, fb.message
    assert fb.detail["phash_before"] != fb.detail["phash_after"]


def test_the_obfuscating_font_makes_dom_and_pixels_disagree_and_the_harness_says_so(browser_session, vision_server) -> None:  # type: ignore[no-untyped-def]
    from pagelens.bench.vision import FONT_PERMUTATION
    from pagelens.bench.vision_font import decode_digits

    task = {t.id: t for t in VISION_TASKS}["vision-obfuscated-digits"]
    result = run_vision_task(task, browser_session, vision_server.url(""), pixels=False)
    assert result.success and result.answer == decode_digits("471928", FONT_PERMUTATION) == "829741", result
    assert [(c.value, c.verdict, c.screen) for c in result.checks] == [("471928", "disagree", "829741")]
    chart = run_vision_task({t.id: t for t in VISION_TASKS}["vision-chart-hover"], browser_session,
                            vision_server.url(""), pixels=False)
    assert chart.success and chart.checks == (), "a canvas holds no DOM text to disagree with"
